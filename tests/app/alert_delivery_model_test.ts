/**
 * Every alert closes, whatever becomes of its deliveries. fast-check draws histories of one
 * vendor's level watched by a rule with two or three routes, while the routes fail (503, retried
 * with backoff), recover, are paused and resumed. The real pipeline runs: readings stored, the
 * evaluator, and the delivery worker (with a sender whose answers the history sets) at every
 * step. A reference model says, from the routes' states alone, which routes each alert reached
 * before it ended; the outbox must then hold, once every route works again and every retry ran:
 * - an ended alert's recovery on exactly the routes it reached (a closing marker instead when
 *   the rule sends none; nothing at all when it reached none), delivered after the last attempt
 *   of the trigger there, and no attempt of the trigger anywhere after it ended;
 * - an alert still open delivered on every route.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
} from "../../app/mod.ts";
import type { DeliveryRecord, EpochMs } from "../../domain/mod.ts";
import { silentLogger } from "../../log.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import type { SendResult } from "../../outbound/transport.ts";
import { accountOf, memberOf } from "../store/conformance/accounts.ts";
import { testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { TEST_ENGINE } from "../support/store.ts";

const T0 = Date.UTC(2026, 10, 21, 12);
const MIN = 60_000;

interface Setup {
  readonly routes: number;
  readonly forMinutes: number;
  readonly recovery: boolean;
}

type Level = "OPERATIONAL" | "PARTIAL_OUTAGE" | "MAJOR_OUTAGE";
type Step =
  | { readonly t: "level"; readonly after: number; readonly level: Level }
  | { readonly t: "answer"; readonly after: number; readonly route: number; readonly ok: boolean }
  | { readonly t: "pause" | "resume"; readonly after: number; readonly route: number };

const above = (l: Level) => l !== "OPERATIONAL";

/** One alert as the model sees it: when it fired, when due, when it ended, what it reached. */
interface ModelAlert {
  readonly start: EpochMs;
  readonly due: EpochMs;
  end: EpochMs | null;
  readonly reached: Set<number>;
}

/**
 * The model. The worker runs at every step before its action and after the evaluation; an
 * alert's trigger reaches route r at the first run at or after it is due while r is not paused
 * (a run that finds r paused holds it a minute), up to the run before the step that ends it.
 */
function model(setup: Setup, steps: readonly Step[]): ModelAlert[] {
  const paused = new Set<number>();
  const alerts: ModelAlert[] = [];
  let open: ModelAlert | null = null;
  let level: Level = "OPERATIONAL";
  let at = T0;
  /** When each route's trigger of the open alert is due again (a paused route holds it). */
  let held = new Map<number, EpochMs>();
  const run = () => {
    if (open === null) return;
    for (let r = 0; r < setup.routes; r++) {
      if (open.reached.has(r) || at < (held.get(r) ?? open.due)) continue;
      // A paused route's delivery is looked at again a minute later.
      if (paused.has(r)) held.set(r, at + MIN);
      else open.reached.add(r);
    }
  };
  for (const s of steps) {
    at += s.after * MIN;
    run();
    if (s.t === "pause") paused.add(s.route % setup.routes);
    else if (s.t === "resume") paused.delete(s.route % setup.routes);
    else if (s.t === "level") {
      const was = level;
      level = s.level;
      if (!above(was) && above(level)) {
        open = { start: at, due: at + setup.forMinutes * MIN, end: null, reached: new Set() };
        held = new Map();
        alerts.push(open);
      } else if (above(was) && !above(level) && open !== null) {
        open.end = at;
        open = null;
      }
    }
    run();
  }
  return alerts;
}

async function pipeline(setup: Setup, steps: readonly Step[]) {
  let now = T0;
  const clock = { now: () => now };
  await using ctx = testContext({ clock });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme" })], T0 - 86_400_000);
  const read = (level: Level) =>
    recordReading(ctx.store, "acme", { indicator: level, components: [], incidents: [] }, now);
  await read("OPERATIONAL");
  await ctx.store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
  const admin: Caller = { kind: "admin", account: accountOf("a1") };
  const routes: string[] = [];
  const answers = new Map<string, boolean>();
  for (let r = 0; r < setup.routes; r++) {
    const url = `http://127.0.0.1:9/r${r}`;
    routes.push(
      (await createRoute(ctx, admin, {
        name: `r${r}`,
        settings: { kind: "webhook", url },
      })).route.id,
    );
    answers.set(url, true);
  }
  const m = await createMonitor(ctx, admin, { service: "acme" });
  const rule = await createRule(ctx, admin, {
    name: "model",
    target: { kind: "monitor", id: m.id },
    level: "PARTIAL_OUTAGE",
    forMinutes: setup.forMinutes,
    recovery: setup.recovery,
    routes,
  });
  await evaluateAlerts(ctx);
  const sent: { url: string; at: EpochMs; ok: boolean }[] = [];
  const worker = createDeliveryWorker({
    store: ctx.store,
    http: {
      send(out): Promise<SendResult> {
        const fine = answers.get(out.url) ?? true;
        sent.push({ url: out.url, at: now, ok: fine });
        return Promise.resolve({
          ok: fine,
          status: fine ? 200 : 503,
          reply: null,
          latencyMs: 1,
          retryAfterMs: null,
          permanent: false,
          error: fine ? null : "HTTP 503",
        });
      },
    },
    mail: null,
    clock,
    log: silentLogger,
    instanceId: "model",
    options: { random: () => 0.5 },
  });
  const drain = async () => {
    for (let i = 0; i < 30; i++) {
      const n = await worker.runOnce();
      await worker.stop();
      if (n === 0) return;
    }
  };
  for (const s of steps) {
    now += s.after * MIN;
    await drain();
    if (s.t === "level") await read(s.level);
    else if (s.t === "answer") answers.set(`http://127.0.0.1:9/r${s.route % setup.routes}`, s.ok);
    else if (s.t === "pause") {
      await ctx.store.alertRoutes.recordOutcome("a1", routes[s.route % setup.routes]!, {
        ok: false,
        at: now,
        pauseAfter: 1,
        reason: "the history paused it",
      });
    } else await ctx.store.alertRoutes.resume("a1", routes[s.route % setup.routes]!);
    await evaluateAlerts(ctx);
    await drain();
  }
  // Every route works again and every retry runs (backoff reaches an hour).
  for (const url of answers.keys()) answers.set(url, true);
  for (const id of routes) await ctx.store.alertRoutes.resume("a1", id);
  for (let i = 0; i < 12; i++) {
    now += 30 * MIN;
    await drain();
  }
  const all = (await ctx.store.deliveries.list("a1", {}, { page: 0, limit: 1000 })).items
    .filter((d) => d.source.id === rule.id);
  const attempts = new Map<string, EpochMs[]>();
  for (const d of all) {
    attempts.set(d.id, (await ctx.store.deliveries.get("a1", d.id))!.attempts.map((a) => a.at));
  }
  return { all, attempts, routes };
}

/** Checks the outbox against the model's alerts. */
function check(
  setup: Setup,
  alerts: readonly ModelAlert[],
  got: Awaited<ReturnType<typeof pipeline>>,
) {
  const byNotification = new Map<string, DeliveryRecord[]>();
  for (const d of got.all) {
    const list = byNotification.get(d.notificationId) ?? [];
    list.push(d);
    byNotification.set(d.notificationId, list);
  }
  // Notifications in the order their alerts fired.
  const notifications = [...byNotification.values()].sort((a, b) =>
    a[0]!.createdAt - b[0]!.createdAt
  );
  equal(notifications.length, alerts.length, "one notification per alert");
  alerts.forEach((alert, k) => {
    const ds = notifications[k]!;
    const routeOf = (d: DeliveryRecord) => got.routes.indexOf(d.routeId);
    const triggers = ds.filter((d) => !d.recovery);
    const recoveries = ds.filter((d) => d.recovery);
    const tried = (d: DeliveryRecord) => got.attempts.get(d.id)!;
    if (alert.end === null) {
      // Still open: it reaches every route in the end.
      for (const d of triggers) equal(d.state, "delivered", `open alert ${k} on ${routeOf(d)}`);
      equal(recoveries.length, 0);
      return;
    }
    const end = alert.end;
    const reached = [...alert.reached].sort();
    // No trigger is attempted after its alert ended.
    for (const d of triggers) {
      ok(tried(d).every((t) => t <= end), `alert ${k}: a trigger to ${routeOf(d)} after its end`);
    }
    deepStrictEqual(
      [...new Set(triggers.filter((d) => tried(d).length > 0).map(routeOf))].sort(),
      reached,
      `alert ${k}: the routes its trigger reached`,
    );
    if (reached.length === 0) {
      equal(recoveries.length, 0, `alert ${k}: reached nothing, ends without a word`);
      return;
    }
    if (!setup.recovery) {
      equal(recoveries.length, 1, `alert ${k}: one closing marker`);
      equal(recoveries[0]!.state, "cancelled");
      return;
    }
    deepStrictEqual(recoveries.map(routeOf).sort(), reached, `alert ${k}: recovered where told`);
    for (const r of recoveries) {
      equal(r.state, "delivered", `alert ${k}: the recovery to ${routeOf(r)} went`);
      const lastTrigger = Math.max(
        ...triggers.filter((d) => d.routeId === r.routeId).flatMap(tried),
      );
      ok(tried(r).at(-1)! >= lastTrigger, `alert ${k}: recovery before its trigger`);
    }
  });
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("level" as const),
      after: fc.integer({ min: 1, max: 6 }),
      level: fc.constantFrom<Level>("OPERATIONAL", "PARTIAL_OUTAGE", "MAJOR_OUTAGE"),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("answer" as const),
      after: fc.integer({ min: 0, max: 3 }),
      route: fc.nat(2),
      ok: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constantFrom("pause" as const, "resume" as const),
      after: fc.integer({ min: 0, max: 3 }),
      route: fc.nat(2),
    }),
  },
);

const setupArb: fc.Arbitrary<Setup> = fc.record({
  routes: fc.integer({ min: 2, max: 3 }),
  forMinutes: fc.constantFrom(0, 3),
  recovery: fc.boolean(),
});

Deno.test("alerts close: recoveries reach every route the alert reached, whatever the deliveries did", async () => {
  await fc.assert(
    fc.asyncProperty(
      setupArb,
      fc.array(stepArb, { minLength: 1, maxLength: 16 }),
      async (s, steps) => {
        check(s, model(s, steps), await pipeline(s, steps));
      },
    ),
    {
      numRuns: Number(Deno.env.get("STATUSD_MODEL_RUNS") ?? (TEST_ENGINE === "postgres" ? 25 : 60)),
    },
  );
});

Deno.test("one route retrying (503) or paused: the recovery still goes where the alert went", async () => {
  for (const trouble of ["retrying", "paused"] as const) {
    const setup = { routes: 2, forMinutes: 0, recovery: true };
    const steps: Step[] = [
      ...(trouble === "paused"
        ? [{ t: "pause" as const, after: 1, route: 1 }]
        : [{ t: "answer" as const, after: 1, route: 1, ok: false }]),
      { t: "level", after: 1, level: "MAJOR_OUTAGE" },
      { t: "level", after: 2, level: "OPERATIONAL" },
    ];
    const alerts = model(setup, steps);
    deepStrictEqual(
      [...alerts[0]!.reached].sort(),
      trouble === "paused" ? [0] : [0, 1],
    );
    check(setup, alerts, await pipeline(setup, steps));
  }
});
