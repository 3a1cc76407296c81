/**
 * The server says in its log when it cannot see the vendors (most reads failing), with the cause
 * and the fix, again every ten minutes while it lasts, once when reads work again; and a
 * reading-health summary every five minutes. Driven with scripted poller counters and explicit
 * times (no timer).
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import type { PollerStats } from "../../domain/mod.ts";
import { blindAdvice, sightOf } from "../../domain/mod.ts";
import { createSightLog } from "../../ingest/mod.ts";
import { createLogger } from "../../log.ts";
import { pollerStats } from "../support/store.ts";

const MIN = 60_000;
const T = Date.UTC(2026, 10, 28, 12);

function stats(over: Partial<PollerStats> = {}): PollerStats {
  return { ...pollerStats(), ...over };
}

Deno.test("an interval is blind when most of at least five polls failed", () => {
  const at = (polls: number, failures: number, network = failures) =>
    sightOf(
      stats(),
      stats({ polls, failures, failuresByReason: { network, timeout: failures - network } }),
    );
  equal(at(10, 8).blind, true);
  equal(at(10, 7).blind, false);
  equal(at(4, 4).blind, false, "too few polls to say");
  deepStrictEqual(at(10, 9, 6).reasons, [{ kind: "network", count: 6 }, {
    kind: "timeout",
    count: 3,
  }]);
  match(blindAdvice("network"), /DNS .*HTTPS_PROXY/);
  match(blindAdvice("refused_address"), /STATUSD_ALLOW_PRIVATE_VENDORS/);
});

Deno.test("the log warns with the cause and the fix, repeats every ten minutes, and says when reads work again", () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("info", (l) => lines.push(JSON.parse(l)));
  let now = stats();
  const sight = createSightLog(() => now, log);
  const minute = (polls: number, failures: number) => {
    now = stats({
      polls: now.polls + polls,
      ok: now.ok + polls - failures,
      failures: now.failures + failures,
      failuresByReason: { network: (now.failuresByReason.network ?? 0) + failures },
    });
  };
  const warnings = () => lines.filter((l) => l.level === "warn");
  minute(20, 0);
  sight.check(T);
  equal(warnings().length, 0);
  for (let m = 1; m <= 12; m++) {
    minute(20, 20);
    sight.check(T + m * MIN);
  }
  equal(warnings().length, 2, "at once, then ten minutes later");
  const first = warnings()[0]!;
  equal(first.msg, "most vendor reads fail: statusd cannot see the vendors");
  equal(first.reasons, "network error 20");
  match(String(first.fix), /check its network and DNS/);
  minute(20, 1);
  sight.check(T + 13 * MIN);
  const back = lines.find((l) => l.msg === "vendor reads work again")!;
  equal(back.blindFor, "12 min");
  // The summary came every five minutes, at info level, with the period's counts.
  const summaries = lines.filter((l) => l.msg === "reading health");
  equal(summaries.length, 2);
  deepStrictEqual([summaries[0]!.polls, summaries[0]!.failed, summaries[0]!.minutes], [
    100,
    100,
    5,
  ]);
  equal(summaries[0]!.reasons, "network error 100");
});

Deno.test("a calm poller only logs its summary", () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("info", (l) => lines.push(JSON.parse(l)));
  let polls = 0;
  const sight = createSightLog(() => stats({ polls, ok: polls }), log);
  for (let m = 0; m <= 10; m++) {
    polls += 30;
    sight.check(T + m * MIN);
  }
  deepStrictEqual(lines.map((l) => [l.level, l.msg]), [
    ["info", "reading health"],
    ["info", "reading health"],
  ]);
});
