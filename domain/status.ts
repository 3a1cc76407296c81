/**
 * Status levels and their severity order.
 * @module
 */

/** Ranked levels, best to worst; the index is the severity. */
export const STATUS_LEVELS = [
  "OPERATIONAL",
  "UNDER_MAINTENANCE",
  "DEGRADED_PERFORMANCE",
  "PARTIAL_OUTAGE",
  "MAJOR_OUTAGE",
] as const;

/** A ranked level (everything but UNKNOWN). */
export type RankedLevel = (typeof STATUS_LEVELS)[number];

/** UNKNOWN = no fresh data (never read, or failing for longer than three intervals); unranked. */
export type StatusLevel = RankedLevel | "UNKNOWN";

/** Every value a status can take, ranked ones first, UNKNOWN last. */
export const ALL_STATUS_LEVELS: readonly StatusLevel[] = [...STATUS_LEVELS, "UNKNOWN"];

/** Severity index (0 = OPERATIONAL … 4 = MAJOR_OUTAGE), or undefined for UNKNOWN. */
export function severity(level: StatusLevel): number | undefined {
  const i = (STATUS_LEVELS as readonly string[]).indexOf(level);
  return i < 0 ? undefined : i;
}

/**
 * Worst ranked level among `levels`; UNKNOWN only when no ranked level is present
 * (an empty input is UNKNOWN too).
 */
export function worst(levels: Iterable<StatusLevel>): StatusLevel {
  let best = -1;
  for (const level of levels) {
    const s = severity(level);
    if (s !== undefined && s > best) best = s;
  }
  return best < 0 ? "UNKNOWN" : STATUS_LEVELS[best]!;
}

/** True when `level` is `threshold` or worse; UNKNOWN is never "at least" anything. */
export function isAtLeast(level: StatusLevel, threshold: RankedLevel): boolean {
  const s = severity(level);
  return s !== undefined && s >= severity(threshold)!;
}

/** True for any value of {@link ALL_STATUS_LEVELS}. */
export function isStatusLevel(value: string): value is StatusLevel {
  return (ALL_STATUS_LEVELS as readonly string[]).includes(value);
}
