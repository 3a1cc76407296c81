/**
 * Status levels and counts as English (alerts, pages): "has a major outage", never
 * "is major outage" or `MAJOR_OUTAGE`; "1 incident", "2 incidents".
 * @module
 */
import type { StatusLevel } from "./status.ts";

const NOUNS: Readonly<Record<StatusLevel, string>> = {
  OPERATIONAL: "operational",
  DEGRADED_PERFORMANCE: "degraded performance",
  PARTIAL_OUTAGE: "partial outage",
  MAJOR_OUTAGE: "major outage",
  UNDER_MAINTENANCE: "under maintenance",
  UNKNOWN: "no data",
};

const PHRASES: Readonly<Record<StatusLevel, string>> = {
  OPERATIONAL: "is operational",
  DEGRADED_PERFORMANCE: "has degraded performance",
  PARTIAL_OUTAGE: "has a partial outage",
  MAJOR_OUTAGE: "has a major outage",
  UNDER_MAINTENANCE: "is under maintenance",
  UNKNOWN: "cannot be read",
};

/** A level as a noun phrase: "major outage", "degraded performance", "no data". */
export function levelNoun(level: StatusLevel): string {
  return NOUNS[level];
}

/** What a subject has at a level, after its name: "has a major outage", "is operational". */
export function levelPhrase(level: StatusLevel): string {
  return PHRASES[level];
}

/** `n` and the noun, plural when `n` is not 1: "1 incident", "12 incidents". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? noun : plural}`;
}

/** Incidents of one impact a time-to-resolve figure needs before alerts quote it. */
export const MIN_RESOLUTION_SAMPLE = 5;

/** Components an alert lists at most (the total is always stated). */
export const ALERT_COMPONENTS_SHOWN = 50;
