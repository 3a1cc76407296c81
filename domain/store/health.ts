/**
 * `store.health`: what `/healthz` reports, read together (and proof that the database answers).
 * @module
 */
import type { ReadingState } from "../reading.ts";
import type { EpochMs } from "../time.ts";
import type { PollOutcome } from "./polls.ts";

/** Row counts and the newest check time. */
export interface StoreCounts {
  readonly services: number;
  readonly components: number;
  readonly openIncidents: number;
  readonly transitions: number;
  readonly lastCheckedAt: EpochMs | null;
}

/** The health report's facts. */
export interface HealthFacts {
  readonly counts: StoreCounts;
  /** Polls per outcome since the instant asked for (outcomes with none left out). */
  readonly outcomes: Readonly<Partial<Record<PollOutcome, number>>>;
  /** Catalog services per reading state (every state present). */
  readonly readingStates: Readonly<Record<ReadingState, number>>;
}

/** The health noun of the store. */
export interface HealthStore {
  /** Counts, poll outcomes since `pollsSince` and reading states at `staleBefore`. */
  facts(pollsSince: EpochMs, staleBefore: EpochMs): Promise<HealthFacts>;
}
