/**
 * What an alert says is true and reads as English (issue #28): 60 components down are listed up
 * to 50 with the total of 60 stated (and "and 50 more" after the ten a chat shows); levels read
 * "has a major outage"; a time to resolve is quoted only from five incidents or more, with their
 * number; a resolved incident's message does not promise to tell when it recovers; and every
 * alert links the vendor's incident page (an http(s) one only), the vendor's status page, the
 * service page and Settings › Alerts.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
} from "../../app/mod.ts";
import type { IncidentSnapshot, Snapshot, StatusLevel } from "../../domain/mod.ts";
import { factLines, linkList } from "../../outbound/channels/_text.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { deliverDue } from "../support/deliver.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;
const MIN = 60_000;

function page(level: StatusLevel, down: number, incidents: IncidentSnapshot[] = []): Snapshot {
  return {
    indicator: level,
    components: Array.from({ length: 60 }, (_, i) => ({
      externalId: `c${i}`,
      name: `Region ${String(i).padStart(2, "0")}`,
      group: null,
      status: i < down ? "MAJOR_OUTAGE" : "OPERATIONAL",
    })),
    incidents,
  };
}

const incident = (id: string, start: number, over: Partial<IncidentSnapshot> = {}) => ({
  externalId: id,
  title: `Incident ${id}`,
  status: "INVESTIGATING" as const,
  impact: "MAJOR" as const,
  startedAt: start,
  updatedAt: start,
  resolvedAt: null,
  url: null,
  componentIds: [],
  updates: [{ at: start, status: "INVESTIGATING" as const, body: "Looking" }],
  ...over,
});

async function setup(history: number) {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - 86_400_000);
  // `history` MAJOR incidents resolved in the last 90 days, 30 minutes each.
  const past = Array.from(
    { length: history },
    (_, i) =>
      incident(`old${i}`, T0 - (i + 2) * 86_400_000, {
        status: "RESOLVED",
        resolvedAt: T0 - (i + 2) * 86_400_000 + 30 * MIN,
        updatedAt: T0 - (i + 2) * 86_400_000 + 30 * MIN,
      }),
  );
  await recordReading(ctx.store, "acme", page("OPERATIONAL", 0, past), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "hooks",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks" },
  })).route;
  await createMonitor(ctx, admin, { service: "acme" });
  await createRule(ctx, admin, {
    name: "All",
    target: { kind: "all" },
    level: "PARTIAL_OUTAGE",
    incidents: true,
    routes: [route.id],
  });
  equal(await evaluateAlerts(ctx), 0);
  const messages = async () =>
    (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 100 })).items
      .map((d) => d.message).sort((a, b) => a.at - b.at);
  return {
    [Symbol.asyncDispose]: () => ctx.store.close(),
    ctx,
    past,
    messages,
    admin,
    accountId: who.account.id,
    advance: (ms: number) => (now += ms),
    at: () => now,
  };
}

Deno.test("60 components down: 50 listed, 60 stated; the level reads as English", async () => {
  await using s = await setup(0);
  s.advance(MIN);
  await recordReading(s.ctx.store, "acme", page("MAJOR_OUTAGE", 60), s.at());
  await evaluateAlerts(s.ctx);
  const [m] = await s.messages();
  ok(m);
  equal(m.summary, "Acme Cloud has a major outage");
  equal(m.components.length, 50);
  equal(m.componentsTotal, 60);
  const lines = factLines(m).join("\n");
  match(lines, /Acme Cloud: major outage \(was operational\)/);
  match(lines, /Components \(60\): Region 00 \(major outage\), .*, and 50 more/);
  equal(m.timeToResolve, null, "no history: no figure");
});

Deno.test("a time to resolve is quoted from five incidents or more, with how many", async () => {
  for (const [history, quoted] of [[4, false], [5, true]] as const) {
    await using s = await setup(history);
    s.advance(MIN);
    await recordReading(
      s.ctx.store,
      "acme",
      page("PARTIAL_OUTAGE", 1, [...s.past, incident("now", s.at())]),
      s.at(),
    );
    await evaluateAlerts(s.ctx);
    // A new incident is "opened", though the vendor posted its first update with it.
    const opened = (await s.messages()).find((m) => m.trigger === "incident_opened");
    ok(opened, `${history}: an incident alert`);
    equal(opened.timeToResolve !== null, quoted, `${history} incidents`);
    if (quoted) {
      equal(opened.timeToResolve!.sample, 5);
      match(factLines(opened).join("\n"), /usually resolve in 30 min, p90 30 min \(5 incidents\)/);
    }
    await deliverDue(s.ctx);
    // The vendor resolves it: the message no longer promises to tell of a recovery.
    s.advance(MIN);
    await recordReading(
      s.ctx.store,
      "acme",
      page("OPERATIONAL", 0, [
        ...s.past,
        incident("now", s.at() - MIN, {
          status: "RESOLVED",
          resolvedAt: s.at(),
          updatedAt: s.at(),
        }),
      ]),
      s.at(),
    );
    await evaluateAlerts(s.ctx);
    const resolved = (await s.messages()).find((m) => m.trigger === "incident_resolved");
    ok(resolved, "a resolved alert");
    ok(!/tells you when it recovers/.test(resolved.advice), resolved.advice);
    equal(resolved.timeToResolve, null);
  }
});

Deno.test("an incident alert links the vendor's incident page, status page, service page and settings", async () => {
  await using s = await setup(0);
  s.advance(MIN);
  await recordReading(
    s.ctx.store,
    "acme",
    page("PARTIAL_OUTAGE", 1, [
      incident("linked", s.at(), { url: "https://status.acme.test/incidents/linked" }),
      incident("hostile", s.at(), { url: "javascript:alert(1)" }),
    ]),
    s.at(),
  );
  await evaluateAlerts(s.ctx);
  const byTitle = new Map((await s.messages()).map((m) => [m.incident?.title ?? m.trigger, m]));
  const linked = byTitle.get("Incident linked")!;
  equal(linked.incident!.url, "https://status.acme.test/incidents/linked");
  const own = (await s.ctx.store.deliveries.list(s.accountId, {}, { page: 0, limit: 10 })).items
    .find((d) => d.message.incident?.title === "Incident linked")!;
  deepStrictEqual(linkList(linked).map((l) => l.url), [
    "https://acme.example.test/",
    "http://localhost:8080/services/acme",
    "https://status.acme.test/incidents/linked",
    `http://localhost:8080/settings/alerts/events/${own.id}`,
  ]);
  equal(linked.links.alerts, "http://localhost:8080/settings/alerts");
  equal(byTitle.get("Incident hostile")!.incident!.url, null);
});

Deno.test("a maintenance still under way past its announced end says by how much it overran", async () => {
  await using s = await setup(0);
  const admin = s.admin;
  const route = (await createRoute(s.ctx, admin, {
    name: "maintenance hooks",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/maintenance" },
  })).route;
  await createRule(s.ctx, admin, {
    name: "Maintenance",
    target: { kind: "all" },
    maintenance: true,
    routes: [route.id],
  });
  const window = { scheduledStartAt: T0 + 10 * MIN, scheduledEndAt: T0 + 70 * MIN };
  const works = (status: "SCHEDULED" | "IN_PROGRESS", at: number) =>
    incident("works", T0 + 10 * MIN, {
      title: "Database upgrade",
      status,
      impact: "MAINTENANCE",
      updatedAt: at,
      updates: [{ at, status, body: status === "SCHEDULED" ? "Planned" : "Started" }],
      ...window,
    });
  /** The page after `ms` more, showing the maintenance as `status`; then the alerts it causes. */
  const readAfter = async (ms: number, status: "SCHEDULED" | "IN_PROGRESS") => {
    s.advance(ms);
    await recordReading(
      s.ctx.store,
      "acme",
      page("OPERATIONAL", 0, [works(status, s.at())]),
      s.at(),
    );
    await evaluateAlerts(s.ctx);
  };
  await readAfter(MIN, "SCHEDULED");
  // The vendor starts it late: past the end it announced.
  await readAfter(2 * 60 * MIN, "IN_PROGRESS");
  const messages = await s.messages();
  const scheduled = messages.find((m) => m.trigger === "maintenance_scheduled")!;
  ok(scheduled, messages.map((m) => m.trigger).join(", "));
  equal(scheduled.summary, "Acme Cloud: Database upgrade", "not overrun before its end");
  const started = messages.find((m) => m.trigger === "maintenance_started")!;
  ok(started, messages.map((m) => m.trigger).join(", "));
  equal(started.summary, "Acme Cloud: Database upgrade (overran its announced end by 51 min)");
  match(
    started.advice,
    /overran its announced end by 51 min and Acme Cloud has not said it is done/,
  );
});
