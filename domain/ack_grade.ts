/**
 * How quickly a vendor admits trouble statusd saw itself: the average acknowledgement delay of
 * its finished episodes over a rolling 90 days and a grade from A to F (the thresholds
 * StatusGator publishes for its Status Page Accuracy Grade): A under 15 min, B 15–30 min,
 * C 30 min–2 h, D 2–4 h, F over 4 h; an episode never acknowledged counts 240 min.
 * @module
 */
import { DAY_MS, type EpochMs, MINUTE_MS } from "./time.ts";

/** The window a grade covers. */
export const GRADE_WINDOW_DAYS = 90;
/** Fewer finished episodes than this in the window: "not enough data", no grade. */
export const GRADE_MIN_EPISODES = 3;

/** The grades, best first. */
export const GRADES = ["A", "B", "C", "D", "F"] as const;
export type Grade = (typeof GRADES)[number];

/** One finished episode as the grade reads it. */
export interface GradedEpisode {
  readonly firstEvidenceAt: EpochMs;
  /** Final delay (ms): 0 when the vendor was first, 240 min when it never acknowledged. */
  readonly delayMs: number;
  readonly acknowledged: boolean;
}

/** A vendor's acknowledgement record over the window. */
export interface AckRecord {
  readonly windowDays: number;
  /** Finished episodes whose first evidence is in the window. */
  readonly episodes: number;
  /** Of them, never acknowledged by the vendor. */
  readonly unacknowledged: number;
  /** Of them, acknowledged by the vendor before statusd saw anything (delay 0). */
  readonly vendorFirst: number;
  /** Average delay in minutes (one decimal); null without episodes. */
  readonly averageDelayMinutes: number | null;
  /** Null below {@link GRADE_MIN_EPISODES} episodes. */
  readonly grade: Grade | null;
  /** Why there is no grade, in words; null when there is one. */
  readonly gradeNote: string | null;
}

/** The grade of an average delay in minutes. */
export function gradeOf(averageMinutes: number): Grade {
  if (averageMinutes < 15) return "A";
  if (averageMinutes <= 30) return "B";
  if (averageMinutes <= 120) return "C";
  if (averageMinutes <= 240) return "D";
  return "F";
}

/** The record of the episodes that started in the {@link GRADE_WINDOW_DAYS} before `now`. */
export function ackRecordOf(episodes: readonly GradedEpisode[], now: EpochMs): AckRecord {
  const since = now - GRADE_WINDOW_DAYS * DAY_MS;
  const inWindow = episodes.filter((e) => e.firstEvidenceAt >= since && e.firstEvidenceAt <= now);
  const n = inWindow.length;
  const average = n === 0
    ? null
    : Math.round(inWindow.reduce((s, e) => s + e.delayMs, 0) / n / MINUTE_MS * 10) / 10;
  const enough = n >= GRADE_MIN_EPISODES;
  return {
    windowDays: GRADE_WINDOW_DAYS,
    episodes: n,
    unacknowledged: inWindow.filter((e) => !e.acknowledged).length,
    vendorFirst: inWindow.filter((e) => e.acknowledged && e.delayMs === 0).length,
    averageDelayMinutes: average,
    grade: enough && average !== null ? gradeOf(average) : null,
    gradeNote: enough
      ? null
      : `not enough data: ${n} of the ${GRADE_MIN_EPISODES} episodes a grade needs in ${GRADE_WINDOW_DAYS} days`,
  };
}
