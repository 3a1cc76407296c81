/**
 * Uptime, MTTR and daily worst status, computed from a service's status transitions
 * (DESIGN §4). Pure: callers pass the transitions and the window; nothing reads a clock.
 *
 * The model: a service holds one level at a time; a transition `{at, from, to}` changes it at
 * instant `at`. Before its first transition a service holds that transition's `from` (usually
 * `UNKNOWN`: not yet observed). Windows are half-open, `[start, end)`, in epoch milliseconds.
 * @module
 */
import { type StatusLevel, worst } from "./status.ts";
import { DAY_MS, type EpochMs, MINUTE_MS, utcDayStart } from "./time.ts";
import { formatMinutes } from "./duration.ts";

/** One change of a service's level. */
export interface StatusTransition {
  readonly at: EpochMs;
  readonly from: StatusLevel;
  readonly to: StatusLevel;
}

/** A half-open time range `[start, end)`. */
export interface TimeWindow {
  readonly start: EpochMs;
  readonly end: EpochMs;
}

/** A stretch of time `[start, end)` with one level. */
export interface Segment extends TimeWindow {
  readonly status: StatusLevel;
}

/**
 * Share of a level's time counted as down: `MAJOR_OUTAGE` 1, `PARTIAL_OUTAGE` 0.3,
 * degraded and maintenance 0 (up), `UNKNOWN` null (left out of the denominator).
 */
export const DOWN_SHARE: Readonly<Record<StatusLevel, number | null>> = {
  OPERATIONAL: 0,
  UNDER_MAINTENANCE: 0,
  DEGRADED_PERFORMANCE: 0,
  PARTIAL_OUTAGE: 0.3,
  MAJOR_OUTAGE: 1,
  UNKNOWN: null,
};

/** Levels that make a service "non-operational" for MTTR (maintenance is planned, not counted). */
const DISRUPTED: ReadonlySet<StatusLevel> = new Set([
  "DEGRADED_PERFORMANCE",
  "PARTIAL_OUTAGE",
  "MAJOR_OUTAGE",
]);

/**
 * Levels that end a disruption: the service is working again (or in planned maintenance).
 * Stores reach back to the last transition to one of these for MTTR and retention.
 */
export const RECOVERED_LEVELS: readonly StatusLevel[] = ["OPERATIONAL", "UNDER_MAINTENANCE"];
const RECOVERED: ReadonlySet<StatusLevel> = new Set(RECOVERED_LEVELS);

function sorted(transitions: readonly StatusTransition[]): StatusTransition[] {
  return [...transitions].sort((a, b) => a.at - b.at);
}

/**
 * The level held at each moment of `window`, as consecutive segments covering it exactly.
 * `transitions` may include ones before the window (the last of them gives the starting
 * level); with no transition at all the whole window holds `otherwise` (default `UNKNOWN`).
 */
export function segmentsIn(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
  otherwise: StatusLevel = "UNKNOWN",
): Segment[] {
  if (window.end <= window.start) return [];
  const ts = sorted(transitions);
  let level: StatusLevel = ts.length ? ts[0]!.from : otherwise;
  let i = 0;
  while (i < ts.length && ts[i]!.at <= window.start) level = ts[i++]!.to;
  const out: Segment[] = [];
  let cursor = window.start;
  for (; i < ts.length && ts[i]!.at < window.end; i++) {
    const t = ts[i]!;
    if (t.at > cursor) out.push({ start: cursor, end: t.at, status: level });
    cursor = Math.max(cursor, t.at);
    level = t.to;
  }
  out.push({ start: cursor, end: window.end, status: level });
  return out;
}

/** Observed and down milliseconds of `window` (down weighted by {@link DOWN_SHARE}). */
export function downtime(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
  otherwise?: StatusLevel,
): { observedMs: number; downMs: number } {
  let observedMs = 0;
  let downMs = 0;
  for (const s of segmentsIn(transitions, window, otherwise)) {
    const share = DOWN_SHARE[s.status];
    if (share === null) continue;
    observedMs += s.end - s.start;
    downMs += share * (s.end - s.start);
  }
  return { observedMs, downMs };
}

/**
 * Uptime percent over `window`: `100 × (1 − down / observed)`, where `MAJOR_OUTAGE` time is
 * down, `PARTIAL_OUTAGE` time counts 30 % down, degraded and maintenance time count as up, and
 * `UNKNOWN` time is left out of both. Null when nothing was observed in the window.
 * Example: 1 day with 1 h of MAJOR_OUTAGE and 10 h UNKNOWN → 100 × (1 − 1/14) ≈ 92.857.
 */
export function uptimePercent(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
  otherwise?: StatusLevel,
): number | null {
  return percentUp(downtime(transitions, window, otherwise));
}

/** {@link uptimePercent} of a window's {@link downtime}, for a caller that needs both. */
export function percentUp(d: { observedMs: number; downMs: number }): number | null {
  return d.observedMs === 0 ? null : 100 * (1 - d.downMs / d.observedMs);
}

/** A disruption: from entering a degraded-or-worse level until back to operational/maintenance. */
export interface Episode {
  readonly start: EpochMs;
  /** Recovery instant, or null while still disrupted. */
  readonly end: EpochMs | null;
}

/**
 * Disruption episodes in `transitions` (all of them, oldest first). An episode starts at the
 * first transition into `DEGRADED_PERFORMANCE`, `PARTIAL_OUTAGE` or `MAJOR_OUTAGE` from a
 * level that is none of these, and ends at the first later transition into `OPERATIONAL` or
 * `UNDER_MAINTENANCE`. Moves between disrupted levels, and `UNKNOWN` stretches inside an
 * episode, neither end nor restart it. Maintenance alone is never an episode.
 */
export function episodes(transitions: readonly StatusTransition[]): Episode[] {
  const out: Episode[] = [];
  let open: EpochMs | null = null;
  const ts = sorted(transitions);
  if (ts.length && DISRUPTED.has(ts[0]!.from)) open = -Infinity;
  for (const t of ts) {
    if (open === null && DISRUPTED.has(t.to)) open = t.at;
    else if (open !== null && RECOVERED.has(t.to)) {
      out.push({ start: open, end: t.at });
      open = null;
    }
  }
  if (open !== null) out.push({ start: open, end: null });
  return out.filter((e) => Number.isFinite(e.start));
}

/**
 * Mean time to recovery in minutes: the mean length (start to recovery, wall clock) of the
 * disruption episodes ({@link episodes}) whose recovery falls inside `window`. Episodes that
 * began before the window count in full, so pass transitions back to the last recovery
 * before `window.start`. Null when no episode ended in the window.
 */
export function mttrMinutes(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
): number | null {
  const ended = episodes(transitions).filter((e) =>
    e.end !== null && e.end >= window.start && e.end < window.end
  );
  if (ended.length === 0) return null;
  const total = ended.reduce((sum, e) => sum + (e.end! - e.start), 0);
  return total / ended.length / MINUTE_MS;
}

/** The worst level seen during one UTC day. */
export interface DayWorst {
  /** Start of the UTC day (00:00:00Z). */
  readonly day: EpochMs;
  /** Worst ranked level held at any moment of the observed part of the day; UNKNOWN if none. */
  readonly worstStatus: StatusLevel;
}

/**
 * Worst status per UTC day for the `days` days ending with the day that holds `now` (oldest
 * first; today counts up to `now`). A day with no observed time reads `UNKNOWN`.
 */
export function dailyWorst(
  transitions: readonly StatusTransition[],
  now: EpochMs,
  days: number,
  otherwise?: StatusLevel,
): DayWorst[] {
  const today = utcDayStart(now);
  const out: DayWorst[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const day = today - d * DAY_MS;
    const window = { start: day, end: Math.min(day + DAY_MS, now) };
    const levels = segmentsIn(transitions, window, otherwise).map((s) => s.status);
    out.push({ day, worstStatus: worst(levels) });
  }
  return out;
}

/**
 * The first instant of `window` with a known level (not `UNKNOWN`), or null when nothing in
 * the window was observed. Uptime over a window that starts earlier covers only the time from
 * here on (and not the UNKNOWN gaps after it).
 */
export function observedSince(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
  otherwise?: StatusLevel,
): EpochMs | null {
  const first = segmentsIn(transitions, window, otherwise).find((s) => s.status !== "UNKNOWN");
  return first?.start ?? null;
}

/** Share of `window` (percent, 1 decimal) with a known level. */
export function observedPercent(
  transitions: readonly StatusTransition[],
  window: TimeWindow,
  otherwise?: StatusLevel,
): number {
  const length = window.end - window.start;
  if (length <= 0) return 0;
  const { observedMs } = downtime(transitions, window, otherwise);
  return Math.round((observedMs / length) * 1000) / 10;
}

/**
 * Time observed below which a window's uptime is no figure yet: a percentage of four minutes of
 * watching says nothing of a vendor, and an SLA is not met or missed in 42 seconds.
 */
export const MIN_OBSERVED_MS = DAY_MS;

/**
 * "not enough data yet (4 min observed)" when less than {@link MIN_OBSERVED_MS} of a window
 * was observed (what a surface says instead of a percentage or `met`); null when enough was.
 */
export function notEnoughData(observedMs: number): string | null {
  if (observedMs >= MIN_OBSERVED_MS) return null;
  if (observedMs <= 0) return "not enough data yet (nothing observed)";
  const minutes = Math.floor(observedMs / MINUTE_MS);
  return `not enough data yet (${
    minutes === 0 ? "under a minute" : formatMinutes(minutes)
  } observed)`;
}

/** True when (almost: 99 %) the whole window of `windowDays` was observed. */
export function coversWindow(observedMs: number, windowDays: number): boolean {
  return observedMs >= windowDays * DAY_MS * 0.99;
}

/**
 * What an uptime figure over a window of `windowDays` covers, in words: `30-day` when (almost)
 * the whole window was observed, else `over the 3 h 10 min observed`. A figure from minutes of
 * watching must not read as a month's.
 */
export function uptimeSpanWords(observedMs: number, windowDays: number): string {
  if (coversWindow(observedMs, windowDays)) return `${windowDays}-day`;
  const minutes = Math.max(1, Math.round(observedMs / MINUTE_MS));
  return `over the ${formatMinutes(minutes)} observed`;
}
