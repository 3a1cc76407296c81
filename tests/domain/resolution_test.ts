/**
 * Typical time to resolve with known answers: nearest-rank p50/p90 of resolved incidents'
 * durations per impact, maintenance and unresolved incidents left out, only resolutions inside
 * the window counted; and durations written for people.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  DAY_MS,
  formatMinutes,
  type Impact,
  type IncidentStatus,
  MINUTE_MS,
  timeToResolve,
} from "../../domain/mod.ts";

const NOW = Date.UTC(2026, 10, 20, 12);
const WINDOW = { start: NOW - 90 * DAY_MS, end: NOW };

function incident(impact: Impact, minutes: number, opts: {
  status?: IncidentStatus;
  resolvedAgo?: number;
} = {}) {
  const resolvedAt = NOW - (opts.resolvedAgo ?? DAY_MS);
  return {
    status: opts.status ?? "RESOLVED",
    impact,
    startedAt: resolvedAt - minutes * MINUTE_MS,
    resolvedAt,
  };
}

Deno.test("p50 and p90 per impact and overall, by nearest rank", () => {
  const t = timeToResolve(
    [
      incident("MAJOR", 30),
      incident("MAJOR", 38),
      incident("MAJOR", 45),
      incident("MAJOR", 60),
      incident("MAJOR", 130),
      incident("MINOR", 15),
      incident("CRITICAL", 240),
    ],
    WINDOW,
    90,
  );
  equal(t.windowDays, 90);
  // MAJOR sorted: 30 38 45 60 130 → p50 rank ceil(2.5)=3 → 45; p90 rank ceil(4.5)=5 → 130.
  deepStrictEqual(t.byImpact.MAJOR, { incidents: 5, p50Minutes: 45, p90Minutes: 130 });
  deepStrictEqual(t.byImpact.MINOR, { incidents: 1, p50Minutes: 15, p90Minutes: 15 });
  deepStrictEqual(t.byImpact.CRITICAL, { incidents: 1, p50Minutes: 240, p90Minutes: 240 });
  deepStrictEqual(t.byImpact.NONE, { incidents: 0, p50Minutes: null, p90Minutes: null });
  // All 7 sorted: 15 30 38 45 60 130 240 → p50 rank 4 → 45; p90 rank ceil(6.3)=7 → 240.
  deepStrictEqual(t.all, { incidents: 7, p50Minutes: 45, p90Minutes: 240 });
});

Deno.test("maintenance, open incidents, old resolutions and backwards times are left out", () => {
  const t = timeToResolve(
    [
      incident("MAJOR", 38),
      incident("MAINTENANCE", 120, { status: "COMPLETED" }),
      incident("MINOR", 90, { status: "COMPLETED" }), // completed: a maintenance status
      { status: "MONITORING", impact: "MAJOR", startedAt: NOW - 5 * MINUTE_MS, resolvedAt: null },
      incident("MAJOR", 500, { resolvedAgo: 91 * DAY_MS }),
      {
        status: "RESOLVED",
        impact: "MAJOR",
        startedAt: NOW - DAY_MS,
        resolvedAt: NOW - 2 * DAY_MS,
      },
    ],
    WINDOW,
    90,
  );
  deepStrictEqual(t.byImpact.MAJOR, { incidents: 1, p50Minutes: 38, p90Minutes: 38 });
  deepStrictEqual(t.all, { incidents: 1, p50Minutes: 38, p90Minutes: 38 });
  equal(t.byImpact.MINOR.incidents, 0);
});

Deno.test("minutes keep one decimal; nothing counted gives nulls", () => {
  const t = timeToResolve([incident("MINOR", 12.34)], WINDOW, 90);
  equal(t.byImpact.MINOR.p50Minutes, 12.3);
  deepStrictEqual(timeToResolve([], WINDOW, 90).all, {
    incidents: 0,
    p50Minutes: null,
    p90Minutes: null,
  });
});

Deno.test("durations in words", () => {
  equal(formatMinutes(0.2), "under 1 min");
  equal(formatMinutes(38), "38 min");
  equal(formatMinutes(60), "1 h");
  equal(formatMinutes(130), "2 h 10 min");
  equal(formatMinutes(24 * 60), "1 d");
  equal(formatMinutes(27 * 60 + 20), "1 d 3 h");
});
