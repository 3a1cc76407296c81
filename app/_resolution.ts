/**
 * A vendor's typical time to resolve over the report window (shared by `getService` and the
 * track-record verbs).
 * @module
 */
import { DAY_MS, REPORT_DAYS, type TimeToResolve, timeToResolve } from "../domain/mod.ts";
import { resolvedSince } from "../store/mod.ts";
import type { AppContext } from "./context.ts";

/** p50/p90 time to resolve of the vendor's incidents resolved in the last 90 days. */
export function timeToResolveOf(ctx: AppContext, vendorId: number): TimeToResolve {
  const now = ctx.clock.now();
  const start = now - REPORT_DAYS * DAY_MS;
  return timeToResolve(
    resolvedSince(ctx.db, vendorId, start),
    // Up to any time: a resolution the vendor dated a little ahead of our clock still counts.
    { start, end: Number.POSITIVE_INFINITY },
    REPORT_DAYS,
  );
}
