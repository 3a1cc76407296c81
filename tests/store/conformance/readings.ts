/**
 * Conformance: what a successful reading stores (`polls.recordSuccess`): the diff rules of
 * domain/reading_diff.ts persisted, the changes logged and returned, the per-vendor caps.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { STORE_LIMITS } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import {
  ALL_TIME,
  component,
  DAY,
  incident,
  MIN,
  read,
  snapshot,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

const calm = snapshot("OPERATIONAL", [
  component("api"),
  component("web", "OPERATIONAL", { group: "Apps" }),
]);

async function incidentsOf(store: Parameters<Case["run"]>[0], slug = "acme") {
  return (await store.incidents.page({ service: slug }, { page: 0, limit: 1000 }))!.items;
}

export const readingCases: Case[] = [
  {
    name:
      "polls.openIncidents lists a vendor's open incidents (not maintenance), oldest first; a reading's removedIncidents are marked removed, not resolved",
    async run(store) {
      const { acme, other } = await withVendors(store, [vendor("acme"), vendor("other")]);
      const maintenance = incident("m", T, { impact: "MAINTENANCE", status: "IN_PROGRESS" });
      const later = incident("later", T + 10 * MIN, { url: null });
      const earlier = incident("earlier", T);
      const done = incident("done", T - MIN, {
        status: "RESOLVED",
        resolvedAt: T,
        updatedAt: T,
      });
      await read(store, acme!, snapshot("OPERATIONAL", [], [later, maintenance, earlier, done]), T);
      await read(store, other!, snapshot("OPERATIONAL", [], [incident("elsewhere", T)]), T);
      deepStrictEqual(await store.polls.openIncidents(acme!), [
        { externalId: "earlier", title: "Incident earlier", url: earlier.url, startedAt: T },
        { externalId: "later", title: "Incident later", url: null, startedAt: T + 10 * MIN },
      ]);
      // The vendor's history said: "earlier" resolved (listed), "later" taken off the page.
      const resolved = { ...earlier, status: "RESOLVED" as const, resolvedAt: T + 5 * MIN };
      const changes = await read(store, acme!, {
        ...snapshot("OPERATIONAL", [], [maintenance, resolved]),
        removedIncidents: ["later"],
      }, T + 20 * MIN);
      deepStrictEqual(
        changes.map((x) => x.kind === "incident" && [x.incidentId, x.status, x.latestUpdate]),
        [["earlier", "RESOLVED", "Looking into earlier"], [
          "later",
          "RESOLVED",
          "The vendor removed this incident from its status page.",
        ]],
      );
      const byTitle = new Map((await incidentsOf(store)).map((i) => [i.title, i]));
      const gone = byTitle.get("Incident later")!;
      deepStrictEqual([gone.status, gone.removedAt], ["RESOLVED", T + 20 * MIN]);
      const fixed = byTitle.get("Incident earlier")!;
      deepStrictEqual([fixed.status, fixed.resolvedAt, fixed.removedAt], [
        "RESOLVED",
        T + 5 * MIN,
        null,
      ]);
      deepStrictEqual(await store.polls.openIncidents(acme!), []);
      deepStrictEqual((await store.polls.openIncidents(other!)).map((i) => i.externalId), [
        "elsewhere",
      ]);
    },
  },
  {
    name:
      "an incident a history document stops listing is kept, marked removed (closed if open), and restored when it comes back",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      const closed = (id: string, at: number) =>
        incident(id, at, { status: "RESOLVED", resolvedAt: at + MIN, updatedAt: at + MIN });
      const a = closed("a", T);
      const b = incident("b", T + 60 * MIN);
      const c = closed("c", T + 120 * MIN);
      const history = (...incidents: typeof a[]) => ({
        ...snapshot("OPERATIONAL", [], incidents),
        keepsHistory: true,
      });
      await read(store, acme!, history(a, b, c), T + 130 * MIN);
      const changes = await read(store, acme!, history(a, c), T + 140 * MIN);
      deepStrictEqual(changes.map((x) => x.kind === "incident" && [x.incidentId, x.status]), [
        ["b", "RESOLVED"],
      ]);
      const removed = (await incidentsOf(store)).find((i) => i.title === "Incident b")!;
      deepStrictEqual(
        [removed.status, removed.removedAt, removed.resolvedAt, removed.updates.length],
        ["RESOLVED", T + 140 * MIN, T + 140 * MIN, 1],
      );
      deepStrictEqual(removed.revisions!.map((r) => [r.kind, r.before, r.at]), [
        ["removed", "Incident b", T + 140 * MIN],
      ]);
      // Read again without it: nothing more; with it again: restored, listed as the vendor says.
      deepStrictEqual(await read(store, acme!, history(a, c), T + 150 * MIN), []);
      await read(store, acme!, history(a, b, c), T + 160 * MIN);
      const back = (await incidentsOf(store)).find((i) => i.title === "Incident b")!;
      deepStrictEqual([back.status, back.removedAt, back.revisions!.map((r) => r.kind)], [
        "INVESTIGATING",
        null,
        ["removed", "restored"],
      ]);
      // A document of open incidents only: a vanished one is resolved, never "removed".
      await read(store, acme!, snapshot("OPERATIONAL", [], [a, c]), T + 170 * MIN);
      const resolved = (await incidentsOf(store)).find((i) => i.title === "Incident b")!;
      deepStrictEqual([resolved.status, resolved.removedAt, resolved.revisions!.length], [
        "RESOLVED",
        null,
        2,
      ]);
    },
  },
  {
    name:
      "history rewrites are kept: an edited update changes in place with its old text kept, a lowered impact after the end and a moved start are recorded",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      const over = {
        status: "RESOLVED" as const,
        impact: "MAJOR" as const,
        resolvedAt: T + 30 * MIN,
        updatedAt: T + 30 * MIN,
        updates: [
          { at: T, status: "INVESTIGATING" as const, body: "Payments fail for everyone." },
          { at: T + 30 * MIN, status: "RESOLVED" as const, body: "Fixed." },
        ],
      };
      await read(
        store,
        acme!,
        snapshot("OPERATIONAL", [], [incident("i1", T, over)]),
        T + 31 * MIN,
      );
      const rewritten = snapshot("OPERATIONAL", [], [incident("i1", T - 20 * MIN, {
        ...over,
        impact: "MINOR",
        updates: [
          { at: T, status: "INVESTIGATING", body: "Some payments were slower." },
          over.updates[1]!,
        ],
      })]);
      await read(store, acme!, rewritten, T + 2 * 60 * MIN);
      const [i] = await incidentsOf(store);
      deepStrictEqual(i!.updates.map((u) => u.body), ["Some payments were slower.", "Fixed."]);
      deepStrictEqual(
        i!.revisions!.map((r) => [r.kind, r.before, r.after, r.at]).sort(),
        [
          ["impact_lowered", "MAJOR", "MINOR", T + 2 * 60 * MIN],
          [
            "start_moved",
            new Date(T).toISOString(),
            new Date(T - 20 * MIN).toISOString(),
            T + 2 * 60 * MIN,
          ],
          [
            "update_edited",
            "Payments fail for everyone.",
            "Some payments were slower.",
            T + 2 * 60 * MIN,
          ],
        ].sort(),
      );
      // Read again unchanged: nothing more is recorded, and the count is per vendor.
      await read(store, acme!, rewritten, T + 3 * 60 * MIN);
      const page = (await store.history.servicePage("acme", {
        window: ALL_TIME,
        resolvedAfter: 0,
        uptime: ALL_TIME,
        history: { start: T - DAY, end: T + DAY },
        pastSince: 0,
        pastLimit: 10,
      }))!;
      deepStrictEqual(page.rewrites, { revisions: 3, incidents: 1 });
      deepStrictEqual(page.past[0]!.revisions!.length, 3);
    },
  },
  {
    name:
      "the first reading stores components and one service change, and is not a change of lastChangedAt",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      deepStrictEqual(await read(store, acme!, calm, T), [
        { kind: "status", slug: "acme", component: null, from: "UNKNOWN", to: "OPERATIONAL" },
      ]);
      const s = (await store.catalog.service("acme"))!;
      deepStrictEqual([s.currentStatus, s.lastCheckedAt, s.lastChangedAt], [
        "OPERATIONAL",
        T,
        null,
      ]);
      const d = (await store.catalog.detail("acme", ALL_TIME, 0))!;
      deepStrictEqual(d.components.map((c) => c.name), ["API", "WEB"]);
      deepStrictEqual(d.transitions, [{ at: T, from: "UNKNOWN", to: "OPERATIONAL" }]);
    },
  },
  {
    name: "an unchanged reading logs nothing but moves the check time",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      await read(store, acme!, calm, T);
      deepStrictEqual(await read(store, acme!, calm, T + MIN), []);
      const s = (await store.catalog.service("acme"))!;
      deepStrictEqual([s.lastCheckedAt, s.lastChangedAt, s.reading.lastSuccessAt], [
        T + MIN,
        null,
        T + MIN,
      ]);
      equal((await store.history.timeline("acme", ALL_TIME, "last"))!.transitions.length, 1);
      equal(await store.changes.latestId() > 0, true);
      equal((await store.changes.after(0, 100)).length, 1);
    },
  },
  {
    name: "a degraded component, a new incident and its next update are logged in order",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      await read(store, acme!, calm, T);
      const inc = incident("inc-1", T - MIN, { componentIds: ["api"] });
      const degraded = snapshot("DEGRADED_PERFORMANCE", [
        component("api", "DEGRADED_PERFORMANCE"),
        calm.components[1]!,
      ], [inc]);
      deepStrictEqual(await read(store, acme!, degraded, T + MIN), [
        {
          kind: "status",
          slug: "acme",
          component: null,
          from: "OPERATIONAL",
          to: "DEGRADED_PERFORMANCE",
        },
        {
          kind: "status",
          slug: "acme",
          component: "API",
          from: "OPERATIONAL",
          to: "DEGRADED_PERFORMANCE",
        },
        {
          kind: "incident",
          slug: "acme",
          incidentId: "inc-1",
          title: "Incident inc-1",
          status: "INVESTIGATING",
          impact: "MINOR",
          latestUpdate: "Looking into inc-1",
          url: "https://status.test/incidents/inc-1",
          components: ["API"],
          opened: true,
        },
      ]);
      const identified = {
        ...inc,
        status: "IDENTIFIED" as const,
        updates: [...inc.updates, {
          at: T + 90_000,
          status: "IDENTIFIED" as const,
          body: "Fix rolling out",
        }],
      };
      const next = await read(store, acme!, { ...degraded, incidents: [identified] }, T + 2 * MIN);
      deepStrictEqual(next.map((c) => c.kind === "incident" && c.latestUpdate), [
        "Fix rolling out",
      ]);
      const [stored] = await incidentsOf(store);
      deepStrictEqual(stored!.updates.map((u) => [u.status, u.body]), [
        ["INVESTIGATING", "Looking into inc-1"],
        ["IDENTIFIED", "Fix rolling out"],
      ]);
      deepStrictEqual(stored!.components, ["API"]);
      const s = (await store.catalog.service("acme"))!;
      deepStrictEqual([s.currentStatus, s.lastChangedAt], ["DEGRADED_PERFORMANCE", T + MIN]);
      const c = (await store.catalog.detail("acme", ALL_TIME, 0))!.components[0]!;
      deepStrictEqual([c.status, c.updatedAt], ["DEGRADED_PERFORMANCE", T + MIN]);
    },
  },
  {
    name:
      "an open incident the page stops showing is closed at the reading time; maintenance completes",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      const work = incident("m1", T + DAY, {
        status: "SCHEDULED",
        impact: "MAINTENANCE",
        scheduledStartAt: T + DAY,
        scheduledEndAt: T + DAY + 60 * MIN,
      });
      await read(store, acme!, { ...calm, incidents: [incident("i1", T - MIN), work] }, T);
      const changes = await read(store, acme!, calm, T + MIN);
      deepStrictEqual(
        changes.map((c) => c.kind === "incident" && [c.incidentId, c.status, c.latestUpdate]),
        [["i1", "RESOLVED", null], ["m1", "COMPLETED", null]],
      );
      const stored = await incidentsOf(store);
      deepStrictEqual(
        stored.map((i) => [i.title, i.status, i.resolvedAt, i.updatedAt]).sort(),
        [
          ["Incident i1", "RESOLVED", T + MIN, T + MIN],
          ["Incident m1", "COMPLETED", T + MIN, T + MIN],
        ],
      );
      deepStrictEqual(await read(store, acme!, calm, T + 2 * MIN), [], "closed once");
    },
  },
  {
    name:
      "a component gone from the page leaves the service; one that comes back is read again from UNKNOWN",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      await read(store, acme!, calm, T);
      deepStrictEqual(
        await read(store, acme!, snapshot("OPERATIONAL", [component("api")]), T + MIN),
        [],
      );
      deepStrictEqual(
        (await store.catalog.detail("acme", ALL_TIME, 0))!.components.map((c) => c.name),
        ["API"],
      );
      deepStrictEqual(await read(store, acme!, calm, T + 2 * MIN), [
        { kind: "status", slug: "acme", component: "WEB", from: "UNKNOWN", to: "OPERATIONAL" },
      ]);
      const web = (await store.catalog.detail("acme", ALL_TIME, 0))!.components[1]!;
      deepStrictEqual([web.name, web.updatedAt], ["WEB", T + 2 * MIN]);
    },
  },
  {
    name: "repeated ids in one reading: the first component and the first incident win",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      await read(
        store,
        acme!,
        snapshot("OPERATIONAL", [
          component("api", "OPERATIONAL", { name: "First" }),
          component("api", "MAJOR_OUTAGE", { name: "Second" }),
        ], [incident("x", T, { title: "First" }), incident("x", T, { title: "Second" })]),
        T,
      );
      const d = (await store.catalog.detail("acme", ALL_TIME, 0))!;
      deepStrictEqual(d.components.map((c) => [c.name, c.status]), [["First", "OPERATIONAL"]]);
      deepStrictEqual((await incidentsOf(store)).map((i) => i.title), ["First"]);
    },
  },
  {
    name: "a rescheduled maintenance is a change; an edit of another field is stored without one",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      const m = incident("m1", T + DAY, {
        status: "SCHEDULED",
        impact: "MAINTENANCE",
        scheduledStartAt: T + DAY,
        scheduledEndAt: T + DAY + 60 * MIN,
      });
      await read(store, acme!, { ...calm, incidents: [m] }, T);
      const moved = { ...m, scheduledStartAt: T + 2 * DAY, scheduledEndAt: T + 2 * DAY + MIN };
      deepStrictEqual(
        (await read(store, acme!, { ...calm, incidents: [moved] }, T + MIN)).map((c) => c.kind),
        ["incident"],
      );
      const relinked = { ...moved, url: "https://status.test/elsewhere", updatedAt: T + MIN };
      deepStrictEqual(
        await read(store, acme!, { ...calm, incidents: [relinked] }, T + 2 * MIN),
        [],
      );
      const [stored] = await store.incidents.maintenances({ limit: 10 });
      deepStrictEqual(
        [stored!.scheduledStartAt, stored!.scheduledEndAt, stored!.url, stored!.updatedAt],
        [T + 2 * DAY, T + 2 * DAY + MIN, "https://status.test/elsewhere", T + MIN],
      );
    },
  },
  {
    name:
      "caps: a vendor keeps its open incidents and the most recently closed up to the cap, and the newest timeline entries",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme")]);
      const cap = STORE_LIMITS.incidentsPerVendor;
      const closed = Array.from(
        { length: cap + 5 },
        (_, i) =>
          incident(`c${i}`, T - DAY + i * MIN, {
            status: "RESOLVED",
            resolvedAt: T - DAY + i * MIN + 1,
            updates: [],
          }),
      );
      const long = incident("open", T - MIN, {
        updates: Array.from({ length: STORE_LIMITS.updatesPerIncident + 7 }, (_, i) => ({
          at: T - DAY + i * MIN,
          status: "INVESTIGATING" as const,
          body: `entry ${i}`,
        })),
      });
      await read(store, acme!, { ...calm, incidents: [long, ...closed] }, T);
      const kept = await incidentsOf(store);
      equal(kept.length, cap);
      ok(kept.some((i) => i.title === "Incident open"), "the open incident is kept");
      ok(!kept.some((i) => i.title === "Incident c0"), "the oldest closed one goes");
      ok(kept.some((i) => i.title === `Incident c${cap + 4}`), "the newest closed one stays");
      const timeline = kept.find((i) => i.title === "Incident open")!.updates;
      equal(timeline.length, STORE_LIMITS.updatesPerIncident);
      equal(timeline.at(-1)!.body, `entry ${STORE_LIMITS.updatesPerIncident + 6}`);
      equal(timeline[0]!.body, "entry 7");
    },
  },
];
