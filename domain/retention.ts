/**
 * How much statusd keeps: per-vendor caps on what accumulates across readings, and how long
 * each kind of row lives. The longest window statusd reports is 90 days (history, uptime, SLA
 * reports), and an SLA report looks a rolling week further back for breaches; so status
 * transitions and closed incidents live 97 days, the latency summary (SLA latency) 90 days, and
 * the raw fetch log 14 days.
 * @module
 */
import { SLA_ROLLING_DAYS } from "./sla.ts";
import { DAY_MS, type EpochMs } from "./time.ts";

/** The longest report window, in days (history, uptime, SLA reports). */
export const REPORT_DAYS = 90;

/** Caps on what accumulates for one vendor across readings (the store enforces them as it writes). */
export const STORE_LIMITS = {
  /** Components gone from the page that are kept (the most recently removed). */
  removedComponentsPerVendor: 2_000,
  /** Incidents kept per vendor: every open one, then the most recently closed up to this total. */
  incidentsPerVendor: 500,
  /** Timeline entries kept per incident (the newest). */
  updatesPerIncident: 50,
  /** Status changes kept per component (the newest); reports read only service-level history. */
  transitionsPerComponent: 50,
} as const;

/** How long rows live (the retention job deletes older ones at start and every 15 minutes). */
export const RETENTION = {
  /** Status transitions, closed incidents (with their timelines), removed components. */
  historyDays: REPORT_DAYS + SLA_ROLLING_DAYS,
  /**
   * The fetch log (one row per full read or failed poll) is for looking into recent trouble;
   * SLA latency percentiles read the latency summary instead.
   */
  fetchLogDays: 14,
  /** The latency summary (per vendor and UTC day): the 90-day report window, whole days. */
  latencySummaryDays: REPORT_DAYS,
  /**
   * Service-level transitions are kept from the last recovery before the history cutoff, so
   * an outage spanning it keeps its start; but nothing older than this is kept except the one
   * transition that gives the level held then.
   */
  maxHistoryDays: 365,
  /** The change feed is for live subscribers resuming a stream: a week, at most this many rows. */
  changeFeedDays: 7,
  changeFeedRows: 250_000,
} as const;

/** The instants before which each kind of row is expired, at `now`. */
export interface RetentionCutoffs {
  readonly history: EpochMs;
  readonly maxHistory: EpochMs;
  readonly fetchLog: EpochMs;
  /** Latency-summary days before the day holding this instant are expired. */
  readonly latencySummary: EpochMs;
  readonly changeFeed: EpochMs;
}

/** The cutoffs of {@link RETENTION} at `now`. */
export function retentionCutoffs(now: EpochMs): RetentionCutoffs {
  return {
    history: now - RETENTION.historyDays * DAY_MS,
    maxHistory: now - RETENTION.maxHistoryDays * DAY_MS,
    fetchLog: now - RETENTION.fetchLogDays * DAY_MS,
    latencySummary: now - RETENTION.latencySummaryDays * DAY_MS,
    changeFeed: now - RETENTION.changeFeedDays * DAY_MS,
  };
}

/**
 * The first change-feed id that is kept: the first change at or after the feed's cutoff time
 * (`firstFresh`, null when none is), but never more than `keepRows` rows back from the newest.
 * Every id below it is expired.
 */
export function changeFeedCutoff(
  firstFresh: number | null,
  newest: number,
  keepRows: number,
): number {
  return Math.max(firstFresh ?? newest + 1, newest - keepRows + 1);
}

/** A service-level transition, as the retention anchor is chosen among them. */
export interface AnchorCandidate {
  readonly id: number;
  readonly at: EpochMs;
}

/**
 * Whether a vendor's service history is cut at its last recovery at or before the history cutoff
 * (`recovery`; so an outage spanning the cutoff keeps its start) — when that recovery is no
 * older than `hardBefore` — or else at the transition giving the level held at `hardBefore`
 * (a vendor that never recovers cannot keep everything). Everything before the anchor goes.
 */
export function keepsFromRecovery(
  recovery: AnchorCandidate | undefined,
  hardBefore: EpochMs,
): recovery is AnchorCandidate {
  return recovery !== undefined && recovery.at >= hardBefore;
}
