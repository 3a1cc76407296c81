/**
 * One lifecycle per notification (issue #28): a rule that watches a level and incidents, with a
 * PagerDuty route, sees its vendor go operational → partial outage with an incident → operational.
 * The status alert and the incident alert are two notifications, each triggered once and resolved
 * once with its own key (PagerDuty `dedup_key`): the status alert's recovery resolves the status
 * alert, never the incident. An incident resolved that the rule never told of sends no resolve.
 */
import { deepStrictEqual } from "node:assert/strict";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
} from "../../app/mod.ts";
import type { IncidentSnapshot, Snapshot, StatusLevel } from "../../domain/mod.ts";
import { renderFor } from "../../outbound/channels/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { deliverDue } from "../support/deliver.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;
const MIN = 60_000;
const KEY = "R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12";

const incident = (id: string, at: number, resolvedAt: number | null = null): IncidentSnapshot => ({
  externalId: id,
  title: `Incident ${id}`,
  status: resolvedAt === null ? "INVESTIGATING" : "RESOLVED",
  impact: "MINOR",
  startedAt: at,
  updatedAt: resolvedAt ?? at,
  resolvedAt,
  url: null,
  componentIds: [],
  updates: [],
});

const page = (indicator: StatusLevel, incidents: IncidentSnapshot[]): Snapshot => ({
  indicator,
  components: [],
  incidents,
});

async function rig(before: IncidentSnapshot[] = []) {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - 86_400_000);
  await recordReading(ctx.store, "acme", page("OPERATIONAL", before), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "pd",
    settings: { kind: "pagerduty", routingKey: KEY },
  })).route;
  await createMonitor(ctx, admin, { service: "acme" });
  await createRule(ctx, admin, {
    name: "stack",
    target: { kind: "all" },
    level: "PARTIAL_OUTAGE",
    incidents: true,
    recovery: true,
    routes: [route.id],
  });
  await evaluateAlerts(ctx);
  /** The PagerDuty events queued so far, in order: [event_action, dedup_key]. */
  const events = async () =>
    (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 100 })).items
      .slice().reverse()
      .map((d) => {
        const out = renderFor(
          {
            kind: "pagerduty",
            routingKey: KEY,
            endpoint: "https://events.pagerduty.com/v2/enqueue",
          },
          d.message,
          { eventId: d.id, at: d.createdAt },
        );
        const body = JSON.parse(out.kind === "http" ? out.body : "{}");
        return [body.event_action, body.dedup_key, d.message.trigger] as const;
      });
  const read = async (snapshot: Snapshot) => {
    now += MIN;
    await recordReading(ctx.store, "acme", snapshot, now);
    await evaluateAlerts(ctx);
    await deliverDue(ctx);
  };
  return {
    [Symbol.asyncDispose]: () => ctx.store.close(),
    read,
    events,
    at: () => now,
  };
}

Deno.test("status and incident alerts keep separate keys: each triggered once and resolved once", async () => {
  await using r = await rig();
  await r.read(page("PARTIAL_OUTAGE", [incident("i1", r.at() + MIN)]));
  await r.read(page("OPERATIONAL", [incident("i1", r.at(), r.at() + MIN)]));
  const events = await r.events();
  const byKey = new Map<string, string[]>();
  for (const [action, key] of events) byKey.set(key, [...byKey.get(key) ?? [], action]);
  deepStrictEqual([...byKey.values()].map((a) => a.join(",")).sort(), [
    "trigger,resolve",
    "trigger,resolve",
  ]);
  const triggers = events.filter(([a]) => a === "trigger").map(([, , t]) => String(t));
  deepStrictEqual(triggers.filter((t) => t === "status").length, 1);
  deepStrictEqual(triggers.filter((t) => t.startsWith("incident_")).length, 1);
  const statusKey = events.find(([, , t]) => t === "status")![1];
  const recovered = events.find(([, , t]) => t === "recovered")!;
  deepStrictEqual(
    recovered.slice(0, 2),
    ["resolve", statusKey],
    "the recovery resolves the status alert",
  );
});

Deno.test("an incident the rule never told of sends no resolve when it ends", async () => {
  await using r = await rig([incident("old", T0 - 7_200_000)]);
  await r.read(page("OPERATIONAL", [incident("old", T0 - 7_200_000, T0)]));
  deepStrictEqual(await r.events(), []);
});
