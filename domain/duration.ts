/**
 * Short durations as people type them (`90m`, `2h`, `7d`), shared by the API's `within`
 * parameter and the CLI's `--within` flag so both read the same words.
 * @module
 */
import { DAY_MS, HOUR_MS, MINUTE_MS } from "./time.ts";

/** Longest window a `within` may ask for (90 days). */
export const WITHIN_MAX_MS = 90 * DAY_MS;

const UNIT_MS: Readonly<Record<string, number>> = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/**
 * Milliseconds of a duration written `<whole number><m|h|d>` (minutes, hours, days), from 0 up
 * to {@link WITHIN_MAX_MS}; null for anything else.
 * @example parseDuration("2h") // → 7_200_000
 */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})([mhd])$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms <= WITHIN_MAX_MS ? ms : null;
}

/**
 * A length of time in minutes as people read it: `under 1 min`, `38 min`,
 * `2 h 10 min`, `3 d 4 h` (rounded to the minute below a day, to the hour above).
 * @example formatMinutes(130) // → "2 h 10 min"
 */
export function formatMinutes(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes < 0.5) return "under 1 min";
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  if (total < 24 * 60) {
    const h = Math.floor(total / 60);
    const m = total % 60;
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  const hours = Math.round(minutes / 60);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  return h === 0 ? `${d} d` : `${d} d ${h} h`;
}
