/**
 * `store.attempts`: counters of attempts per key in fixed windows (rate limits per client
 * address, failed sign-ins per email). Kept by the store so that instances sharing a database
 * share the limits; an engine used by one process may keep them in memory.
 * @module
 */
import type { AttemptRule } from "../attempts.ts";
import type { EpochMs } from "../time.ts";

/** The attempts noun of the store. */
export interface AttemptStore {
  /**
   * Counts one attempt by `key` under the limit named `scope` at `now`. Resolves 0 when allowed,
   * otherwise the ms until the key may try again (a refused attempt changes nothing).
   */
  take(scope: string, key: string, rule: AttemptRule, now: EpochMs): Promise<number>;
  /** Gives back one attempt `key` took in its current window (it did not count after all). */
  refund(scope: string, key: string, rule: AttemptRule, now: EpochMs): Promise<void>;
  /** Forgets windows that started before `before`; how many went. */
  prune(before: EpochMs): Promise<number>;
}
