/**
 * Status alerts against a reference model (issue #28): fast-check draws random histories of a
 * vendor's two components (readings minutes apart; the vendor's level is the worse of them), a
 * monitor of the whole service, of one component or of both, and a random rule (threshold,
 * forMinutes, recovery);
 * the real pipeline (readings stored, the evaluator on a fake clock, the outbox) must queue
 * exactly the model's notifications — each episode at or above the threshold that lasts at least
 * forMinutes is one trigger, due forMinutes after it began, followed by one resolve when it ends
 * (if the rule sends recoveries); a shorter flap sends nothing; none missing, none doubled, no
 * resolve without its trigger.
 */
import { deepStrictEqual } from "node:assert/strict";
import fc from "fast-check";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
} from "../../app/mod.ts";
import { severity, type StatusLevel } from "../../domain/mod.ts";
import { testContext } from "../support/accounts.ts";
import { accountOf, memberOf } from "../store/conformance/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { TEST_ENGINE } from "../support/store.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const MIN = 60_000;
const LEVELS = ["OPERATIONAL", "DEGRADED_PERFORMANCE", "PARTIAL_OUTAGE", "MAJOR_OUTAGE"] as const;

interface Rule {
  readonly level: StatusLevel;
  readonly forMinutes: number;
  readonly recovery: boolean;
}
/** One reading: minutes after the last, and the levels of components A and B. */
type Reading = { readonly afterMinutes: number; readonly a: StatusLevel; readonly b: StatusLevel };
/** Which monitor the rule watches: the whole service, or some of its components. */
type Watch = "whole" | "A" | "A+B";

const worst = (...levels: StatusLevel[]) =>
  levels.reduce((w, l) => (severity(l)! > severity(w)! ? l : w), "OPERATIONAL" as StatusLevel);

/** The level the monitor reads after a reading (the service's is the worst of its components). */
function watched(watch: Watch, r: Reading): StatusLevel {
  return watch === "A" ? r.a : worst(r.a, r.b);
}
/** What goes out: a notification's trigger or resolve, and when it is due. */
type Event = readonly ["trigger" | "resolve", number, number];

/** The reference model: episodes at or above the threshold, their triggers and resolves. */
function model(rule: Rule, watch: Watch, readings: readonly Reading[]): Event[] {
  const out: Event[] = [];
  let at = T0;
  let level: StatusLevel = "OPERATIONAL";
  let episode: { start: number; n: number } | null = null;
  let n = 0;
  const above = (l: StatusLevel) => severity(l)! >= severity(rule.level)!;
  for (const r of readings) {
    at += r.afterMinutes * MIN;
    if (watched(watch, r) === level) continue; // no change, nothing to evaluate
    level = watched(watch, r);
    if (above(level) && episode === null) {
      episode = { start: at, n: n++ };
      out.push(["trigger", episode.n, at + rule.forMinutes * MIN]);
    } else if (!above(level) && episode !== null) {
      if (at < episode.start + rule.forMinutes * MIN) {
        out.splice(out.findIndex(([k, e]) => k === "trigger" && e === episode!.n), 1);
      } else if (rule.recovery) {
        out.push(["resolve", episode.n, at]);
      }
      episode = null;
    }
  }
  return out;
}

const snapshot = (a: StatusLevel, b: StatusLevel) => ({
  indicator: worst(a, b),
  components: [
    { externalId: "a", name: "A", group: null, status: a },
    { externalId: "b", name: "B", group: null, status: b },
  ],
  incidents: [],
});

async function pipeline(rule: Rule, watch: Watch, readings: readonly Reading[]): Promise<Event[]> {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now } });
  try {
    await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme" })], T0 - 86_400_000);
    await recordReading(ctx.store, "acme", snapshot("OPERATIONAL", "OPERATIONAL"), T0 - MIN);
    // Straight through the store: a password hash per history would be most of the run.
    await ctx.store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
    const admin: Caller = { kind: "admin", account: accountOf("a1") };
    const route = (await createRoute(ctx, admin, {
      name: "hooks",
      settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks" },
    })).route;
    await createMonitor(ctx, admin, {
      service: "acme",
      components: watch === "whole" ? [] : watch === "A" ? ["A"] : ["A", "B"],
    });
    await createRule(ctx, admin, {
      name: "model",
      target: { kind: "all" },
      level: rule.level,
      forMinutes: rule.forMinutes,
      recovery: rule.recovery,
      routes: [route.id],
    });
    await evaluateAlerts(ctx);
    for (const r of readings) {
      now += r.afterMinutes * MIN;
      await recordReading(ctx.store, "acme", snapshot(r.a, r.b), now);
      await evaluateAlerts(ctx);
    }
    const items = (await ctx.store.deliveries.list("a1", {}, { page: 0, limit: 200 }))
      .items.filter((d) => d.state !== "cancelled")
      .slice().sort((a, b) => a.createdAt - b.createdAt || Number(a.recovery) - Number(b.recovery));
    const episodes = new Map<string, number>();
    return items.map((d) => {
      if (!episodes.has(d.notificationId)) episodes.set(d.notificationId, episodes.size);
      return [
        d.recovery ? "resolve" : "trigger",
        episodes.get(d.notificationId)!,
        d.notBefore,
      ] as const;
    });
  } finally {
    await ctx.store.close();
  }
}

/** Episodes renumbered in the order they appear (the model skips flaps' numbers). */
function renumbered(events: readonly Event[]): Event[] {
  const ids = new Map<number, number>();
  return events.map(([k, e, at]) => {
    if (!ids.has(e)) ids.set(e, ids.size);
    return [k, ids.get(e)!, at] as const;
  });
}

Deno.test("status alerts: the pipeline queues exactly what the model says, for random histories", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        level: fc.constantFrom<StatusLevel>(
          "DEGRADED_PERFORMANCE",
          "PARTIAL_OUTAGE",
          "MAJOR_OUTAGE",
        ),
        forMinutes: fc.constantFrom(0, 5, 10),
        recovery: fc.boolean(),
      }),
      fc.constantFrom<Watch>("whole", "A", "A+B"),
      fc.array(
        fc.record({
          afterMinutes: fc.integer({ min: 1, max: 15 }),
          a: fc.constantFrom<StatusLevel>(...LEVELS),
          b: fc.constantFrom<StatusLevel>(...LEVELS),
        }),
        { minLength: 1, maxLength: 10 },
      ),
      async (rule, watch, readings) => {
        deepStrictEqual(
          await pipeline(rule, watch, readings),
          renumbered(model(rule, watch, readings)),
        );
      },
    ),
    { numRuns: TEST_ENGINE === "postgres" ? 20 : 80 },
  );
});
