/**
 * A vendor's typical time to resolve over the report window (shared by `getService` and the
 * track-record verbs).
 * @module
 */
import {
  DAY_MS,
  type EpochMs,
  REPORT_DAYS,
  type ResolvedSpan,
  type TimeToResolve,
  timeToResolve,
} from "../domain/mod.ts";

/** Incidents resolved at or after this instant count toward the figures at `now`. */
export function resolutionWindowStart(now: EpochMs): EpochMs {
  return now - REPORT_DAYS * DAY_MS;
}

/** p50/p90 time to resolve of `resolved` (the incidents resolved in the last 90 days at `now`). */
export function timeToResolveOf(resolved: readonly ResolvedSpan[], now: EpochMs): TimeToResolve {
  return timeToResolve(
    resolved,
    // Up to any time: a resolution the vendor dated a little ahead of our clock still counts.
    { start: resolutionWindowStart(now), end: Number.POSITIVE_INFINITY },
    REPORT_DAYS,
  );
}
