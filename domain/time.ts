/**
 * Time units. Inside domain/, store/ and ingest/ instants are epoch milliseconds.
 * @module
 */

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type EpochMs = number;

/** A source of the current time, passed in so tests can pin it. */
export interface Clock {
  now(): EpochMs;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests). */
export function fixedClock(
  start: EpochMs,
): Clock & { set(t: EpochMs): void; advance(ms: number): void } {
  let t = start;
  return { now: () => t, set: (v) => (t = v), advance: (ms) => (t += ms) };
}

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** ISO 8601 UTC text of an instant (null stays null). */
export function toIso(t: EpochMs): string;
export function toIso(t: EpochMs | null): string | null;
export function toIso(t: EpochMs | null): string | null {
  return t === null ? null : new Date(t).toISOString();
}

/** Start of the UTC day that holds `t`. */
export function utcDayStart(t: EpochMs): EpochMs {
  return Math.floor(t / DAY_MS) * DAY_MS;
}
