/**
 * Day-by-day views: which incidents touch which UTC day, and a component's worst level per day,
 * UNKNOWN wherever its service was UNKNOWN (statusd could not read the page).
 */
import { deepStrictEqual } from "node:assert/strict";
import {
  componentDailyWorst,
  dailyWorst,
  DAY_MS,
  HOUR_MS,
  overlappingDays,
  type StatusTransition,
} from "../../domain/mod.ts";

const D1 = Date.UTC(2026, 10, 18);
const D2 = D1 + DAY_MS;
const D3 = D2 + DAY_MS;
const NOW = D3 + 12 * HOUR_MS;

Deno.test("an incident belongs to every day it was open on; an open one runs until now", () => {
  const a = { id: "a", startedAt: D1 + 23 * HOUR_MS, resolvedAt: D2 + HOUR_MS };
  const b = { id: "b", startedAt: D2 + 5 * HOUR_MS, resolvedAt: D2 + 6 * HOUR_MS };
  const c = { id: "c", startedAt: D3 + HOUR_MS, resolvedAt: null };
  const days = overlappingDays([a, b, c], [D1, D2, D3], NOW);
  deepStrictEqual(days.map((d) => d.map((i) => i.id)), [["a"], ["a", "b"], ["c"]]);
});

Deno.test("a component's day is UNKNOWN where its service was UNKNOWN, else its own worst", () => {
  const service: StatusTransition[] = [
    { at: D1, from: "UNKNOWN", to: "OPERATIONAL" },
    { at: D2, from: "OPERATIONAL", to: "UNKNOWN" },
    { at: D3, from: "UNKNOWN", to: "OPERATIONAL" },
  ];
  const component: StatusTransition[] = [
    { at: D1, from: "UNKNOWN", to: "OPERATIONAL" },
    { at: D1 + 2 * HOUR_MS, from: "OPERATIONAL", to: "PARTIAL_OUTAGE" },
    { at: D1 + 3 * HOUR_MS, from: "PARTIAL_OUTAGE", to: "OPERATIONAL" },
  ];
  const days = componentDailyWorst(
    { transitions: component, now: "OPERATIONAL" },
    { transitions: service, now: "OPERATIONAL" },
    NOW,
    4,
  );
  deepStrictEqual(days.map((d) => d.worstStatus), [
    "UNKNOWN", // before anything was read
    "PARTIAL_OUTAGE",
    "UNKNOWN", // the component kept "operational", but nobody could read the page
    "OPERATIONAL",
  ]);
  deepStrictEqual(days.map((d) => d.day), [D1 - DAY_MS, D1, D2, D3]);
});

Deno.test("with no transition at all a component holds its current level where its service is known", () => {
  const days = componentDailyWorst(
    { transitions: [], now: "DEGRADED_PERFORMANCE" },
    { transitions: [{ at: D2, from: "UNKNOWN", to: "OPERATIONAL" }], now: "OPERATIONAL" },
    NOW,
    3,
  );
  deepStrictEqual(days.map((d) => d.worstStatus), [
    "UNKNOWN",
    "DEGRADED_PERFORMANCE",
    "DEGRADED_PERFORMANCE",
  ]);
});

Deno.test("where the service is always known, a component's days are dailyWorst's (random histories)", () => {
  const levels = [
    "OPERATIONAL",
    "UNDER_MAINTENANCE",
    "DEGRADED_PERFORMANCE",
    "PARTIAL_OUTAGE",
    "MAJOR_OUTAGE",
    "UNKNOWN",
  ] as const;
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let run = 0; run < 50; run++) {
    const ts: StatusTransition[] = [];
    let from: StatusTransition["from"] = "UNKNOWN";
    let at = NOW - 20 * DAY_MS;
    while (at < NOW) {
      at += Math.floor(random() * 3 * DAY_MS);
      const to = levels[Math.floor(random() * levels.length)]!;
      ts.push({ at, from, to });
      from = to;
    }
    const service: StatusTransition[] = [{
      at: NOW - 30 * DAY_MS,
      from: "UNKNOWN",
      to: "OPERATIONAL",
    }];
    deepStrictEqual(
      componentDailyWorst(
        { transitions: ts, now: from },
        { transitions: service, now: "OPERATIONAL" },
        NOW,
        25,
      ),
      dailyWorst(ts, NOW, 25, from),
      `run ${run}`,
    );
  }
});
