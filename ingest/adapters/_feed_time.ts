/**
 * Timestamp forms the feed and incident-API adapters meet (FORMATS §13), parsed to epoch ms.
 * Every function returns null for text it does not recognise; callers decide what that means.
 * @module
 */
import { z } from "zod";
import { DAY_MS, type EpochMs, MINUTE_MS } from "../../domain/mod.ts";

/** Offsets (minutes east of UTC) of the zone names status pages print. Ambiguous ones (IST) are absent. */
export const ZONE_OFFSETS: Readonly<Record<string, number>> = {
  Z: 0,
  UT: 0,
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  BRT: -180,
  SGT: 480,
  AWST: 480,
  JST: 540,
  KST: 540,
  ACST: 570,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

const MONTHS: Readonly<Record<string, number>> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** Offset in minutes of a zone written as a name (`PDT`) or a number (`-0500`, `+05:30`); null if unknown. */
export function zoneOffset(zone: string): number | null {
  const numeric = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3]);
    return numeric[1] === "-" ? -minutes : minutes;
  }
  // `GMT+0`, `UTC+1`, `GMT-05:00`, `UTC+05:30`: a named zone with an offset from it.
  const relative = /^(?:UTC|GMT)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(zone);
  if (relative) {
    const minutes = Number(relative[2]) * 60 + Number(relative[3] ?? 0);
    return minutes > 14 * 60 ? null : relative[1] === "-" ? -minutes : minutes;
  }
  return ZONE_OFFSETS[zone.toUpperCase()] ?? null;
}

/** Month index (0-11) of an English month name or its first three letters; null otherwise. */
export function monthIndex(name: string): number | null {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? null;
}

/** ISO 8601 with a zone (`Z`, `+00:00`, `-07:00`, with or without ms); null for anything else. */
export function parseIso(text: string): EpochMs | null {
  const s = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : t;
}

/** RFC 822/1123 dates as feeds write them (`Mon, 12 Nov 2018 16:25:40 Z`, `… PST`, `… -0500`). */
export function parseRfc822(text: string): EpochMs | null {
  const m =
    /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(\S+)?$/
      .exec(text.trim());
  if (!m) return null;
  const month = monthIndex(m[2]!);
  const offset = zoneOffset(m[7] ?? "GMT");
  if (month === null || offset === null) return null;
  let year = Number(m[3]);
  if (year < 100) year += year < 70 ? 2000 : 1900;
  const local = Date.UTC(year, month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return local - offset * MINUTE_MS;
}

/** Any absolute form a feed uses: ISO 8601 (Atom) or RFC 822 (RSS). */
export function parseFeedDate(text: string): EpochMs | null {
  return parseIso(text) ?? parseRfc822(text);
}

/** Epoch seconds or milliseconds (number or digit string) → ms; values below 1e12 are seconds. */
export function parseEpoch(value: string | number): EpochMs | null {
  const n = typeof value === "number" ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  return n < 1e12 ? n * 1000 : n;
}

/** A wall-clock reading without a year: month, day, hour, minute and the zone's offset. */
export interface WallClock {
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** Seconds, when printed. */
  readonly second?: number;
  readonly year: number | null;
  readonly offsetMinutes: number;
}

/** The instant of `wall`; a missing year is the one putting it closest to `reference`. */
export function resolveWallClock(wall: WallClock, reference: EpochMs): EpochMs {
  const at = (year: number) =>
    Date.UTC(year, wall.month, wall.day, wall.hour, wall.minute, wall.second ?? 0) -
    wall.offsetMinutes * MINUTE_MS;
  if (wall.year !== null) return at(wall.year);
  const refYear = new Date(reference).getUTCFullYear();
  let best = at(refYear);
  for (const year of [refYear - 1, refYear + 1]) {
    const t = at(year);
    if (Math.abs(t - reference) < Math.abs(best - reference)) best = t;
  }
  return best;
}

/** `h:mm AM/PM` (12-hour clock) → minutes after midnight; null if not that form. */
export function minutesOf12h(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})\s*([AaPp])[Mm]$/.exec(text.trim());
  if (!m) return null;
  const hour = Number(m[1]) % 12 + (m[3]!.toLowerCase() === "p" ? 12 : 0);
  return hour * 60 + Number(m[2]);
}

/**
 * The first instant at or after `notBefore` whose local time of day (at `offsetMinutes`) is
 * `minutesOfDay`: anchors a time-only reading to a running timeline.
 */
export function nextTimeOfDay(
  notBefore: EpochMs,
  minutesOfDay: number,
  offsetMinutes: number,
): EpochMs {
  const localStart = Math.floor((notBefore + offsetMinutes * MINUTE_MS) / DAY_MS) * DAY_MS;
  let t = localStart + minutesOfDay * MINUTE_MS - offsetMinutes * MINUTE_MS;
  // allow the reading to fall in the same minute as notBefore (seconds are not printed)
  if (t < notBefore - MINUTE_MS) t += DAY_MS;
  return t;
}

/** zod string → epoch ms through {@link parseIso}; a non-ISO value is a schema issue. */
export const isoInstant = z.string().transform((s, ctx) => {
  const t = parseIso(s);
  if (t === null) {
    ctx.addIssue({ code: "custom", message: `not an ISO 8601 instant: "${s}"` });
    return z.NEVER;
  }
  return t;
});
