/**
 * The timestamp forms JSON status APIs publish (FORMATS.md §13), read into epoch milliseconds.
 * Each form is matched explicitly; nothing is left to `Date.parse` guessing a local zone.
 * @module
 */
import { z } from "zod";
import type { EpochMs } from "../../domain/mod.ts";

const MONTHS: Record<string, number> = {
  Jan: 1,
  Feb: 2,
  Mar: 3,
  Apr: 4,
  May: 5,
  Jun: 6,
  Jul: 7,
  Aug: 8,
  Sep: 9,
  Oct: 10,
  Nov: 11,
  Dec: 12,
};

/** ISO 8601 date-time with `Z` or a numeric offset; seconds and fraction optional. */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})$/;
/** `YYYY-MM-DD HH:MM:SS` with no zone (Cachet 2.x): read as UTC. */
const SQL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
/** `YYYY-MM-DD` (Statuspage `start_date`): midnight UTC. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** JavaScript `Date.prototype.toString()` (Instatus docs). */
const JS_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) (\d{1,2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT([+-]\d{4})(?: \(.*\))?$/;
/** Epoch seconds (10 digits or fewer) or milliseconds (13 digits) written as a string. */
const EPOCH = /^\d{1,13}$/;

/** Epoch values below this are seconds, at or above it milliseconds (1973 in ms, 5138 in s). */
const MS_THRESHOLD = 1e11;

function offsetMinutes(text: string): number {
  if (text === "Z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text)!;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === "-" ? -minutes : minutes;
}

/** Builds an instant from wall-clock fields, or null when a field is out of range. */
function fromFields(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  offsetMin: number,
): EpochMs | null {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d ||
    check.getUTCHours() !== h || check.getUTCMinutes() !== mi || check.getUTCSeconds() !== s
  ) return null;
  return wall - offsetMin * 60_000;
}

function fromEpoch(n: number): EpochMs | null {
  if (!Number.isFinite(n) || n < 0) return null;
  return n < MS_THRESHOLD ? Math.round(n * 1000) : Math.round(n);
}

/** Reads one timestamp in any form of FORMATS.md §13 used by JSON APIs; null if none matches. */
export function parseJsonTime(value: string | number): EpochMs | null {
  if (typeof value === "number") return fromEpoch(value);
  const text = value.trim();
  let m = ISO.exec(text);
  if (m) {
    const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
    return fromFields(
      +m[1]!,
      +m[2]!,
      +m[3]!,
      +m[4]!,
      +m[5]!,
      +(m[6] ?? 0),
      ms,
      offsetMinutes(m[8]!),
    );
  }
  m = SQL.exec(text);
  if (m) return fromFields(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!, 0, 0);
  m = DATE.exec(text);
  if (m) return fromFields(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0, 0, 0);
  m = JS_DATE.exec(text);
  if (m) {
    const month = MONTHS[m[1]!];
    if (month === undefined) return null;
    return fromFields(+m[3]!, month, +m[2]!, +m[4]!, +m[5]!, +m[6]!, 0, offsetMinutes(m[7]!));
  }
  if (EPOCH.test(text)) return fromEpoch(Number(text));
  return null;
}

/** zod: a string or number timestamp in a §13 form, read as epoch ms; anything else is an issue. */
export const jsonTime = z.union([z.string(), z.number()]).transform((value, ctx): EpochMs => {
  const t = parseJsonTime(value);
  if (t === null) {
    ctx.issues.push({
      code: "custom",
      message: `not a timestamp: ${JSON.stringify(value)}`,
      input: value,
    });
    return z.NEVER;
  }
  return t;
});
