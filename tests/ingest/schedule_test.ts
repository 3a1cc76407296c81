import { deepStrictEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { MINUTE_MS, SECOND_MS, type StatusLevel } from "../../domain/mod.ts";
import {
  backoffMs,
  fullReadDue,
  isMoving,
  isStale,
  MIN_SLACK_MS,
  nextPollAt,
  pulseMs,
  type ScheduleConfig,
} from "../../ingest/schedule.ts";

const NOW = Date.UTC(2026, 4, 1, 10);
const CONFIG = { movingSeconds: 60, stableSeconds: 300 };
const calm = { status: "OPERATIONAL" as StatusLevel, hasOpenIncident: false, lastChangedAt: null };

Deno.test("isMoving: not operational, an open incident, or a change in the last 30 minutes", () => {
  const cases: [string, Parameters<typeof isMoving>[0], boolean][] = [
    ["operational, never changed", calm, false],
    ["degraded", { ...calm, status: "DEGRADED_PERFORMANCE" }, true],
    ["under maintenance", { ...calm, status: "UNDER_MAINTENANCE" }, true],
    ["unknown", { ...calm, status: "UNKNOWN" }, true],
    ["open incident", { ...calm, hasOpenIncident: true }, true],
    ["changed 29 min ago", { ...calm, lastChangedAt: NOW - 29 * MINUTE_MS }, true],
    ["changed exactly 30 min ago", { ...calm, lastChangedAt: NOW - 30 * MINUTE_MS }, false],
    ["changed 2 h ago", { ...calm, lastChangedAt: NOW - 120 * MINUTE_MS }, false],
  ];
  for (const [name, state, expected] of cases) equal(isMoving(state, NOW), expected, name);
});

Deno.test("nextPollAt: 60 s moving, 300 s calm, jitter only ever earlier than the deadline", () => {
  const cases: [string, Parameters<typeof nextPollAt>[0], number, number, number][] = [
    // name, state, random, expected next (s after now), expected deadline (s after now)
    ["calm, no jitter draw", { ...calm, failures: 0 }, 0, 285, 300],
    ["calm, largest jitter", { ...calm, failures: 0 }, 1, 270, 300],
    [
      "moving, middle jitter (under the 5 s floor)",
      { ...calm, status: "MAJOR_OUTAGE", failures: 0 },
      0.5,
      55,
      60,
    ],
    ["moving, largest jitter", { ...calm, status: "MAJOR_OUTAGE", failures: 0 }, 1, 54, 60],
    ["first failure", { ...calm, failures: 1 }, 0, 55, 60],
    ["second failure", { ...calm, failures: 2 }, 0, 114, 120],
    ["third failure", { ...calm, failures: 3 }, 0, 228, 240],
    ["fourth failure: capped at the stable interval", { ...calm, failures: 4 }, 0, 285, 300],
    ["fortieth failure: still capped", { ...calm, failures: 40 }, 0, 285, 300],
  ];
  for (const [name, state, random, next, deadline] of cases) {
    deepStrictEqual(nextPollAt(state, NOW, CONFIG, () => random), {
      nextPollAt: NOW + next * SECOND_MS,
      deadlineAt: NOW + deadline * SECOND_MS,
    }, name);
  }
});

Deno.test("nextPollAt: a short interval is due at most a quarter early (the floor shrinks with it)", () => {
  const short = { movingSeconds: 4, stableSeconds: 300 };
  deepStrictEqual(
    nextPollAt({ ...calm, status: "MAJOR_OUTAGE", failures: 0 }, NOW, short, () => 0),
    {
      nextPollAt: NOW + 3 * SECOND_MS,
      deadlineAt: NOW + 4 * SECOND_MS,
    },
    "due a quarter of the interval early, not 5 s (that would poll at once, every tick)",
  );
});

Deno.test("nextPollAt, any state and draw: due before the deadline by the floor, never before asked", () => {
  const state = fc.record({
    status: fc.constantFrom<StatusLevel>("OPERATIONAL", "MAJOR_OUTAGE"),
    hasOpenIncident: fc.boolean(),
    lastChangedAt: fc.constant(null),
    failures: fc.nat(8),
    pulsing: fc.boolean(),
    retryAfterMs: fc.option(fc.nat(3_600_000), { nil: undefined }),
  });
  const config = fc.record({
    movingSeconds: fc.integer({ min: 1, max: 3600 }),
    stableSeconds: fc.integer({ min: 1, max: 86400 }),
    pulseSeconds: fc.integer({ min: 0, max: 3600 }),
  });
  fc.assert(
    fc.property(
      state,
      config,
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      fc.boolean(),
      (s, c, draw, spread) => {
        const { nextPollAt: due, deadlineAt } = nextPollAt(s, NOW, c, () => draw, spread);
        const moving = s.status !== "OPERATIONAL" || s.hasOpenIncident;
        const interval = s.failures > 0
          ? backoffMs(s.failures, c)
          : (moving
            ? c.movingSeconds
            : !s.pulsing || !c.pulseSeconds
            ? c.stableSeconds
            : Math.min(c.pulseSeconds, c.stableSeconds)) * SECOND_MS;
        const asked = s.failures > 0 ? s.retryAfterMs ?? 0 : 0;
        const floor = Math.round(Math.min(MIN_SLACK_MS, interval / 4));
        // The promise is the interval, unless the vendor asked for longer than it less the floor.
        equal(deadlineAt - NOW >= Math.max(interval, asked), true);
        if (asked + floor <= interval) equal(deadlineAt - NOW, interval);
        // Due before the deadline by the floor at least, and never before the vendor asked.
        equal(deadlineAt - due >= floor, true, `slack ${deadlineAt - due} < ${floor}`);
        equal(due - NOW >= asked, true);
        // Never more than a quarter of the interval early (half on a first poll's spread).
        equal(
          due - NOW >= interval * (spread ? 0.5 : 0.75) - 1,
          true,
          `due ${due - NOW} of ${interval}`,
        );
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("nextPollAt after a first poll spreads up to half an interval early", () => {
  deepStrictEqual(nextPollAt({ ...calm, failures: 0 }, NOW, CONFIG, () => 1, true), {
    nextPollAt: NOW + 150 * SECOND_MS,
    deadlineAt: NOW + 300 * SECOND_MS,
  });
});

Deno.test("backoffMs doubles from the moving interval up to the stable interval", () => {
  deepStrictEqual([0, 1, 2, 3, 4, 5].map((f) => backoffMs(f, CONFIG) / SECOND_MS), [
    60,
    60,
    120,
    240,
    300,
    300,
  ]);
});

Deno.test("isStale: older than three intervals, or never read", () => {
  const interval = 60 * SECOND_MS;
  const cases: [string, number | null, boolean][] = [
    ["never read", null, true],
    ["just read", NOW, false],
    ["exactly three intervals old", NOW - 3 * interval, false],
    ["one ms past three intervals", NOW - 3 * interval - 1, true],
  ];
  for (const [name, last, expected] of cases) equal(isStale(last, interval, NOW), expected, name);
});

const PULSED = { ...CONFIG, pulseSeconds: 60 };

Deno.test("nextPollAt: a calm vendor watched by pulses is polled every pulse interval", () => {
  const cases: [string, Parameters<typeof nextPollAt>[0], ScheduleConfig, number, number][] = [
    // name, state, config, expected next (s after now), expected deadline (s after now)
    ["calm, pulsing", { ...calm, failures: 0, pulsing: true }, PULSED, 55, 60],
    ["calm, not pulsing (no cheap signal)", { ...calm, failures: 0 }, PULSED, 285, 300],
    ["calm, pulsing, pulses off", { ...calm, failures: 0, pulsing: true }, CONFIG, 285, 300],
    [
      "moving, pulsing",
      { ...calm, status: "MAJOR_OUTAGE", failures: 0, pulsing: true },
      {
        ...PULSED,
        movingSeconds: 30,
      },
      25,
      30,
    ],
    ["failing, pulsing: backoff", { ...calm, failures: 3, pulsing: true }, PULSED, 228, 240],
  ];
  for (const [name, state, config, next, deadline] of cases) {
    deepStrictEqual(nextPollAt(state, NOW, config, () => 0), {
      nextPollAt: NOW + next * SECOND_MS,
      deadlineAt: NOW + deadline * SECOND_MS,
    }, name);
  }
});

Deno.test("nextPollAt after a failure never comes earlier than the vendor asked (Retry-After)", () => {
  const asked = (failures: number, retryAfterMs: number) =>
    nextPollAt({ ...calm, failures, retryAfterMs }, NOW, CONFIG, () => 1);
  deepStrictEqual(asked(1, 600_000), {
    nextPollAt: NOW + 600 * SECOND_MS,
    deadlineAt: NOW + 605 * SECOND_MS,
  }, "due when asked, the deadline the 5 s floor after");
  deepStrictEqual(asked(3, 10_000), {
    nextPollAt: NOW + 216 * SECOND_MS,
    deadlineAt: NOW + 240 * SECOND_MS,
  }, "a short Retry-After does not cut the backoff");
  deepStrictEqual(
    nextPollAt({ ...calm, failures: 0, retryAfterMs: 600_000 }, NOW, CONFIG, () => 0),
    { nextPollAt: NOW + 285 * SECOND_MS, deadlineAt: NOW + 300 * SECOND_MS },
    "a success forgets it",
  );
});

Deno.test("fullReadDue: never read, or the next pulse would pass a stable interval since the last", () => {
  equal(pulseMs(PULSED), 60_000);
  equal(pulseMs(CONFIG), 0);
  equal(pulseMs({ ...PULSED, pulseSeconds: 900 }), 300_000, "never longer than stable");
  equal(fullReadDue(null, NOW, PULSED), true);
  equal(fullReadDue(NOW - 60 * SECOND_MS, NOW, PULSED), false);
  equal(fullReadDue(NOW - 239 * SECOND_MS, NOW, PULSED), false);
  equal(fullReadDue(NOW - 240 * SECOND_MS, NOW, PULSED), true);
  equal(fullReadDue(NOW - 10 * SECOND_MS, NOW, CONFIG), false, "pulses off: the stable interval");
  equal(fullReadDue(NOW - 300 * SECOND_MS, NOW, CONFIG), true);
});
