/**
 * Conformance: `store.incidents` (the feed and the maintenance calendar).
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { Case } from "./_support.ts";
import {
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

export const incidentCases: Case[] = [
  {
    name: "incidents.page: newest first, filtered by active, service and since, paged with a total",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("gone")]);
      await read(
        store,
        ids.a!,
        snapshot("OPERATIONAL", [component("api")], [
          incident("a1", T - 3 * DAY, { status: "RESOLVED", resolvedAt: T - 3 * DAY + MIN }),
          incident("a2", T - DAY, { componentIds: ["api"] }),
        ]),
        T,
      );
      await read(
        store,
        ids.b!,
        snapshot("OPERATIONAL", [], [
          incident("b1", T - 2 * DAY, { updatedAt: T - MIN }),
        ]),
        T,
      );
      await read(store, ids.gone!, snapshot("OPERATIONAL", [], [incident("g1", T)]), T);
      await store.catalog.sync([vendor("a"), vendor("b")], T);
      const titles = async (
        filter: Parameters<typeof store.incidents.page>[0],
        page = 0,
        limit = 10,
      ) => {
        const r = (await store.incidents.page(filter, { page, limit }))!;
        return { titles: r.items.map((i) => i.title), total: r.total };
      };
      deepStrictEqual(await titles({}), {
        titles: ["Incident a2", "Incident b1", "Incident a1"],
        total: 3,
      });
      deepStrictEqual((await titles({ active: true })).titles, ["Incident a2", "Incident b1"]);
      deepStrictEqual((await titles({ service: "a" })).titles, ["Incident a2", "Incident a1"]);
      deepStrictEqual((await titles({ since: T - 2 * MIN })).titles, ["Incident b1"]);
      deepStrictEqual(await titles({}, 1, 2), { titles: ["Incident a1"], total: 3 });
      equal(await store.incidents.page({ service: "nope" }, { page: 0, limit: 10 }), null);
      equal(await store.incidents.page({ service: "gone" }, { page: 0, limit: 10 }), null);
      const [a2] =
        (await store.incidents.page({ service: "a", active: true }, { page: 0, limit: 1 }))!
          .items;
      deepStrictEqual(
        {
          serviceSlug: a2!.serviceSlug,
          status: a2!.status,
          impact: a2!.impact,
          startedAt: a2!.startedAt,
          resolvedAt: a2!.resolvedAt,
          url: a2!.url,
          components: a2!.components,
          updates: a2!.updates,
          scheduledStartAt: a2!.scheduledStartAt,
          scheduledEndAt: a2!.scheduledEndAt,
        },
        {
          serviceSlug: "a",
          status: "INVESTIGATING",
          impact: "MINOR",
          startedAt: T - DAY,
          resolvedAt: null,
          url: "https://status.test/incidents/a2",
          components: ["API"],
          updates: [{ at: T - DAY, status: "INVESTIGATING", body: "Looking into a2" }],
          scheduledStartAt: null,
          scheduledEndAt: null,
        },
      );
      equal(typeof a2!.id, "string");
    },
  },
  {
    name:
      "incidents.maintenances: unfinished ones by planned start, filtered by service, provider, due window; finished ones on request",
    async run(store) {
      const ids = await withVendors(store, [
        vendor("a", { provider: "acme" }),
        vendor("b", { provider: "bee" }),
      ]);
      const planned = (id: string, start: number, end: number | null, extra = {}) =>
        incident(id, start, {
          status: "SCHEDULED",
          impact: "MAINTENANCE",
          scheduledStartAt: start,
          scheduledEndAt: end,
          updates: [],
          ...extra,
        });
      await read(
        store,
        ids.a!,
        snapshot("OPERATIONAL", [], [
          planned("soon", T + 60 * MIN, T + 120 * MIN),
          planned("later", T + 5 * DAY, null),
          planned("overdue", T - 3 * 60 * MIN, T - 60 * MIN),
          planned("now", T - 10 * MIN, T + 50 * MIN, { status: "IN_PROGRESS" }),
          incident("plain", T - MIN),
        ]),
        T,
      );
      await read(
        store,
        ids.b!,
        snapshot("OPERATIONAL", [], [
          planned("done", T - DAY, T - DAY + MIN, {
            status: "COMPLETED",
            resolvedAt: T - DAY + MIN,
          }),
          planned("b-soon", T + 30 * MIN, T + 40 * MIN),
        ]),
        T,
      );
      const titles = async (f: Omit<Parameters<typeof store.incidents.maintenances>[0], "limit">) =>
        (await store.incidents.maintenances({ limit: 100, ...f })).map((i) => i.title.slice(9));
      deepStrictEqual(await titles({}), ["overdue", "now", "b-soon", "soon", "later"]);
      deepStrictEqual(await titles({ services: ["b"] }), ["b-soon"]);
      deepStrictEqual(await titles({ provider: "acme" }), ["overdue", "now", "soon", "later"]);
      deepStrictEqual(
        await titles({ startsBefore: T + 60 * MIN, endsAfter: T }),
        ["now", "b-soon", "soon"],
      );
      deepStrictEqual(await titles({ finishedSince: T - 2 * DAY, services: ["b"] }), [
        "done",
        "b-soon",
      ]);
      deepStrictEqual(await titles({ finishedSince: T, services: ["b"] }), ["b-soon"]);
      equal((await store.incidents.maintenances({ limit: 2 })).length, 2);
    },
  },
];
