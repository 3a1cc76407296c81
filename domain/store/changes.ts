/**
 * `store.changes`: the durable change feed. Writers store changes in the same transaction as
 * the data they describe; after the commit the store tells its subscribers (in this process,
 * and on engines that can, in every process sharing the database).
 * @module
 */
import type { Change } from "../change.ts";

/** Told of committed changes, oldest first. */
export type ChangeListener = (changes: readonly Change[]) => void;

/** The changes noun of the store. */
export interface ChangeStore {
  /** Changes with an id greater than `afterId`, oldest first, at most `limit` (SSE resume). */
  after(afterId: number, limit: number): Promise<readonly Change[]>;
  /** Id of the newest stored change, 0 when none. */
  latestId(): Promise<number>;
  /** Id of the oldest change still stored (older ones were pruned), 0 when none. */
  oldestId(): Promise<number>;
  /**
   * Calls `listener` with every batch committed from now on, each change once, in id order;
   * returns the unsubscribe function. A listener that throws never breaks the writer (nor the
   * other listeners).
   */
  subscribe(listener: ChangeListener): () => void;
}
