/**
 * `store.polls`: the poller's side of the store: which vendors are due, and the outcome of
 * each poll (fetch log row, validators, failures and backoff, next poll time, staleness), each
 * written in one transaction. `ingest/poller.ts` uses it without importing `store/`.
 * @module
 */
import type { Change } from "../change.ts";
import type { ReadingErrorKind } from "../reading.ts";
import type { Platform, Snapshot } from "../service.ts";
import type { StatusLevel } from "../status.ts";
import type { EpochMs } from "../time.ts";
import type { VanishedIncident } from "../vanished_incidents.ts";

/** The most open incidents {@link PollStore.openIncidents} returns for one vendor. */
export const OPEN_INCIDENTS_MAX = 200;

/** How one fetch of a vendor's status endpoint went, as the fetch log keeps it. */
export type PollOutcome = "ok" | "not_modified" | ReadingErrorKind;

/** A vendor the store says is due. */
export interface DueVendor {
  readonly id: number;
  readonly slug: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly detectedPlatform: Platform | null;
  /** The data endpoint found in the status page (adapters with discovery), or null. */
  readonly endpointUrl: string | null;
  readonly currentStatus: StatusLevel;
  readonly hasOpenIncident: boolean;
  readonly lastChangedAt: EpochMs | null;
  readonly lastSuccessAt: EpochMs | null;
  readonly failures: number;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly nextPollAt: EpochMs;
  /** Latest acceptable start of this poll; 0 when none was promised yet. */
  readonly deadlineAt: EpochMs;
  /** Consecutive platform misses (domain/reading.ts `isPlatformMiss`) since the last success. */
  readonly platformMisses: number;
  /** Last time the platform was detected again after repeated misses, or null. */
  readonly redetectedAt: EpochMs | null;
  /**
   * The pulse fingerprint the last successful full read went with (null: no pulse
   * preceded it) and when that read was (null: never). Stored so that whichever instance polls
   * the vendor next, or this one after a restart, compares its pulse with it.
   */
  readonly pulseFingerprint: string | null;
  readonly lastFullAt: EpochMs | null;
}

/** Fields every recorded poll carries. */
export interface PollRecord {
  readonly at: EpochMs;
  readonly latencyMs: number;
  readonly httpStatus: number | null;
  readonly nextPollAt: EpochMs;
  readonly deadlineAt: EpochMs;
}

/**
 * A full read that succeeded (a document, or a 304): the pulse fingerprint it went with, kept
 * with the vendor as its `pulseFingerprint`, and its time as `lastFullAt`. Absent or null: none.
 */
export interface FullReadRecord extends PollRecord {
  readonly pulseFingerprint?: string | null;
}

/** A successful reading's poll facts. */
export interface SuccessRecord extends FullReadRecord {
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** What this reading left out and why (dropped items, capped lists), newest reading only. */
  readonly notes: readonly string[];
}

/** A failed poll's facts. */
export interface FailureRecord extends PollRecord {
  /** The error kind. */
  readonly outcome: ReadingErrorKind;
  /** A short message (cut to `READING_MESSAGE_MAX`). */
  readonly detail: string;
  /** The data went stale (ingest/schedule.ts `isStale`): the service reads UNKNOWN. */
  readonly stale: boolean;
  /** Counts toward re-detection (a 404 on the platform's endpoint, a payload of another shape). */
  readonly platformMiss: boolean;
}

/** The poller's port (implemented by every store, used by `ingest/poller.ts`). */
export interface PollStore {
  /**
   * Claims up to `limit` catalog vendors due at `now` for this instance to poll: those a poll
   * promised a deadline to first, then those without one (never read, or waiting after a
   * skip), each most overdue first. A promise made is kept before new work is taken on, so a
   * fresh start or a catalog that grows never makes the vendors already watched late. On
   * PostgreSQL each is leased to the instance (the others skip it until its poll is recorded or
   * the lease ends); on SQLite one process owns the database, so the lease is implicit and
   * claiming is reading.
   */
  claimDue(now: EpochMs, limit: number): Promise<readonly DueVendor[]>;
  /** How many catalog vendors are due at `now`. */
  countDue(now: EpochMs): Promise<number>;
  /**
   * When the first catalog vendor a poll promised a deadline to is due next (its `nextPollAt`,
   * perhaps past), or null when none has a promise: the poller keeps places for those polls.
   */
  nextPromisedAt(): Promise<EpochMs | null>;
  /**
   * Stores a reading (domain/reading_diff.ts decides what changed), clears the error, keeps
   * validators and notes, schedules the next poll and logs the fetch, in one transaction; the
   * committed changes (with ids) are returned and published to `store.changes` subscribers.
   */
  recordSuccess(
    vendorId: number,
    snapshot: Snapshot,
    poll: SuccessRecord,
  ): Promise<readonly Change[]>;
  /** The document did not change: a success that keeps the stored reading and its notes. */
  recordNotModified(vendorId: number, poll: FullReadRecord): Promise<void>;
  /**
   * A pulse said the page did not change: a success like `recordNotModified`, whose
   * latency is counted in the day's latency summary but which adds no fetch-log row (pulses
   * would multiply the log; it keeps full reads and failures).
   */
  recordPulse(vendorId: number, poll: PollRecord): Promise<void>;
  /**
   * A failed poll: stores the error (its start kept while the same kind and HTTP status
   * repeat), counts platform misses, schedules the retry, logs the fetch and, when `stale`,
   * marks the service UNKNOWN (domain `staleReading`) and forgets the validators. Committed
   * changes are returned and published.
   */
  recordFailure(vendorId: number, poll: FailureRecord): Promise<readonly Change[]>;
  /** The vendor has no adapter for its platform: `reason` says so; polled again at `nextPollAt`. */
  recordSkipped(vendorId: number, nextPollAt: EpochMs, reason: string): Promise<void>;
  /** Stores the platform detected for a vendor listed as `unknown`. */
  setDetectedPlatform(vendorId: number, platform: Platform): Promise<void>;
  /**
   * The platform was detected again after repeated misses: `to` is what was found (`unknown`
   * when nothing matched: the vendor keeps being read as `from`). Resets the miss count; a
   * new platform also forgets the discovered endpoint and the validators.
   */
  recordRedetection(
    vendorId: number,
    redetection: { at: EpochMs; from: Platform; to: Platform },
  ): Promise<void>;
  /** Stores (or, with null, forgets) the data endpoint discovered for a vendor. */
  setEndpoint(vendorId: number, endpointUrl: string | null): Promise<void>;
  /**
   * The vendor's stored incidents that are open and not planned maintenance, oldest first (at
   * most {@link OPEN_INCIDENTS_MAX}): what the poller settles against a history document when
   * a reading of open incidents only stops listing some (domain/vanished_incidents.ts).
   */
  openIncidents(vendorId: number): Promise<readonly VanishedIncident[]>;
}
