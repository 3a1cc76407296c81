/**
 * Reading health in a few words for the tables: why statusd cannot read a vendor and since when.
 * @module
 */
import { errorWords } from "../../domain/reading.ts";
import type { Reading } from "./client.ts";
import { when } from "./table.ts";

/** `12:03` for an instant today (UTC), else `2026-11-20 12:03`. */
function shortTime(iso: string | null, now: Date): string {
  if (!iso) return "-";
  const full = when(iso);
  return full.slice(0, 10) === now.toISOString().slice(0, 10) ? full.slice(11) : full;
}

/**
 * What the STATUS column adds when statusd cannot read the vendor (nothing when it can):
 * `timeout since 12:03`, `HTTP 503 since 2026-11-20 09:41`, `unsupported: no machine-readable
 * status`, `not read yet`, `stale since 11:40`.
 */
export function readingNote(reading: Reading | undefined, now: Date): string | null {
  if (!reading) return null;
  switch (reading.state) {
    case "fresh":
      return null;
    case "failing":
      return reading.error
        ? `${errorWords(reading.error)} since ${shortTime(reading.error.since, now)}`
        : "failing";
    case "unsupported":
      return "unsupported: no machine-readable status";
    case "never_read":
      return "not read yet";
    case "stale":
      return `stale since ${shortTime(reading.lastSuccessAt, now)}`;
  }
}
