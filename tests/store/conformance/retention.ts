/**
 * Conformance: `store.retention` (each prune deletes at most a chunk of what is older).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { Store } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import {
  ALL_TIME,
  component,
  DAY,
  incident,
  read,
  snapshot,
  success,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

const ago = (days: number) => T - days * DAY;

/** Calls `step` until it deletes nothing; the total. */
async function drain(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let n; (n = await step()) > 0;) total += n;
  return total;
}

async function serviceAts(store: Store, slug: string) {
  return (await store.history.timeline(slug, ALL_TIME, "last"))!.transitions.map((t) =>
    Math.round((T - t.at) / DAY)
  );
}

export const retentionCases: Case[] = [
  {
    name: "retention.pruneFetchLog deletes fetches older than the cutoff, a chunk at a time",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      for (const days of [93, 92, 91, 89, 1]) {
        await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(ago(days)));
      }
      equal(await store.retention.pruneFetchLog(ago(90), 2), 2);
      equal(await store.retention.pruneFetchLog(ago(90), 2), 1);
      equal(await store.retention.pruneFetchLog(ago(90), 2), 0);
      deepStrictEqual((await store.history.fetchLog("a", 0)).map((f) => f.at), [ago(89), ago(1)]);
    },
  },
  {
    name:
      "retention.pruneLatencyDays deletes summary days before the cutoff's day, a chunk at a time",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      for (const days of [93, 92, 91, 89, 1]) {
        await store.polls.recordSuccess(
          a!,
          snapshot("OPERATIONAL"),
          success(ago(days), { latencyMs: 10 * days }),
        );
      }
      equal(await drain(() => store.retention.pruneLatencyDays(ago(90), 2)), 3);
      const window = { start: ago(400), end: T };
      const left = (await store.history.slaInputs("a", window, window))!.latency;
      equal([...left.values()].reduce((x, y) => x + y, 0), 2, "the days at 89 and 1 are kept");
    },
  },
  {
    name:
      "retention.pruneChangeFeed deletes changes older than the cutoff and beyond the newest rows kept",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      const levels = ["OPERATIONAL", "MAJOR_OUTAGE"] as const;
      for (let i = 0; i < 12; i++) await read(store, a!, snapshot(levels[i % 2]!), ago(12 - i));
      const ids = (await store.changes.after(0, 100)).map((c) => c.id);
      equal(ids.length, 12);
      equal(await drain(() => store.retention.pruneChangeFeed(ago(7.5), 1000, 2)), 5);
      deepStrictEqual((await store.changes.after(0, 100)).map((c) => c.id), ids.slice(5));
      equal(await drain(() => store.retention.pruneChangeFeed(ago(100), 4, 3)), 3);
      deepStrictEqual((await store.changes.after(0, 100)).map((c) => c.id), ids.slice(8));
      equal(await store.changes.latestId(), ids.at(-1));
    },
  },
  {
    name:
      "retention.pruneClosedIncidents deletes incidents closed before the cutoff, open ones never",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [], [
          incident("closed-98", ago(99), { status: "RESOLVED", resolvedAt: ago(98) }),
          incident("closed-96", ago(97), { status: "RESOLVED", resolvedAt: ago(96) }),
          incident("open-200", ago(200)),
        ]),
        T,
      );
      equal(await drain(() => store.retention.pruneClosedIncidents(ago(97), 1)), 1);
      deepStrictEqual(
        (await store.incidents.page({}, { page: 0, limit: 10 }))!.items.map((i) => i.title).sort(),
        ["Incident closed-96", "Incident open-200"],
      );
    },
  },
  {
    name:
      "retention.pruneRemovedComponents forgets components removed before the cutoff (they come back as new)",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("old"), component("recent"), component("live")]),
        ago(120),
      );
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("recent"), component("live")]),
        ago(98),
      );
      await read(store, a!, snapshot("OPERATIONAL", [component("live")]), ago(10));
      equal(await drain(() => store.retention.pruneRemovedComponents(ago(97), 1)), 1);
      const back = await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("old"), component("recent"), component("live")]),
        T,
      );
      deepStrictEqual(back, [
        { kind: "status", slug: "a", component: "RECENT", from: "UNKNOWN", to: "OPERATIONAL" },
      ], "the kept one is revived (a change); the forgotten one is new (none)");
    },
  },
  {
    name:
      "retention.pruneComponentTransitions deletes component history older than the cutoff only",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(store, a!, snapshot("OPERATIONAL", [component("x"), component("y")]), ago(120));
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("x", "MAJOR_OUTAGE"), component("y")]),
        ago(110),
      );
      await read(store, a!, snapshot("OPERATIONAL", [component("x"), component("y")]), ago(10));
      equal(await drain(() => store.retention.pruneComponentTransitions(ago(97), 2)), 3);
      equal(await store.retention.pruneComponentTransitions(ago(97)), 0);
      deepStrictEqual(await serviceAts(store, "a"), [120, 110, 10], "service history untouched");
    },
  },
  {
    name:
      "retention.pruneServiceTransitions keeps what reports need: from the last recovery before the cutoff, at most a year back",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c"), vendor("gone")]);
      const history = async (
        slug: string,
        steps: [number, "OPERATIONAL" | "MAJOR_OUTAGE" | "PARTIAL_OUTAGE"][],
      ) => {
        for (const [days, level] of steps) {
          await read(store, ids[slug]!, snapshot(level), ago(days));
        }
      };
      await history("a", [[200, "OPERATIONAL"], [150, "MAJOR_OUTAGE"], [120, "OPERATIONAL"], [
        100,
        "MAJOR_OUTAGE",
      ], [50, "OPERATIONAL"]]);
      await history("b", [[300, "MAJOR_OUTAGE"], [200, "PARTIAL_OUTAGE"], [10, "OPERATIONAL"]]);
      await history("c", [[500, "OPERATIONAL"], [450, "MAJOR_OUTAGE"], [400, "OPERATIONAL"], [
        380,
        "MAJOR_OUTAGE",
      ], [10, "OPERATIONAL"]]);
      await history("gone", [[400, "OPERATIONAL"], [300, "MAJOR_OUTAGE"]]);
      await store.catalog.sync([vendor("a"), vendor("b"), vendor("c")], T);
      const vendorIds = await store.retention.vendorIds();
      ok(
        Object.values(ids).every((id) => vendorIds.includes(id)),
        "retired vendors are visited too",
      );
      let total = 0;
      for (const id of vendorIds) {
        total += await drain(() =>
          store.retention.pruneServiceTransitions(id, ago(97), ago(365), 1)
        );
      }
      equal(total, 5);
      deepStrictEqual(await serviceAts(store, "a"), [120, 100, 50]);
      deepStrictEqual(await serviceAts(store, "b"), [300, 200, 10]);
      deepStrictEqual(await serviceAts(store, "c"), [380, 10]);
    },
  },
];
