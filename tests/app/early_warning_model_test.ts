/**
 * statusd's own eyes against a reference model, over whole histories of one vendor minute by
 * minute: its page read (level, incidents listed with back-dated starts and resolutions),
 * accounts' reports (long-standing or made that day), and probe rounds (answering, failing, or
 * no target). The real path runs: readings through the store, reports through `reportTrouble`,
 * the step through `stepVendorWarning`, and what an anonymous caller sees through `ownEyesOf`.
 * The model says, from the rules alone, the phase each minute, the delay of each finished
 * episode and the grade. It dates an acknowledgement by the first reading that showed the
 * vendor admitting trouble, so a store that read the vendor's own `started_at` fails it.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { type Caller, createMonitor, ownEyesOf, reportTrouble } from "../../app/mod.ts";
import {
  ACKNOWLEDGE_LOOKBACK_MS,
  ACKNOWLEDGE_WAIT_MS,
  ackRecordOf,
  CONSECUTIVE_MS,
  DAY_MS,
  type EpochMs,
  type GradedEpisode,
  type IncidentSnapshot,
  MINUTE_MS,
  type ProbeRound,
  REOPEN_MS,
  REPORT_WINDOW_MS,
  type StatusLevel,
  UNACKNOWLEDGED_DELAY_MS,
} from "../../domain/mod.ts";
import { stepVendorWarning } from "../../ingest/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T = Date.UTC(2026, 10, 2, 9);
const at = (minute: number) => T + minute * MINUTE_MS;
/** Within a minute: the page is read, then reports come, then the probe round runs. */
const READ_OFFSET = -30_000;
const REPORT_OFFSET = -20_000;

/** Accounts: three that have monitored the vendor for a week, two signed up that day. */
const STANDING = ["old1", "old2", "old3"] as const;
const NEW = ["new1", "new2"] as const;
type Who = (typeof STANDING)[number] | (typeof NEW)[number];

/** What the vendor's page does in one minute. */
type PageEvent =
  | { readonly kind: "level"; readonly level: StatusLevel }
  | { readonly kind: "open"; readonly backdate: number }
  | { readonly kind: "resolve"; readonly backdate: number }
  | { readonly kind: "none" };

/** One minute of history. */
interface Minute {
  readonly page: PageEvent;
  readonly reports: readonly Who[];
  /** The probe round: every target answers, every target fails (ignored without targets). */
  readonly probe: "ok" | "fail";
}

interface History {
  /** Whether the vendor has probe targets at all. */
  readonly targets: boolean;
  readonly minutes: readonly Minute[];
}

// ---- the model --------------------------------------------------------------------------------

interface ModelIncident {
  readonly claimedStart: EpochMs;
  firstSeen: EpochMs;
  closedSeen: EpochMs | null;
  claimedResolved: EpochMs | null;
}

interface ModelEpisode {
  first: EpochMs;
  ack: EpochMs | null;
  cleared: EpochMs | null;
}

/**
 * The rules, read plainly. Each minute: the page read (statusd's time is the reading's), then
 * reports, then the round at the minute. A suspicion: two failing rounds in a row, or reports
 * of long-standing accounts in the last 30 minutes from 2 accounts (3 while every target
 * answers). Acknowledged at the first reading that showed a level other than operational (or
 * the reading that began the run it was in when the evidence began), or first listed an
 * incident statusd had not seen closed before the evidence began and the vendor does not claim
 * over 30 minutes before it.
 */
class Model {
  readonly readings: { at: EpochMs; level: StatusLevel }[] = [];
  readonly incidents: ModelIncident[] = [];
  readonly reports: { at: EpochMs; who: Who }[] = [];
  readonly finished: GradedEpisode[] = [];
  episode: ModelEpisode | null = null;
  lastRound: { at: EpochMs; failing: boolean } | null = null;
  failingSince: EpochMs | null = null;

  /** When statusd saw the vendor admit trouble covering evidence from `first`, by `until`. */
  ack(first: EpochMs, until: EpochMs): EpochMs | null {
    const times: EpochMs[] = [];
    const before = this.readings.filter((r) => r.at <= first);
    const last = before.at(-1);
    if (last && last.level !== "OPERATIONAL") {
      // The reading that began the run of trouble it was in.
      let k = before.length - 1;
      while (k > 0 && before[k - 1]!.level !== "OPERATIONAL") k--;
      times.push(before[k]!.at);
    } else {
      const after = this.readings.find((r) =>
        r.at > first && r.at <= until && r.level !== "OPERATIONAL"
      );
      if (after) times.push(after.at);
    }
    for (const i of this.incidents) {
      if (
        i.firstSeen <= until && (i.closedSeen === null || i.closedSeen >= first) &&
        (i.claimedResolved === null || i.claimedResolved >= first - ACKNOWLEDGE_LOOKBACK_MS)
      ) times.push(i.firstSeen);
    }
    return times.length ? Math.min(...times) : null;
  }

  finish(e: ModelEpisode) {
    this.finished.push({
      firstEvidenceAt: e.first,
      delayMs: e.ack === null ? UNACKNOWLEDGED_DELAY_MS : Math.max(0, e.ack - e.first),
      acknowledged: e.ack !== null,
    });
  }

  step(now: EpochMs, round: "ok" | "fail" | null) {
    const failing = round === "fail";
    const consecutive = failing && this.lastRound !== null && this.lastRound.failing &&
      now - this.lastRound.at <= CONSECUTIVE_MS;
    if (round !== null) {
      this.failingSince = failing ? (consecutive ? this.failingSince ?? now : now) : null;
      this.lastRound = { at: now, failing };
    }
    const recent = this.reports.filter((r) =>
      r.at >= now - REPORT_WINDOW_MS && (STANDING as readonly string[]).includes(r.who)
    );
    const accounts = new Set(recent.map((r) => r.who)).size;
    const quorum = round === "ok" ? 3 : 2;
    const byReports = accounts >= quorum;
    const suspicion = consecutive || byReports;
    const open = this.episode !== null && this.episode.cleared === null;
    if (!open && suspicion) {
      const starts = [
        ...(consecutive ? [this.failingSince!] : []),
        ...(byReports ? [Math.min(...recent.map((r) => r.at))] : []),
        ...(byReports && failing ? [now] : []),
      ];
      if (this.episode !== null && now - this.episode.cleared! <= REOPEN_MS) {
        this.episode.cleared = null;
      } else {
        if (this.episode !== null) this.finish(this.episode);
        this.episode = { first: Math.min(...starts), ack: null, cleared: null };
      }
    }
    const e = this.episode;
    if (e !== null && e.ack === null) {
      e.ack = this.ack(e.first, Math.min(now, (e.cleared ?? now) + ACKNOWLEDGE_LOOKBACK_MS));
      if (e.ack !== null && e.cleared !== null) {
        this.finish(e);
        this.episode = null;
      }
    }
    const still = this.episode;
    if (still !== null && still.cleared === null) {
      const quiet = recent.length === 0 || accounts < quorum ||
        now - Math.max(...recent.map((r) => r.at)) > REPORT_WINDOW_MS;
      if (!failing && quiet && !suspicion) {
        still.cleared = now;
        if (still.ack !== null) {
          this.finish(still);
          this.episode = null;
        }
      }
    }
    const waiting = this.episode;
    if (
      waiting !== null && waiting.cleared !== null && now - waiting.first >= ACKNOWLEDGE_WAIT_MS
    ) {
      this.finish(waiting);
      this.episode = null;
    }
  }

  /** What a surface shows now: the phase, and the delay when acknowledged. */
  shown(now: EpochMs): { phase: string; delayMinutes: number | null } | null {
    const e = this.episode;
    if (e === null || e.cleared !== null) return null;
    const ack = e.ack ?? this.ack(e.first, now);
    return ack === null
      ? { phase: "suspected", delayMinutes: null }
      : { phase: "acknowledged", delayMinutes: Math.round(Math.max(0, ack - e.first) / MINUTE_MS) };
  }
}

// ---- the real path ----------------------------------------------------------------------------

const SLUG = "acme";

async function rig() {
  let now = T - 8 * DAY_MS;
  const ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: SLUG, name: "Acme" })], now);
  await recordReading(
    ctx.store,
    SLUG,
    { indicator: "OPERATIONAL", components: [], incidents: [] },
    now,
  );
  const callers = new Map<Who, Caller>();
  for (const who of [...STANDING, ...NEW]) {
    if ((NEW as readonly string[]).includes(who)) now = T - MINUTE_MS * 90;
    const m = await account(ctx, `${who}@example.test`, "FREE");
    const caller: Caller = { kind: "admin", account: m.account };
    await createMonitor(ctx, caller, { service: SLUG });
    callers.set(who, caller);
  }
  const vendorId = (await ctx.store.catalog.service(SLUG))!.id;
  return { ctx, callers, vendorId, set: (t: EpochMs) => (now = t) };
}

/** Plays `h` on the real path and on the model, comparing what an anonymous caller sees. */
async function play(h: History) {
  const r = await rig();
  await using _ = r.ctx;
  const model = new Model();
  model.readings.push({ at: T - 8 * DAY_MS, level: "OPERATIONAL" });
  let level: StatusLevel = "OPERATIONAL";
  const listed: IncidentSnapshot[] = [];
  const step = async (now: EpochMs, probe: "ok" | "fail") => {
    r.set(now);
    const round: ProbeRound | null = h.targets
      ? {
        at: now,
        total: 2,
        failed: probe === "fail" ? 2 : 0,
        failing: probe === "fail" ? ["api.acme.test"] : [],
      }
      : null;
    const [v] = await r.ctx.store.warnings.claimDue(now, 10, "all", 1);
    await stepVendorWarning(r.ctx.store.warnings, v!, now, false, { round, answered: {} });
    model.step(now, h.targets ? probe : null);
  };
  for (const [i, m] of h.minutes.entries()) {
    const readAt = at(i) + READ_OFFSET;
    const p = m.page;
    if (p.kind === "level") level = p.level;
    if (p.kind === "open") {
      listed.push({
        externalId: `inc${listed.length}`,
        title: `Trouble ${listed.length}`,
        status: "INVESTIGATING",
        impact: "MINOR",
        startedAt: readAt - p.backdate * MINUTE_MS,
        updatedAt: readAt - p.backdate * MINUTE_MS,
        resolvedAt: null,
        url: null,
        componentIds: [],
        updates: [],
      });
      model.incidents.push({
        claimedStart: readAt - p.backdate * MINUTE_MS,
        firstSeen: readAt,
        closedSeen: null,
        claimedResolved: null,
      });
    }
    if (p.kind === "resolve") {
      const k = listed.findIndex((x) => x.status !== "RESOLVED");
      if (k >= 0) {
        const claimed = readAt - p.backdate * MINUTE_MS;
        listed[k] = { ...listed[k]!, status: "RESOLVED", resolvedAt: claimed, updatedAt: claimed };
        model.incidents[k]!.closedSeen = readAt;
        model.incidents[k]!.claimedResolved = claimed;
      }
    }
    r.set(readAt);
    await recordReading(r.ctx.store, SLUG, {
      indicator: level,
      components: [],
      incidents: [...listed],
    }, readAt);
    model.readings.push({ at: readAt, level });
    r.set(at(i) + REPORT_OFFSET);
    for (const who of m.reports) {
      // A reporter reports a vendor at most once in ten minutes: a refusal stores nothing.
      const mine = model.reports.filter((x) => x.who === who);
      const last = mine.at(-1);
      try {
        await reportTrouble(r.ctx, r.callers.get(who)!, { service: SLUG, note: "down for us" });
        equal(last === undefined || at(i) + REPORT_OFFSET - last.at >= 10 * MINUTE_MS, true);
        model.reports.push({ at: at(i) + REPORT_OFFSET, who });
      } catch (err) {
        equal((err as Error).name, "RateLimited");
      }
    }
    await step(at(i), m.probe);
    const seen = (await ownEyesOf(r.ctx, SLUG)).earlyWarning;
    deepStrictEqual(
      seen === null ? null : { phase: seen.phase, delayMinutes: seen.delayMinutes },
      model.shown(at(i)),
      `minute ${i}`,
    );
  }
  // A day later every episode is final: the grade counts them all.
  const end = at(h.minutes.length) + ACKNOWLEDGE_WAIT_MS;
  await step(end, "ok");
  const eyes = await ownEyesOf(r.ctx, SLUG);
  deepStrictEqual(eyes.trackRecord, ackRecordOf(model.finished, end));
}

const page: fc.Arbitrary<PageEvent> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<PageEvent>({ kind: "none" }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<StatusLevel>("OPERATIONAL", "PARTIAL_OUTAGE", "MAJOR_OUTAGE")
      .map((level): PageEvent => ({ kind: "level", level })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 90 }).map((backdate): PageEvent => ({
      kind: "open",
      backdate,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 60 }).map((backdate): PageEvent => ({
      kind: "resolve",
      backdate,
    })),
  },
);

const minute: fc.Arbitrary<Minute> = fc.record({
  page,
  reports: fc.oneof(
    { weight: 4, arbitrary: fc.constant<Who[]>([]) },
    { weight: 1, arbitrary: fc.subarray<Who>([...STANDING, ...NEW], { minLength: 1 }) },
  ),
  probe: fc.constantFrom<"ok" | "fail">("ok", "ok", "fail"),
});

/** Runs of minutes alike (outages come in runs), then a tail of quiet minutes. */
const history: fc.Arbitrary<History> = fc.record({
  targets: fc.boolean(),
  minutes: fc.array(fc.tuple(minute, fc.integer({ min: 1, max: 6 })), {
    minLength: 1,
    maxLength: 10,
  })
    .map((runs) =>
      runs.flatMap((
        [m, n],
      ) => [
        m,
        ...Array.from(
          { length: n - 1 },
          () => ({ ...m, page: { kind: "none" as const }, reports: [] }),
        ),
      ])
    ),
});

Deno.test("property: phase, delay and grade agree with the model over whole histories", async () => {
  await fc.assert(fc.asyncProperty(history, play), {
    numRuns: Number(Deno.env.get("STATUSD_MODEL_RUNS") ?? 60),
  });
});

Deno.test("the model's own examples: a back-dated incident, a resolved one, a vendor first", async () => {
  const quiet: Minute = { page: { kind: "none" }, reports: [], probe: "ok" };
  const fail: Minute = { ...quiet, probe: "fail" };
  // Failing from minute 1; an incident listed at minute 5 that claims to have begun 60 min ago.
  await play({
    targets: true,
    minutes: [
      quiet,
      fail,
      fail,
      fail,
      fail,
      { ...fail, page: { kind: "open", backdate: 60 } },
      fail,
      quiet,
    ],
  });
  // An incident resolved before the evidence began acknowledges nothing.
  await play({
    targets: true,
    minutes: [
      { ...quiet, page: { kind: "open", backdate: 0 } },
      { ...quiet, page: { kind: "resolve", backdate: 0 } },
      quiet,
      fail,
      fail,
      fail,
    ],
  });
  // The vendor said so before statusd saw anything: delay 0.
  await play({
    targets: true,
    minutes: [{ ...quiet, page: { kind: "level", level: "MAJOR_OUTAGE" } }, fail, fail, quiet],
  });
});
