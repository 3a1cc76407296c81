/**
 * What the poller reports about itself (`/healthz`, the benchmark): one type, declared here so
 * `ingest/` produces it and `routes/` shows it without importing each other.
 * @module
 */
import type { EpochMs } from "./time.ts";

/** Counters of a poller since it was created. */
export type PollerStats = {
  readonly running: boolean;
  readonly rounds: number;
  readonly polls: number;
  readonly ok: number;
  readonly notModified: number;
  /** Pulse documents fetched, and how many of them said the page changed. */
  readonly pulses: number;
  readonly pulseChanges: number;
  /** Body bytes received from vendors (pulses, full documents, discovery and detection). */
  readonly bytesReceived: number;
  /** Documents large enough to be parsed off the event loop (ingest/parse_worker.ts). */
  readonly offThreadParses: number;
  readonly failures: number;
  /** Failed polls per error kind (domain/reading.ts). */
  readonly failuresByReason: Readonly<Record<string, number>>;
  readonly changes: number;
  /** Polls that started after their deadline. */
  readonly missedDeadlines: number;
  /** When the last of those started, and how long after its deadline (ms); null before one. */
  readonly lastMissAt: EpochMs | null;
  readonly lastMissByMs: number | null;
  readonly inFlight: number;
  readonly queued: number;
  /** Vendors due at the last round that were not yet dispatched. */
  readonly dueBacklog: number;
  readonly lastRoundAt: EpochMs | null;
  /** Last poll any vendor answered (over HTTP, even with an error); null before the first. */
  readonly lastAnswerAt: EpochMs | null;
  /** Since when no vendor has answered; null while they answer. */
  readonly silentSince: EpochMs | null;
};
