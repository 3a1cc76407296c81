import { deepStrictEqual, equal } from "node:assert/strict";
import {
  DAY_MS,
  findBreaches,
  HOUR_MS,
  latencySummary,
  MINUTE_MS,
  percentile,
  type StatusTransition,
} from "../../domain/mod.ts";

const D0 = Date.UTC(2026, 2, 1);

Deno.test("percentiles use the nearest rank", () => {
  const tens = [100, 10, 20, 30, 40, 50, 60, 70, 80, 90];
  deepStrictEqual(latencySummary(tens), { samples: 10, p50: 50, p95: 100, p99: 100 });
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  deepStrictEqual([percentile(hundred, 50), percentile(hundred, 95), percentile(hundred, 99)], [
    50,
    95,
    99,
  ]);
  equal(percentile([7], 99), 7);
  deepStrictEqual(latencySummary([]), { samples: 0, p50: null, p95: null, p99: null });
});

Deno.test("a 2.4-hour outage breaches its UTC day and the rolling weeks that hold it", () => {
  const outageStart = D0 + DAY_MS;
  const outageEnd = outageStart + 2 * HOUR_MS + 24 * MINUTE_MS; // 10 % of a day
  const transitions: StatusTransition[] = [
    { at: D0 - 10 * DAY_MS, from: "UNKNOWN", to: "OPERATIONAL" },
    { at: outageStart, from: "OPERATIONAL", to: "MAJOR_OUTAGE" },
    { at: outageEnd, from: "MAJOR_OUTAGE", to: "OPERATIONAL" },
  ];
  const incidents = [
    { id: "old", startedAt: D0 - 20 * DAY_MS, resolvedAt: D0 - 19 * DAY_MS },
    { id: "a", startedAt: outageStart, resolvedAt: outageStart + 3 * HOUR_MS },
    { id: "open", startedAt: D0 + 2 * DAY_MS + 12 * HOUR_MS, resolvedAt: null },
  ];
  const breaches = findBreaches(transitions, incidents, { start: D0, end: D0 + 3 * DAY_MS }, 99.9);
  deepStrictEqual(
    breaches.map((b) => [
      b.kind,
      (b.start - D0) / DAY_MS,
      (b.end - D0) / DAY_MS,
      Math.round(b.uptimePercent * 1e4) / 1e4,
      b.incidentIds,
    ]),
    [
      ["day", 1, 2, 90, ["a"]],
      ["rolling", -5, 2, 98.5714, ["a"]], // 1 − 2.4 h / 168 h
      ["rolling", -4, 3, 98.5714, ["a", "open"]],
    ],
  );
});

Deno.test("a partial report day is clipped to the window; a low target is not breached", () => {
  const transitions: StatusTransition[] = [
    { at: D0 - DAY_MS, from: "UNKNOWN", to: "OPERATIONAL" },
    { at: D0 + 18 * HOUR_MS, from: "OPERATIONAL", to: "PARTIAL_OUTAGE" },
  ];
  // Window: 12:00 → 24:00 of D0; 6 h of PARTIAL_OUTAGE count 30 % down → 1.8 h of 12 h = 85 %.
  const report = { start: D0 + 12 * HOUR_MS, end: D0 + DAY_MS };
  const b = findBreaches(transitions, [], report, 99, { rollingDays: 1 });
  deepStrictEqual(b.map((x) => [x.kind, x.start, x.end, Math.round(x.uptimePercent * 100) / 100]), [
    ["day", report.start, report.end, 85],
    ["rolling", D0, D0 + DAY_MS, 92.5], // 1.8 h down of 24 h
  ]);
  deepStrictEqual(findBreaches(transitions, [], report, 80), []);
});

Deno.test("unobserved windows are not breaches", () => {
  deepStrictEqual(findBreaches([], [], { start: D0, end: D0 + 2 * DAY_MS }, 99.9), []);
});
