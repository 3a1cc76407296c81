/**
 * `/healthz` and the log when no vendor can be read: the real poller reads simulated vendors
 * that never answer (each request hangs until the fetch times out), on a fixed clock.
 * `/healthz` turns `degraded` (still 200) with the failures counted by kind; the log warns once
 * after five minutes without any answer and says once, at info, when vendors answer again.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { fixedClock, MINUTE_MS } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { createLogger } from "../../log.ts";
import { createAppContext } from "../../app/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { syncVendors } from "../support/seed.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const WARNING = "no vendor answered in 5 min: is outbound HTTPS blocked?";

type Health = {
  status: string;
  reasons: string[];
  reading: {
    windowSeconds: number;
    polls: number;
    failed: number;
    failuresByKind: Record<string, number>;
    services: Record<string, number>;
  };
  poller: { missedDeadlines: number; lastMissAt: number | null; lastMissByMs: number | null };
};

Deno.test("every vendor failing: /healthz degraded with counts by kind, one warning, one recovery line", async () => {
  const sim = startSimulator();
  const store = memoryStore();
  const clock = fixedClock(T0);
  const vendors = sim.catalog(3, "dark");
  await syncVendors(store, vendors, T0);
  for (const v of vendors) sim.setScenario(v.slug, "hang");
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log = createLogger("info", (l) => lines.push(JSON.parse(l)));
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 8,
      timeoutMs: 1000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(store, clock, { log, adapters: { statuspage } }),
  );
  const app = createServer({
    app: createAppContext({
      store,
      clock,
      log,
      settings: { publicUrl: "http://localhost", pollStableSeconds: 300, pollMovingSeconds: 60 },
    }),
    // As a started poller reports itself (these tests drive rounds with runOnce).
    pollerStats: () => ({ ...poller.stats(), running: true }),
  });
  const health = async () => {
    const res = await app.request("http://localhost/healthz");
    return { code: res.status, body: await res.json() as Health };
  };
  const warnings = () => lines.filter((l) => l.msg === WARNING);
  const round = async (at: number) => {
    clock.set(at);
    await poller.runOnce();
  };
  try {
    const before = await health();
    equal(before.body.status, "ok", "nothing polled yet: nothing failed");
    deepStrictEqual(before.body.reasons, []);

    await round(T0);
    const h = await health();
    equal(h.code, 200);
    equal(h.body.status, "degraded");
    deepStrictEqual(h.body.reasons, ["3 of 3 polls in the last 10 min failed"]);
    deepStrictEqual(h.body.reading.failuresByKind, { timeout: 3 });
    equal(h.body.reading.windowSeconds, 600);
    equal(h.body.reading.services.failing, 3);
    equal(warnings().length, 0, "not yet five minutes");

    await round(T0 + 2 * MINUTE_MS);
    await round(T0 + 4 * MINUTE_MS);
    equal(warnings().length, 0, "four minutes");
    await round(T0 + 5 * MINUTE_MS + 30_000);
    equal(warnings().length, 1, "five minutes without an answer");
    const w = warnings()[0]!;
    equal(w.level, "warn");
    equal(w.silentSince, new Date(T0).toISOString());
    equal((w.failuresByKind as Record<string, number>).timeout > 0, true);
    await round(T0 + 8 * MINUTE_MS);
    equal(warnings().length, 1, "said once");
    equal((await health()).body.reading.failuresByKind.timeout > 3, true);

    for (const v of vendors) sim.setScenario(v.slug, "calm");
    await round(T0 + 15 * MINUTE_MS);
    const recovered = lines.filter((l) => l.msg === "vendors answer again");
    equal(recovered.length, 1);
    equal(recovered[0]!.level, "info");
    await round(T0 + 30 * MINUTE_MS);
    equal(lines.filter((l) => l.msg === "vendors answer again").length, 1, "said once");
    equal(warnings().length, 1);
    const ok_ = await health();
    equal(ok_.body.status, "ok", JSON.stringify(ok_.body.reasons));
    equal(ok_.body.reading.failed, 0);
    ok(ok_.body.reading.polls > 0);
    equal(ok_.body.reading.services.fresh, 3);
    // The rounds above come minutes apart, past the deadlines the polls promised: /healthz says so.
    ok(ok_.body.poller.missedDeadlines > 0);
    equal(ok_.body.poller.lastMissAt, T0 + 30 * MINUTE_MS, "the last round's polls were late");
    ok(ok_.body.poller.lastMissByMs! >= 10 * MINUTE_MS, `${ok_.body.poller.lastMissByMs}`);
  } finally {
    await poller.stop();
    await sim.close();
    await store.close();
  }
});
