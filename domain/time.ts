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

/** The earliest instant an RFC 3339 date-time can write: 0000-01-01T00:00:00.000Z. */
export const MIN_ISO_MS: EpochMs = -62_167_219_200_000;
/** The latest instant an RFC 3339 date-time can write: 9999-12-31T23:59:59.999Z. */
export const MAX_ISO_MS: EpochMs = 253_402_300_799_999;

/**
 * ISO 8601 UTC text of an instant (null stays null). Total, so no stored value can make a read
 * throw: an instant outside years 0000–9999 (a bad row written before timestamps were checked)
 * is clamped to the nearest end, and anything that is not a finite number reads as the epoch.
 */
export function toIso(t: EpochMs): string;
export function toIso(t: EpochMs | null): string | null;
export function toIso(t: EpochMs | null): string | null {
  if (t === null) return null;
  const n = typeof t === "number" && Number.isFinite(t) ? t : 0;
  return new Date(Math.min(MAX_ISO_MS, Math.max(MIN_ISO_MS, n))).toISOString();
}

/** Start of the UTC day that holds `t`. */
export function utcDayStart(t: EpochMs): EpochMs {
  return Math.floor(t / DAY_MS) * DAY_MS;
}
