/**
 * statusd's own early warning: suspected after two failing rounds in a row, never during a
 * local outage, acknowledged with the measured delay, cleared when probes recover; and the
 * A–F grade of a vendor's acknowledgement delays.
 * @module
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import fc from "fast-check";
import {
  ACKNOWLEDGE_WAIT_MS,
  ackRecordOf,
  gradeOf,
  HOUR_MS,
  isLocalOutage,
  MINUTE_MS,
  phaseOf,
  type ProbeRound,
  QUIET,
  type RecentReports,
  stepWarning,
  UNACKNOWLEDGED_DELAY_MS,
  type WarningEvent,
  type WarningFacts,
  type WarningState,
  warningWords,
} from "../../domain/mod.ts";

const T = Date.UTC(2026, 10, 28, 10);
const at = (minute: number) => T + minute * MINUTE_MS;

function round(minute: number, failed: number, total = 2): ProbeRound {
  return {
    at: at(minute),
    total,
    failed,
    failing: failed > 0 ? ["api.example.com"] : [],
  };
}

function facts(over: Partial<WarningFacts>): WarningFacts {
  return { round: null, localOutage: false, reports: null, acknowledgedAt: null, ...over };
}

Deno.test("two failing rounds in a row are suspected from the first; one is not", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  deepStrictEqual(s.events, []);
  equal(phaseOf(s.state), null);
  s = stepWarning(s.state, facts({ round: round(1, 2) }), at(1));
  deepStrictEqual(s.events, ["suspected"]);
  equal(phaseOf(s.state), "suspected");
  equal(s.state.episode!.firstEvidenceAt, at(0));
  equal(s.state.episode!.evidence, "probes");
  // Half failing is not more than half.
  let h = stepWarning(QUIET, facts({ round: round(0, 1) }), at(0));
  h = stepWarning(h.state, facts({ round: round(1, 1) }), at(1));
  deepStrictEqual(h.events, []);
  // Two failing rounds ten minutes apart are not consecutive.
  let g = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  g = stepWarning(g.state, facts({ round: round(10, 2) }), at(10));
  deepStrictEqual(g.events, []);
});

Deno.test("the vendor's acknowledgement is timed from statusd's first evidence; cleared ends it", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  s = stepWarning(s.state, facts({ round: round(1, 2) }), at(1));
  s = stepWarning(s.state, facts({ round: round(2, 2), acknowledgedAt: at(25) }), at(26));
  deepStrictEqual(s.events, ["acknowledged"]);
  equal(phaseOf(s.state), "acknowledged");
  s = stepWarning(s.state, facts({ round: round(27, 0), acknowledgedAt: at(25) }), at(27));
  deepStrictEqual(s.events, ["cleared"]);
  equal(s.finished.length, 1);
  equal(s.finished[0]!.delayMs, 25 * MINUTE_MS);
  equal(s.state.episode, null);
});

Deno.test("the vendor first: delay 0; never acknowledged: 240 min after a day", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  s = stepWarning(s.state, facts({ round: round(1, 2), acknowledgedAt: at(-10) }), at(1));
  deepStrictEqual(s.events, ["suspected", "acknowledged"]);
  s = stepWarning(s.state, facts({ round: round(2, 0), acknowledgedAt: at(-10) }), at(2));
  equal(s.finished[0]!.delayMs, 0);

  let n = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  n = stepWarning(n.state, facts({ round: round(1, 2) }), at(1));
  n = stepWarning(n.state, facts({ round: round(2, 0) }), at(2));
  deepStrictEqual(n.events, ["cleared"]);
  equal(n.finished.length, 0, "a cleared episode waits for the vendor");
  n = stepWarning(n.state, facts({ round: round(60, 0) }), at(60));
  equal(n.finished.length, 0);
  n = stepWarning(n.state, facts({ round: round(0, 0) }), T + ACKNOWLEDGE_WAIT_MS);
  equal(n.finished.length, 1);
  equal(n.finished[0]!.delayMs, UNACKNOWLEDGED_DELAY_MS);
  equal(n.finished[0]!.acknowledgedAt, null);
});

Deno.test("an incident posted after the trouble ended still acknowledges it", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  s = stepWarning(s.state, facts({ round: round(1, 2) }), at(1));
  s = stepWarning(s.state, facts({ round: round(2, 0) }), at(2));
  s = stepWarning(s.state, facts({ round: round(40, 0), acknowledgedAt: at(39) }), at(40));
  deepStrictEqual(s.events, []);
  equal(s.finished[0]!.delayMs, 39 * MINUTE_MS);
});

Deno.test("during a local outage nothing is suspected or cleared", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 2), localOutage: true }), at(0));
  s = stepWarning(s.state, facts({ round: round(1, 2), localOutage: true }), at(1));
  deepStrictEqual(s.events, []);
  // Suspected before the outage: it stays until a counted round says otherwise.
  let t = stepWarning(QUIET, facts({ round: round(0, 2) }), at(0));
  t = stepWarning(t.state, facts({ round: round(1, 2) }), at(1));
  t = stepWarning(t.state, facts({ round: round(2, 0), localOutage: true }), at(2));
  equal(phaseOf(t.state), "suspected");
  equal(isLocalOutage(10, 6), true);
  equal(isLocalOutage(10, 5), false, "half is not more than half");
  equal(isLocalOutage(3, 2), false, "two vendors are not many");
});

Deno.test("reports: two accounts while probes fail or cannot see, three over healthy probes", () => {
  const reports = (n: number, minute: number): RecentReports => ({
    accounts: n,
    firstAt: at(minute),
    lastAt: at(minute),
  });
  const one = stepWarning(QUIET, facts({ reports: reports(1, 0) }), at(0));
  deepStrictEqual(one.events, [], "one account is never enough");
  const oneAndProbe = stepWarning(
    QUIET,
    facts({ reports: reports(1, 0), round: round(1, 1) }),
    at(1),
  );
  deepStrictEqual(oneAndProbe.events, [], "nor one account beside a failed probe");
  const two = stepWarning(QUIET, facts({ reports: reports(2, 0) }), at(1));
  deepStrictEqual(two.events, ["suspected"], "no target answers: two accounts");
  equal(two.state.episode!.evidence, "reports");
  equal(two.state.episode!.firstEvidenceAt, at(0));
  equal(two.state.episode!.reporters, 2);
  const agree = stepWarning(QUIET, facts({ reports: reports(2, 0), round: round(1, 1) }), at(1));
  deepStrictEqual(agree.events, ["suspected"]);
  equal(agree.state.episode!.evidence, "probes_and_reports");
  const healthy = stepWarning(QUIET, facts({ reports: reports(2, 0), round: round(1, 0) }), at(1));
  deepStrictEqual(healthy.events, [], "every probe answers: two accounts are outweighed");
  const three = stepWarning(QUIET, facts({ reports: reports(3, 0), round: round(1, 0) }), at(1));
  deepStrictEqual(three.events, ["suspected"]);
  // Reports keep it open while recent and still a quorum, then healthy probes clear it.
  const kept = stepWarning(two.state, facts({ reports: reports(2, 0), round: round(5, 1) }), at(5));
  equal(phaseOf(kept.state), "suspected");
  const gone = stepWarning(kept.state, facts({ round: round(40, 0) }), at(40));
  deepStrictEqual(gone.events, ["cleared"]);
  match(
    warningWords(two.state.episode!, () => "10:00"),
    /^2 accounts here reported it not working since 10:00; the vendor has not acknowledged it\.$/,
  );
});

Deno.test("the words name the hosts, the counts and the time", () => {
  let s = stepWarning(QUIET, facts({ round: round(0, 8, 10) }), at(2));
  s = stepWarning(s.state, facts({ round: round(1, 8, 10) }), at(3));
  equal(
    warningWords(s.state.episode!, (t) => new Date(t).toISOString().slice(11, 16)),
    "statusd's own checks have seen errors from api.example.com since 10:00 (8 of 10 failed); " +
      "the vendor has not acknowledged it.",
  );
});

Deno.test("grades: A under 15 min … F over 4 h; fewer than 3 episodes is not enough data", () => {
  equal(gradeOf(14.9), "A");
  equal(gradeOf(15), "B");
  equal(gradeOf(30), "B");
  equal(gradeOf(31), "C");
  equal(gradeOf(120), "C");
  equal(gradeOf(121), "D");
  equal(gradeOf(240), "D");
  equal(gradeOf(241), "F");
  const now = T;
  const ep = (daysAgo: number, minutes: number, acknowledged = true) => ({
    firstEvidenceAt: now - daysAgo * 24 * HOUR_MS,
    delayMs: minutes * MINUTE_MS,
    acknowledged,
  });
  const two = ackRecordOf([ep(1, 0), ep(2, 10)], now);
  equal(two.grade, null);
  match(two.gradeNote!, /not enough data: 2 of the 3 episodes/);
  const record = ackRecordOf([ep(1, 0), ep(2, 30), ep(3, 240, false), ep(100, 0)], now);
  deepStrictEqual(
    { ...record },
    {
      windowDays: 90,
      episodes: 3,
      unacknowledged: 1,
      vendorFirst: 1,
      averageDelayMinutes: 90,
      grade: "C",
      gradeNote: null,
    },
  );
});

// --- the model ---------------------------------------------------------------------------------

/** One minute of a probes-only history. */
type Minute = "ok" | "fail" | "local" | "none";

interface ModelEpisode {
  first: number;
  cleared: number | null;
  ack: number | null;
}

/**
 * The reference: a history read minute by minute with indices, probes only. A suspicion is a
 * failing minute whose last earlier minute with probes (local or not) failed and was at most two
 * minutes before; its evidence starts at the first minute of that run. A healthy minute or one
 * without targets clears; a local minute neither suspects nor clears; a suspicion within 30 min
 * of the last clear reopens it.
 */
function model(history: Minute[], ackMinute: number | null) {
  const events: [number, WarningEvent][] = [];
  const delays: number[] = [];
  let cur: ModelEpisode | null = null;
  const lastProbed = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (history[j] !== "none") return j;
    return -1;
  };
  const runStart = (i: number) => {
    let s = i;
    for (let j = lastProbed(s); j >= 0 && history[j] === "fail" && s - j <= 2; j = lastProbed(s)) {
      s = j;
    }
    return s;
  };
  history.forEach((m, i) => {
    const j = lastProbed(i);
    const suspect = m === "fail" && j >= 0 && history[j] === "fail" && i - j <= 2;
    if (suspect && (cur === null || cur.cleared !== null)) {
      if (cur !== null && i - cur.cleared! <= 30) cur.cleared = null;
      else {
        if (cur !== null) delays.push(UNACKNOWLEDGED_DELAY_MS);
        cur = { first: runStart(i), cleared: null, ack: null };
      }
      events.push([i, "suspected"]);
    }
    if (cur !== null && cur.ack === null && ackMinute !== null && i >= ackMinute) {
      cur.ack = ackMinute;
      if (cur.cleared === null) events.push([i, "acknowledged"]);
      else {
        delays.push(Math.max(0, cur.ack - cur.first) * MINUTE_MS);
        cur = null;
      }
    }
    if (cur !== null && cur.cleared === null && (m === "ok" || m === "none") && !suspect) {
      cur.cleared = i;
      events.push([i, "cleared"]);
      if (cur.ack !== null) {
        delays.push(Math.max(0, cur.ack - cur.first) * MINUTE_MS);
        cur = null;
      }
    }
  });
  const last = cur as ModelEpisode | null;
  return { events, delays, phase: last === null || last.cleared !== null ? null : last };
}

Deno.test("property: the step agrees with the minute-by-minute model on every history", () => {
  fc.assert(
    fc.property(
      // Runs of one kind of minute, as outages and local trouble come.
      fc.array(
        fc.tuple(
          fc.constantFrom<Minute>("ok", "fail", "fail", "local", "none"),
          fc.integer({ min: 1, max: 25 }),
        ),
        { maxLength: 12 },
      ).map((runs) => runs.flatMap(([m, n]) => Array<Minute>(n).fill(m))),
      fc.option(fc.integer({ min: -20, max: 130 }), { nil: null }),
      (history, ackMinute) => {
        let state: WarningState = QUIET;
        const events: [number, WarningEvent][] = [];
        const delays: number[] = [];
        history.forEach((m, i) => {
          const step = stepWarning(
            state,
            facts({
              round: m === "none" ? null : round(i, m === "ok" ? 0 : 3, 3),
              localOutage: m === "local",
              acknowledgedAt: ackMinute !== null && i >= ackMinute ? at(ackMinute) : null,
            }),
            at(i),
          );
          for (const e of step.events) events.push([i, e]);
          for (const f of step.finished) delays.push(f.delayMs);
          // A local outage never raises a warning.
          if (m === "local") equal(step.events.includes("suspected"), false);
          state = step.state;
        });
        const expected = model(history, ackMinute);
        deepStrictEqual(events, expected.events);
        deepStrictEqual(delays, expected.delays);
        equal(phaseOf(state) !== null, expected.phase !== null);
        if (expected.phase !== null) {
          equal(state.episode!.firstEvidenceAt, at(expected.phase.first));
        }
      },
    ),
    { numRuns: 300 },
  );
});
