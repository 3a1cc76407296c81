/**
 * Conformance: `store.history` (report inputs: transitions, SLA incidents and latencies).
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { histogramOf, type LatencyHistogram } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import {
  component,
  DAY,
  incident,
  MIN,
  read,
  snapshot,
  success,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

/** A histogram's buckets in order, to compare. */
function sorted(h: LatencyHistogram): [number, number][] {
  return [...h].sort((x, y) => x[0] - y[0]);
}

export const historyCases: Case[] = [
  {
    name:
      "history.servicePage: the rows of the separate reads (detail, uptime, daily history, past incidents) in one snapshot",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a"), vendor("b")]);
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("web"), component("api")], [
          incident("old", T - 10 * DAY, { status: "RESOLVED", resolvedAt: T - 9 * DAY }),
        ]),
        T - 20 * DAY,
      );
      await read(
        store,
        a!,
        snapshot("MAJOR_OUTAGE", [component("web", "MAJOR_OUTAGE"), component("api")], [
          incident("old", T - 10 * DAY, { status: "RESOLVED", resolvedAt: T - 9 * DAY }),
          incident("now", T - DAY),
        ]),
        T - DAY,
      );
      const window = { start: T - 30 * DAY, end: T };
      const q = {
        window,
        resolvedAfter: T - 90 * DAY,
        uptime: { start: T - 90 * DAY, end: T },
        history: { start: T - 90 * DAY, end: T },
        pastSince: T - 90 * DAY,
        pastLimit: 500,
      };
      const got = (await store.history.servicePage("a", q))!;
      deepStrictEqual(got.detail, await store.catalog.detail("a", window, q.resolvedAfter));
      deepStrictEqual(got.uptime, await store.history.timeline("a", q.uptime, "recovery"));
      deepStrictEqual(got.history, await store.history.componentTimelines("a", q.history));
      const past = await store.incidents.page(
        { service: "a", resolvedSince: q.pastSince },
        { page: 0, limit: 500 },
      );
      deepStrictEqual(got.past, past!.items);
      deepStrictEqual(got.past.map((i) => i.title), ["Incident old"]);
      deepStrictEqual(got.detail.incidents.map((i) => i.title), ["Incident now"]);
      equal(await store.history.servicePage("nope", q), null);
    },
  },
  {
    name:
      "history.componentTimelines: current components in page order, each with its stored transitions",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("web"), component("api"), component("old")]),
        T - 2 * DAY,
      );
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [component("web", "MAJOR_OUTAGE"), component("api")]),
        T - DAY,
      );
      const got = (await store.history.componentTimelines("a", { start: T - 3 * DAY, end: T }))!;
      equal(got.service.slug, "a");
      deepStrictEqual(got.transitions.map((t) => t.to), ["OPERATIONAL", "MAJOR_OUTAGE"]);
      deepStrictEqual(
        got.components.map((c) => [c.component.name, c.transitions.map((t) => [t.at, t.to])]),
        [
          ["WEB", [[T - 2 * DAY, "OPERATIONAL"], [T - DAY, "MAJOR_OUTAGE"]]],
          ["API", [[T - 2 * DAY, "OPERATIONAL"]]],
        ],
      );
      equal(await store.history.componentTimelines("nope", { start: 0, end: T }), null);
    },
  },
  {
    name: "history.resolutions: incidents and maintenances resolved since an instant",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [], [
          incident("old", T - 10 * DAY, { status: "RESOLVED", resolvedAt: T - 9 * DAY }),
          incident("new", T - 2 * DAY, {
            status: "RESOLVED",
            resolvedAt: T - DAY,
            impact: "MAJOR",
          }),
          incident("work", T - 2 * DAY, {
            status: "COMPLETED",
            resolvedAt: T - DAY,
            impact: "MAINTENANCE",
          }),
          incident("open", T - DAY),
        ]),
        T,
      );
      deepStrictEqual(
        [...(await store.history.resolutions("a", T - 3 * DAY))!].sort((x, y) =>
          x.impact.localeCompare(y.impact)
        ),
        [
          {
            status: "COMPLETED",
            impact: "MAINTENANCE",
            startedAt: T - 2 * DAY,
            resolvedAt: T - DAY,
          },
          { status: "RESOLVED", impact: "MAJOR", startedAt: T - 2 * DAY, resolvedAt: T - DAY },
        ],
      );
      equal(await store.history.resolutions("nope", 0), null);
      deepStrictEqual(
        (await store.incidents.page({ service: "a", resolvedSince: T - 3 * DAY }, {
          page: 0,
          limit: 10,
        }))!
          .items.map((i) => i.title).sort(),
        ["Incident new", "Incident work"],
      );
    },
  },
  {
    name: "history.timeline reaches back to the last transition, or to the last recovery",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(store, a!, snapshot("OPERATIONAL"), T - 10 * DAY);
      await read(store, a!, snapshot("MAJOR_OUTAGE"), T - 8 * DAY);
      await read(store, a!, snapshot("PARTIAL_OUTAGE"), T - 6 * DAY);
      await read(store, a!, snapshot("OPERATIONAL"), T - 2 * DAY);
      await read(store, a!, snapshot("DEGRADED_PERFORMANCE"), T + DAY);
      const window = { start: T - 5 * DAY, end: T };
      const last = (await store.history.timeline("a", window, "last"))!;
      equal(last.service.slug, "a");
      deepStrictEqual(last.transitions.map((t) => [t.at, t.to]), [
        [T - 6 * DAY, "PARTIAL_OUTAGE"],
        [T - 2 * DAY, "OPERATIONAL"],
        [T + DAY, "DEGRADED_PERFORMANCE"],
      ]);
      const recovery = (await store.history.timeline("a", window, "recovery"))!;
      deepStrictEqual(recovery.transitions.map((t) => [t.at, t.from, t.to]), [
        [T - 10 * DAY, "UNKNOWN", "OPERATIONAL"],
        [T - 8 * DAY, "OPERATIONAL", "MAJOR_OUTAGE"],
        [T - 6 * DAY, "MAJOR_OUTAGE", "PARTIAL_OUTAGE"],
        [T - 2 * DAY, "PARTIAL_OUTAGE", "OPERATIONAL"],
        [T + DAY, "OPERATIONAL", "DEGRADED_PERFORMANCE"],
      ]);
      equal(await store.history.timeline("nope", window, "last"), null);
    },
  },
  {
    name:
      "history.slaInputs: transitions, incidents open in the window, answered latencies of the days it touches",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await read(store, a!, snapshot("OPERATIONAL"), T - 20 * DAY);
      await read(
        store,
        a!,
        snapshot("MAJOR_OUTAGE", [], [incident("in", T - 3 * DAY)]),
        T - 3 * DAY,
      );
      await read(
        store,
        a!,
        snapshot("OPERATIONAL", [], [
          incident("in", T - 3 * DAY, { status: "RESOLVED", resolvedAt: T - 2 * DAY }),
          incident("before", T - 30 * DAY, { status: "RESOLVED", resolvedAt: T - 25 * DAY }),
        ]),
        T - 2 * DAY,
      );
      await store.polls.recordSuccess(
        a!,
        snapshot("OPERATIONAL"),
        success(T - DAY, { latencyMs: 90 }),
      );
      await store.polls.recordNotModified(a!, {
        at: T - DAY + MIN,
        latencyMs: 30,
        httpStatus: 304,
        nextPollAt: T,
        deadlineAt: T,
      });
      await store.polls.recordFailure(a!, {
        at: T - DAY + 2 * MIN,
        latencyMs: 10_000,
        httpStatus: null,
        nextPollAt: T,
        deadlineAt: T,
        outcome: "timeout",
        detail: "slow",
        stale: false,
        platformMiss: false,
      });
      const got = (await store.history.slaInputs(
        "a",
        { start: T - 10 * DAY, end: T },
        { start: T - 2 * DAY - MIN, end: T },
      ))!;
      equal(got.service.slug, "a");
      deepStrictEqual(got.transitions.map((t) => t.to), [
        "OPERATIONAL",
        "MAJOR_OUTAGE",
        "OPERATIONAL",
      ]);
      deepStrictEqual(got.incidents.map((i) => [i.title, i.impact, i.startedAt, i.resolvedAt]), [
        ["Incident in", "MINOR", T - 3 * DAY, T - 2 * DAY],
      ]);
      equal(typeof got.incidents[0]!.id, "string");
      // The latency window starts a minute before T − 2 days: its whole UTC day counts, so
      // the reading at T − 3 days (40 ms) is in; the failure (10 s) is not.
      deepStrictEqual(sorted(got.latency), sorted(histogramOf([30, 40, 40, 90])));
      equal(
        await store.history.slaInputs("nope", { start: 0, end: T }, { start: 0, end: T }),
        null,
      );
    },
  },
];
