/**
 * `store.retention`: deletes what is older than the windows statusd reports (domain
 * RETENTION). Every method deletes at most one chunk and answers how many rows went (0 when
 * nothing older is left), so the job can yield between chunks.
 * @module
 */
import type { EpochMs } from "../time.ts";

/** Rows deleted per call, by default. */
export const PRUNE_CHUNK = 2_000;

/** The retention noun of the store. */
export interface RetentionStore {
  /** Deletes fetch-log rows older than `before`. */
  pruneFetchLog(before: EpochMs, chunk?: number): Promise<number>;
  /** Deletes latency-summary rows of UTC days before the day of `before`. */
  pruneLatencyDays(before: EpochMs, chunk?: number): Promise<number>;
  /** Deletes change-feed rows older than `before`, and the oldest beyond the newest `keepRows`. */
  pruneChangeFeed(before: EpochMs, keepRows: number, chunk?: number): Promise<number>;
  /** Deletes incidents closed before `before`, with their timelines. */
  pruneClosedIncidents(before: EpochMs, chunk?: number): Promise<number>;
  /** Deletes components removed from their page before `before`, with their transitions. */
  pruneRemovedComponents(before: EpochMs, chunk?: number): Promise<number>;
  /** Deletes component-level transitions older than `before`. */
  pruneComponentTransitions(before: EpochMs, chunk?: number): Promise<number>;
  /** Ids of every vendor (catalog or not): service transitions are pruned per vendor. */
  vendorIds(): Promise<readonly number[]>;
  /**
   * Deletes one vendor's service-level transitions no report can need at `before`: those older
   * than the last recovery (to OPERATIONAL or UNDER_MAINTENANCE) at or before `before`, so an
   * outage spanning it keeps its start; nothing before `hardBefore` is kept but the transition
   * giving the level held then.
   */
  pruneServiceTransitions(
    vendorId: number,
    before: EpochMs,
    hardBefore: EpochMs,
    chunk?: number,
  ): Promise<number>;
}
