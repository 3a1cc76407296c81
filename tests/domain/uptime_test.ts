import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  dailyWorst,
  DAY_MS,
  episodes,
  HOUR_MS,
  MINUTE_MS,
  mttrMinutes,
  segmentsIn,
  type StatusLevel,
  type StatusTransition,
  uptimePercent,
} from "../../domain/mod.ts";

const T0 = Date.UTC(2026, 10, 1); // 2026-11-01T00:00:00Z
const h = (n: number) => T0 + n * HOUR_MS;

/** Transitions from a list of `[hour, level]`: each starts where the previous ended. */
function path(first: StatusLevel, steps: [number, StatusLevel][]): StatusTransition[] {
  let from = first;
  return steps.map(([hour, to]) => {
    const t = { at: h(hour), from, to };
    from = to;
    return t;
  });
}

function close(actual: number | null, expected: number) {
  ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${actual} ≉ ${expected}`);
}

Deno.test("a fully operational day is 100 % up", () => {
  const ts = path("UNKNOWN", [[0, "OPERATIONAL"]]);
  equal(uptimePercent(ts, { start: h(0), end: h(24) }), 100);
});

Deno.test("one hour of major outage in a day is 23/24 up", () => {
  const ts = path("UNKNOWN", [[0, "OPERATIONAL"], [10, "MAJOR_OUTAGE"], [11, "OPERATIONAL"]]);
  close(uptimePercent(ts, { start: h(0), end: h(24) }), (100 * 23) / 24);
});

Deno.test("partial outage time counts 30 % down", () => {
  // 10 h partial of 20 h observed → 3 h down → 85 %.
  const ts = path("UNKNOWN", [[0, "OPERATIONAL"], [5, "PARTIAL_OUTAGE"], [15, "OPERATIONAL"]]);
  close(uptimePercent(ts, { start: h(0), end: h(20) }), 85);
});

Deno.test("UNKNOWN time is left out of the denominator", () => {
  // 14 h observed (of which 1 h major), 10 h unknown → 100 × 13/14.
  const ts = path("UNKNOWN", [
    [0, "OPERATIONAL"],
    [5, "UNKNOWN"],
    [15, "MAJOR_OUTAGE"],
    [16, "OPERATIONAL"],
  ]);
  close(uptimePercent(ts, { start: h(0), end: h(24) }), (100 * 13) / 14);
});

Deno.test("time before the first observation is unknown, not up", () => {
  // First seen at hour 12 in major outage for 6 h, then fine: 6 of 12 observed hours down.
  const ts = path("UNKNOWN", [[12, "MAJOR_OUTAGE"], [18, "OPERATIONAL"]]);
  close(uptimePercent(ts, { start: h(0), end: h(24) }), 50);
});

Deno.test("maintenance and degraded time count as up", () => {
  const ts = path("UNKNOWN", [
    [0, "UNDER_MAINTENANCE"],
    [4, "DEGRADED_PERFORMANCE"],
    [8, "OPERATIONAL"],
  ]);
  equal(uptimePercent(ts, { start: h(0), end: h(12) }), 100);
});

Deno.test("nothing observed gives null uptime", () => {
  equal(uptimePercent([], { start: h(0), end: h(24) }), null);
  equal(uptimePercent(path("UNKNOWN", [[30, "OPERATIONAL"]]), { start: h(0), end: h(24) }), null);
});

Deno.test("with no transitions the whole window holds the fallback level", () => {
  equal(uptimePercent([], { start: h(0), end: h(24) }, "OPERATIONAL"), 100);
});

Deno.test("the level at the window start comes from the last earlier transition", () => {
  const ts = path("UNKNOWN", [[0, "MAJOR_OUTAGE"], [30, "OPERATIONAL"]]);
  // Window hours 24..36: 6 h major, 6 h operational.
  close(uptimePercent(ts, { start: h(24), end: h(36) }), 50);
  deepStrictEqual(segmentsIn(ts, { start: h(24), end: h(36) }), [
    { start: h(24), end: h(30), status: "MAJOR_OUTAGE" },
    { start: h(30), end: h(36), status: "OPERATIONAL" },
  ]);
});

Deno.test("MTTR is the mean length of disruptions that ended in the window", () => {
  const ts = path("UNKNOWN", [
    [0, "OPERATIONAL"],
    [1, "DEGRADED_PERFORMANCE"], // episode A: 1h → 1h30 (30 min)
    [1.5, "OPERATIONAL"],
    [3, "PARTIAL_OUTAGE"], // episode B: 3h → 5h (120 min), moving through major
    [4, "MAJOR_OUTAGE"],
    [5, "OPERATIONAL"],
  ]);
  close(mttrMinutes(ts, { start: h(0), end: h(24) }), 75);
  deepStrictEqual(episodes(ts), [{ start: h(1), end: h(1.5) }, { start: h(3), end: h(5) }]);
});

Deno.test("MTTR leaves out maintenance and counts episodes begun before the window in full", () => {
  const ts = path("UNKNOWN", [
    [0, "MAJOR_OUTAGE"], // begins before the window, ends inside it after 26 h
    [26, "OPERATIONAL"],
    [30, "UNDER_MAINTENANCE"], // planned: not an episode
    [34, "OPERATIONAL"],
    [40, "PARTIAL_OUTAGE"], // still open at the end: not counted
  ]);
  close(mttrMinutes(ts, { start: h(24), end: h(48) }), 26 * 60);
});

Deno.test("an episode ends on maintenance and goes on through UNKNOWN gaps", () => {
  const ts = path("UNKNOWN", [
    [0, "OPERATIONAL"],
    [2, "MAJOR_OUTAGE"],
    [3, "UNKNOWN"],
    [4, "PARTIAL_OUTAGE"],
    [5, "UNDER_MAINTENANCE"],
  ]);
  deepStrictEqual(episodes(ts), [{ start: h(2), end: h(5) }]);
  close(mttrMinutes(ts, { start: h(0), end: h(24) }), 180);
});

Deno.test("no ended episode gives null MTTR", () => {
  equal(mttrMinutes(path("UNKNOWN", [[0, "OPERATIONAL"]]), { start: h(0), end: h(24) }), null);
  equal(mttrMinutes([], { start: h(0), end: h(24) }), null);
  const openOnly = path("UNKNOWN", [[0, "OPERATIONAL"], [2, "MAJOR_OUTAGE"]]);
  equal(mttrMinutes(openOnly, { start: h(0), end: h(24) }), null);
  equal(MINUTE_MS, 60_000);
});

Deno.test("daily worst is the worst ranked level held during each UTC day, oldest first", () => {
  const ts = path("UNKNOWN", [
    [0, "OPERATIONAL"], // day 1
    [30, "PARTIAL_OUTAGE"], // day 2 (06:00)
    [31, "DEGRADED_PERFORMANCE"],
    [32, "OPERATIONAL"],
    [50, "UNKNOWN"], // day 3 from 02:00 on: unknown, but 00-02 operational
    [80, "UNDER_MAINTENANCE"], // day 4 from 08:00
  ]);
  const now = T0 + 3 * DAY_MS + 12 * HOUR_MS; // day 4, noon
  deepStrictEqual(
    dailyWorst(ts, now, 5).map((d) => [new Date(d.day).toISOString().slice(0, 10), d.worstStatus]),
    [
      ["2026-10-31", "UNKNOWN"],
      ["2026-11-01", "OPERATIONAL"],
      ["2026-11-02", "PARTIAL_OUTAGE"],
      ["2026-11-03", "OPERATIONAL"],
      ["2026-11-04", "UNDER_MAINTENANCE"],
    ],
  );
});

Deno.test("a day spent entirely UNKNOWN reads UNKNOWN", () => {
  const ts = path("UNKNOWN", [[0, "OPERATIONAL"], [20, "UNKNOWN"], [60, "OPERATIONAL"]]);
  const now = T0 + 2 * DAY_MS + 13 * HOUR_MS;
  deepStrictEqual(dailyWorst(ts, now, 3).map((d) => d.worstStatus), [
    "OPERATIONAL",
    "UNKNOWN",
    "OPERATIONAL",
  ]);
});
