/**
 * When a failed delivery is tried again and when it is given up: exponential
 * backoff from 30 s doubling to an hour, never sooner than the receiver's `Retry-After`, for at
 * least 24 hours; and when a route that keeps failing is paused. Pure.
 * @module
 */
import type { EpochMs } from "./time.ts";

/** First wait after a failed attempt. */
export const FIRST_RETRY_MS = 30_000;
/** Longest wait between attempts. */
export const MAX_RETRY_MS = 60 * 60_000;
/** How long a delivery is retried from when it was created. */
export const RETRY_FOR_MS = 24 * 60 * 60_000;
/** Deliveries failing in a row (given up or refused) that pause their route. */
export const PAUSE_AFTER_FAILURES = 5;
/**
 * Deliveries of one account in flight at once, across every instance: one account's hanging
 * destinations can hold no more of the worker's slots than this, whatever it queues.
 */
export const MAX_IN_FLIGHT_PER_ACCOUNT = 4;

/**
 * The next try after attempt `n` (1-based) failed at `at`, or null to give up: permanent
 * failures, and retries that would start more than {@link RETRY_FOR_MS} after `createdAt`.
 * `jitter` in [0, 1) spreads retries of many deliveries (±20 %).
 */
export function nextTry(
  n: number,
  at: EpochMs,
  createdAt: EpochMs,
  failure: { readonly permanent: boolean; readonly retryAfterMs: number | null },
  jitter: number,
): EpochMs | null {
  if (failure.permanent) return null;
  const backoff = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(n - 1, 20));
  const spread = backoff * (0.8 + 0.4 * jitter);
  const wait = Math.max(spread, failure.retryAfterMs ?? 0);
  const next = at + Math.round(wait);
  return next - createdAt > RETRY_FOR_MS ? null : next;
}
