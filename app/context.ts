/**
 * What every verb receives: the store, the clock, the change feed and settings.
 * @module
 */
import type { Clock } from "../domain/mod.ts";
import type { ChangeFeed, Db } from "../store/mod.ts";
import type { Logger } from "../log.ts";

/** Settings verbs need (a slice of the config). */
export interface AppSettings {
  /** `{host_url}` without a trailing slash. */
  readonly publicUrl: string;
  /** Interval of calm vendors (s): staleness and "moving" rules read it. */
  readonly pollStableSeconds: number;
  /** Interval of moving vendors (s). */
  readonly pollMovingSeconds: number;
}

/** The context passed as the first argument to every verb. */
export interface AppContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly settings: AppSettings;
  readonly log: Logger;
}
