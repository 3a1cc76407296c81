/**
 * The poller's port into the store: what it reads (due vendors) and writes (poll outcomes).
 * Declared here so `ingest/` and `store/` share one definition without importing each other.
 * @module
 */
import type { Change } from "./change.ts";
import type { ReadingErrorKind } from "./reading.ts";
import type { Platform, Snapshot } from "./service.ts";
import type { StatusLevel } from "./status.ts";
import type { EpochMs } from "./time.ts";

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
}

/** Fields every recorded poll carries. */
export interface PollRecord {
  readonly at: EpochMs;
  readonly latencyMs: number;
  readonly httpStatus: number | null;
  readonly nextPollAt: EpochMs;
  readonly deadlineAt: EpochMs;
}

/** The port the poller writes through (satisfied by `store/polls.ts`, used by `ingest/poller.ts`). */
export interface PollStore {
  dueVendors(now: EpochMs, limit: number): readonly DueVendor[];
  countDue(now: EpochMs): number;
  recordSuccess(
    vendorId: number,
    snapshot: Snapshot,
    poll: PollRecord & {
      etag: string | null;
      lastModified: string | null;
      /** What this reading left out and why (dropped items, capped lists), newest reading only. */
      notes: readonly string[];
    },
  ): readonly Change[];
  recordNotModified(vendorId: number, poll: PollRecord): void;
  /**
   * A failed poll: `outcome` is the error kind, `detail` a short message. `platformMiss` counts
   * toward re-detection (a 404 on the platform's endpoint, a payload of another shape).
   */
  recordFailure(
    vendorId: number,
    poll: PollRecord & {
      outcome: ReadingErrorKind;
      detail: string;
      stale: boolean;
      platformMiss: boolean;
    },
  ): readonly Change[];
  /** The vendor has no adapter for its platform: `reason` says so; polled again at `nextPollAt`. */
  recordSkipped(vendorId: number, nextPollAt: EpochMs, reason: string): void;
  setDetectedPlatform(vendorId: number, platform: Platform): void;
  /**
   * The platform was detected again after repeated misses: `to` is what was found (`unknown`
   * when nothing matched: the vendor keeps being read as `from`). Resets the miss count; a
   * new platform also forgets the discovered endpoint and the validators.
   */
  recordRedetection(
    vendorId: number,
    redetection: { at: EpochMs; from: Platform; to: Platform },
  ): void;
  /** Stores (or, with null, forgets) the data endpoint discovered for a vendor. */
  setEndpoint(vendorId: number, endpointUrl: string | null): void;
}
