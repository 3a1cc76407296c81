/**
 * statusd's own eyes: what its probes of a vendor's public endpoints and its members' reports
 * say, apart from what the vendor says. One pure step per probe round turns the facts of that
 * round into the vendor's early warning (`suspected`, `acknowledged`, cleared) and, when an
 * episode is over, the delay with which the vendor acknowledged it. The vendor's own status is
 * never touched: the warning is a separate field.
 * @module
 */
import type { StatusLevel } from "./status.ts";
import { DAY_MS, type EpochMs, HOUR_MS, MINUTE_MS, toIso } from "./time.ts";

/** Two probe rounds at most this far apart are consecutive. */
export const CONSECUTIVE_MS = 150_000;
/** Reports older than this no longer count. */
export const REPORT_WINDOW_MS = 30 * MINUTE_MS;
/**
 * Independent accounts whose reports make a public suspicion while statusd's probes of the
 * vendor fail or cannot see (no target answers yet).
 */
export const PUBLIC_QUORUM = 2;
/** Independent accounts it takes while every probe target of the vendor answers. */
export const PUBLIC_QUORUM_OVER_HEALTHY_PROBES = 3;
/**
 * How long an account must have monitored a vendor before its reports of that vendor weigh in
 * public: a self-sign-up made today cannot make anyone else see anything.
 */
export const REPORTER_STANDING_MS = 7 * DAY_MS;
/** The delay counted for an episode the vendor never acknowledged. */
export const UNACKNOWLEDGED_DELAY_MS = 240 * MINUTE_MS;
/** How long after its first evidence an episode waits for the vendor to acknowledge it. */
export const ACKNOWLEDGE_WAIT_MS = 24 * HOUR_MS;
/** A suspicion this soon after the last episode cleared reopens it (a flapping endpoint). */
export const REOPEN_MS = 30 * MINUTE_MS;
/** Acknowledgements are looked for this long before the first evidence (the vendor was first). */
export const ACKNOWLEDGE_LOOKBACK_MS = 30 * MINUTE_MS;

/** One probe round of one vendor, over the targets that have answered at least once before. */
export interface ProbeRound {
  readonly at: EpochMs;
  /** Targets probed (a target that never answered is no evidence and is not counted). */
  readonly total: number;
  /** Of them, how many failed (no answer, DNS, connect, TLS, timeout, 5xx). */
  readonly failed: number;
  /** The hosts of the failed targets. */
  readonly failing: readonly string[];
}

/** True when more than half of a round's targets failed. */
export function isFailingRound(round: ProbeRound): boolean {
  return round.total > 0 && round.failed * 2 > round.total;
}

/**
 * The reports of a vendor in the last {@link REPORT_WINDOW_MS} that weigh in public: one count
 * per account, and only accounts that had monitored the vendor for {@link REPORTER_STANDING_MS}
 * when they reported (what members type stays with their account).
 */
export interface RecentReports {
  /** Distinct accounts whose reports count. */
  readonly accounts: number;
  /** The first and last counted report in the window. */
  readonly firstAt: EpochMs;
  readonly lastAt: EpochMs;
}

/** What made statusd suspect trouble. */
export type Evidence = "probes" | "reports" | "probes_and_reports";

/** One episode of trouble statusd saw itself. */
export interface WarningEpisode {
  /** statusd's first evidence: the first failing round of the run, or the first report. */
  readonly firstEvidenceAt: EpochMs;
  readonly suspectedAt: EpochMs;
  /**
   * When statusd first saw the vendor admit trouble (a reading showing its level other than
   * operational, or listing an incident); before the first evidence: the vendor was first.
   */
  readonly acknowledgedAt: EpochMs | null;
  /**
   * The start the vendor itself gives the incident that admitted it (absent or null: admitted by
   * its level, or not yet): kept beside statusd's own time, never in its place.
   */
  readonly claimedStartAt?: EpochMs | null;
  readonly clearedAt: EpochMs | null;
  readonly evidence: Evidence;
  /** The latest failing round's counts and hosts (0 of 0 for reports alone). */
  readonly failed: number;
  readonly total: number;
  readonly hosts: readonly string[];
  /** Independent accounts whose reports counted (0 for probes alone). */
  readonly reporters: number;
}

/** A vendor's early-warning memory between probe rounds. */
export interface WarningState {
  /** The last round counted (none during a local outage). */
  readonly lastRound: { readonly at: EpochMs; readonly failing: boolean } | null;
  /** The first failing round of the current run of failing rounds. */
  readonly failingSince: EpochMs | null;
  /** The open episode, or the last one while it waits for the vendor's acknowledgement. */
  readonly episode: WarningEpisode | null;
}

/** The state of a vendor never probed. */
export const QUIET: WarningState = { lastRound: null, failingSince: null, episode: null };

/** What one step knows. */
export interface WarningFacts {
  /** This round's probes of the vendor; null when it has no target that ever answered. */
  readonly round: ProbeRound | null;
  /** Probes of many unrelated vendors failed together: statusd's own network is at fault. */
  readonly localOutage: boolean;
  /** Reports in the window, or null. */
  readonly reports: RecentReports | null;
  /**
   * When statusd first saw the vendor admit trouble covering the episode (a non-operational
   * status or an incident), looked for from {@link ACKNOWLEDGE_LOOKBACK_MS} before the first
   * evidence; null when it has not. Only asked while an episode is open or waiting.
   */
  readonly acknowledgedAt: EpochMs | null;
  /** The start the vendor gives the incident that admitted it, if it was an incident. */
  readonly claimedStartAt?: EpochMs | null;
}

/** What a step changed, for the log, the change feed and alerts. */
export type WarningEvent = "suspected" | "acknowledged" | "cleared";

/** An episode whose delay is final, to be kept for the vendor's grade. */
export interface FinishedEpisode extends WarningEpisode {
  /** From the first evidence to the acknowledgement (0 when the vendor was first), or 240 min. */
  readonly delayMs: number;
}

/** One step's result. */
export interface WarningStep {
  readonly state: WarningState;
  readonly events: readonly WarningEvent[];
  /** Episodes whose delay became final in this step (at most two: a stale one and this). */
  readonly finished: readonly FinishedEpisode[];
}

/** The phase a surface shows: null when nothing is suspected now. */
export type WarningPhase = "suspected" | "acknowledged";

/** The phase of `state` (an episode cleared and waiting shows nothing). */
export function phaseOf(state: WarningState): WarningPhase | null {
  const e = state.episode;
  if (e === null || e.clearedAt !== null) return null;
  return e.acknowledgedAt === null ? "suspected" : "acknowledged";
}

/** The delay of an episode acknowledged at `acknowledgedAt` (never negative). */
export function delayOf(episode: WarningEpisode): number | null {
  if (episode.acknowledgedAt === null) return null;
  return Math.max(0, episode.acknowledgedAt - episode.firstEvidenceAt);
}

function finish(episode: WarningEpisode): FinishedEpisode {
  return { ...episode, delayMs: delayOf(episode) ?? UNACKNOWLEDGED_DELAY_MS };
}

/**
 * One probe round's step for one vendor at `now`:
 * - a round counts only outside a local outage; a run of failing rounds starts at its first;
 * - `suspected` when two consecutive rounds fail, or when reports of {@link PUBLIC_QUORUM}
 *   independent accounts agree ({@link PUBLIC_QUORUM_OVER_HEALTHY_PROBES} while every probe
 *   target answers: healthy probes outweigh a pair of reports);
 * - `acknowledged` when the vendor admits trouble while an episode is open (at once, delay 0,
 *   when it was first);
 * - `cleared` when a counted round is healthy (or there are no targets) and no report is recent;
 *   during a local outage nothing is cleared or suspected;
 * - an episode is finished when it is acknowledged and cleared, or, never acknowledged,
 *   {@link ACKNOWLEDGE_WAIT_MS} after its first evidence (its delay then counts 240 min).
 */
export function stepWarning(state: WarningState, facts: WarningFacts, now: EpochMs): WarningStep {
  const events: WarningEvent[] = [];
  const finished: FinishedEpisode[] = [];
  const round = facts.localOutage ? null : facts.round;
  const failing = round !== null && isFailingRound(round);
  const consecutive = failing && state.lastRound !== null && state.lastRound.failing &&
    round!.at - state.lastRound.at <= CONSECUTIVE_MS;
  // A step without targets keeps the run; a local outage or a healthy round ends it.
  const failingSince = facts.localOutage
    ? null
    : round === null
    ? state.failingSince
    : failing
    ? (consecutive ? state.failingSince ?? round.at : round.at)
    : null;
  const lastRound = facts.localOutage
    ? null
    : round === null
    ? state.lastRound
    : { at: round.at, failing };

  const reports = facts.reports;
  const probeFailed = round !== null && round.failed > 0;
  const byReports = !facts.localOutage && reports !== null &&
    reports.accounts >= quorumOf(round);
  const suspicion = consecutive || byReports;

  let episode = state.episode;
  const open = episode !== null && episode.clearedAt === null;

  if (!open && suspicion) {
    const evidence: Evidence = consecutive && byReports
      ? "probes_and_reports"
      : consecutive
      ? "probes"
      : probeFailed
      ? "probes_and_reports"
      : "reports";
    const starts = [
      ...(consecutive ? [failingSince!] : []),
      ...(byReports ? [reports!.firstAt] : []),
      ...(byReports && probeFailed ? [round!.at] : []),
    ];
    const firstEvidenceAt = Math.min(...starts);
    const fresh = {
      evidence,
      failed: round?.failed ?? 0,
      total: round?.total ?? 0,
      hosts: round?.failing ?? [],
      reporters: byReports ? reports!.accounts : 0,
    };
    if (episode !== null && now - episode.clearedAt! <= REOPEN_MS) {
      episode = { ...episode, ...fresh, clearedAt: null };
    } else {
      if (episode !== null) finished.push(finish(episode));
      episode = {
        ...fresh,
        firstEvidenceAt,
        suspectedAt: now,
        acknowledgedAt: null,
        clearedAt: null,
      };
    }
    events.push("suspected");
  } else if (open && (failing || byReports)) {
    episode = {
      ...episode!,
      failed: round?.failed ?? episode!.failed,
      total: round?.total ?? episode!.total,
      hosts: failing ? round!.failing : episode!.hosts,
      reporters: Math.max(episode!.reporters, byReports ? reports!.accounts : 0),
    };
  }

  if (episode !== null && episode.acknowledgedAt === null && facts.acknowledgedAt !== null) {
    episode = {
      ...episode,
      acknowledgedAt: facts.acknowledgedAt,
      claimedStartAt: facts.claimedStartAt ?? null,
    };
    if (episode.clearedAt === null) events.push("acknowledged");
    else {
      finished.push(finish(episode));
      episode = null;
    }
  }

  if (episode !== null && episode.clearedAt === null && !facts.localOutage) {
    const healthy = round === null ? true : !isFailingRound(round);
    const reportsQuiet = reports === null || reports.accounts < quorumOf(round) ||
      now - reports.lastAt > REPORT_WINDOW_MS;
    if (healthy && reportsQuiet && !suspicion) {
      episode = { ...episode, clearedAt: now };
      events.push("cleared");
      if (episode.acknowledgedAt !== null) {
        finished.push(finish(episode));
        episode = null;
      }
    }
  }

  if (
    episode !== null && episode.clearedAt !== null &&
    now - episode.firstEvidenceAt >= ACKNOWLEDGE_WAIT_MS
  ) {
    finished.push(finish(episode));
    episode = null;
  }

  return { state: { lastRound, failingSince, episode }, events, finished };
}

/**
 * The independent accounts whose reports make a suspicion next to `round`: more while every
 * probe target answers.
 */
export function quorumOf(round: ProbeRound | null): number {
  return round !== null && round.total > 0 && round.failed === 0
    ? PUBLIC_QUORUM_OVER_HEALTHY_PROBES
    : PUBLIC_QUORUM;
}

/**
 * Probes of many unrelated vendors failing in one round mean statusd's own network is at fault:
 * at least {@link LOCAL_OUTAGE_MIN_VENDORS} vendors failing, and more than half of those probed.
 */
export function isLocalOutage(probed: number, failing: number): boolean {
  return failing >= LOCAL_OUTAGE_MIN_VENDORS && failing * 2 > probed;
}

/** The fewest vendors failing together that statusd takes for its own network's fault. */
export const LOCAL_OUTAGE_MIN_VENDORS = 3;

/** A time of day as the warning's words give it: "10:02 UTC". */
export function utcTimeOfDay(at: EpochMs): string {
  return `${toIso(at).slice(11, 16)} UTC`;
}

/** What the words of a warning may say of the vendor besides the episode. */
export interface WarningWordsContext {
  /** The vendor's name ("the vendor" when not given). */
  readonly name?: string;
  /** The level the vendor's own page reads now (left unsaid when not given). */
  readonly level?: StatusLevel | null;
  readonly toTime?: (at: EpochMs) => string;
}

/** "its status page reads partial outage", or how statusd cannot tell. */
export function pageReads(level: StatusLevel): string {
  return level === "UNKNOWN"
    ? "statusd cannot read its status page now"
    : `its status page reads ${level.toLowerCase().replaceAll("_", " ")}`;
}

/** What statusd's own evidence of `episode` is, in words (no vendor part). */
export function evidenceWords(
  episode: WarningEpisode,
  toTime: (at: EpochMs) => string = utcTimeOfDay,
): string {
  const probes = episode.total > 0
    ? `statusd's own checks have seen errors from ${
      episode.hosts.join(", ") || "its endpoints"
    } since ${toTime(episode.firstEvidenceAt)} (${episode.failed} of ${episode.total} failed)`
    : "";
  const reports = episode.reporters > 0
    ? `${episode.reporters} ${
      episode.reporters === 1 ? "account" : "accounts"
    } here reported it not working${
      probes === "" ? ` since ${toTime(episode.firstEvidenceAt)}` : ""
    }`
    : "";
  const seen = [probes, reports].filter((s) => s !== "").join("; ");
  return seen === "" ? "statusd suspects trouble" : seen;
}

/** Where the vendor stands on `episode`, in words: acknowledged or not, and when. */
export function acknowledgementWords(
  episode: WarningEpisode,
  context: WarningWordsContext = {},
): string {
  const name = context.name ?? "the vendor";
  const toTime = context.toTime ?? utcTimeOfDay;
  const level = context.level ? ` (${pageReads(context.level)})` : "";
  if (episode.acknowledgedAt === null) return `${name} has not acknowledged it${level}`;
  const claimed = episode.claimedStartAt !== null && episode.claimedStartAt !== undefined &&
      episode.claimedStartAt < episode.acknowledgedAt
    ? `; it dates the trouble from ${toTime(episode.claimedStartAt)}`
    : "";
  if (episode.acknowledgedAt <= episode.firstEvidenceAt) {
    return `${name} had already acknowledged it, at ${
      toTime(episode.acknowledgedAt)
    }${level}${claimed}`;
  }
  const minutes = Math.max(
    1,
    Math.round((episode.acknowledgedAt - episode.firstEvidenceAt) / MINUTE_MS),
  );
  return `${name} acknowledged it ${minutes} min later${level}${claimed}`;
}

/**
 * The words a surface shows for an episode, one coherent sentence: what statusd saw, then where
 * the vendor stands, e.g. "statusd's own checks have seen errors from api.acme.com since 10:02
 * UTC (2 of 3 failed); Acme has not acknowledged it (its status page reads operational)."
 */
export function warningWords(
  episode: WarningEpisode,
  context: WarningWordsContext | ((at: EpochMs) => string) = {},
): string {
  const c = typeof context === "function" ? { toTime: context } : context;
  return `${evidenceWords(episode, c.toTime)}; ${acknowledgementWords(episode, c)}.`;
}

/** statusd's first sight of a vendor admitting trouble, and the start the vendor gives it. */
export interface Acknowledgement {
  /** When statusd first saw it (a reading's time). */
  readonly at: EpochMs;
  /** The start the vendor gives the incident (null: admitted by its level). */
  readonly claimedStartAt: EpochMs | null;
}

/** `episode` as acknowledged by `ack` (statusd's first sight of the vendor's admission). */
export function acknowledgedEpisode(
  episode: WarningEpisode,
  ack: Acknowledgement | null,
): WarningEpisode {
  return ack === null || episode.acknowledgedAt !== null
    ? episode
    : { ...episode, acknowledgedAt: ack.at, claimedStartAt: ack.claimedStartAt };
}

/** What the prober has seen, for `/healthz`. */
export interface ProberStats {
  readonly scope: "monitored" | "all" | "off";
  readonly rounds: number;
  readonly probes: number;
  readonly failedProbes: number;
  readonly lastRoundAt: EpochMs | null;
  /** Vendors with an open early warning after the last round this instance ran. */
  readonly suspected: number;
  /**
   * statusd's own network seems at fault (many unrelated vendors failing together): since
   * when, and how many of the vendors probed lately failed; null when not.
   */
  readonly localOutage: {
    readonly since: EpochMs;
    readonly failing: number;
    readonly probed: number;
  } | null;
}
