/**
 * SLA maths: latency percentiles and breaches of an uptime target (per UTC day and per
 * rolling window). Pure; uptime itself comes from `uptime.ts`.
 * @module
 */
import type { StatusLevel } from "./status.ts";
import { DAY_MS, type EpochMs, utcDayStart } from "./time.ts";
import { type StatusTransition, type TimeWindow, uptimePercent } from "./uptime.ts";

/** Length of the rolling windows checked for breaches, in days. */
export const SLA_ROLLING_DAYS = 7;

/**
 * The `p`-th percentile (0 < p ≤ 100) by the nearest-rank method: the smallest value with at
 * least `p` % of the values at or below it. Null for no values.
 * Example: `[10, 20, 30, 40]` → p50 = 20, p95 = 40.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** p50/p95/p99 of a set of latencies (ms) and how many there were. */
export interface LatencySummary {
  readonly samples: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
}

/** Summarises latencies in milliseconds. */
export function latencySummary(latenciesMs: readonly number[]): LatencySummary {
  return {
    samples: latenciesMs.length,
    p50: percentile(latenciesMs, 50),
    p95: percentile(latenciesMs, 95),
    p99: percentile(latenciesMs, 99),
  };
}

/** An incident as far as breach attribution needs it. */
export interface IncidentSpan {
  readonly id: string;
  readonly startedAt: EpochMs;
  /** Null while unresolved. */
  readonly resolvedAt: EpochMs | null;
}

/** A window whose uptime fell below the target, with the incidents that overlapped it. */
export interface Breach {
  /** `day`: one UTC day (clipped to the report window); `rolling`: the N days ending at `end`. */
  readonly kind: "day" | "rolling";
  readonly start: EpochMs;
  readonly end: EpochMs;
  /** Uptime percent of the window (unrounded). */
  readonly uptimePercent: number;
  /** Ids of incidents that were open at some moment of the window. */
  readonly incidentIds: string[];
}

/** Incidents open at some moment of `window` (started before its end, not resolved before its start). */
export function incidentsDuring<T extends IncidentSpan>(
  incidents: readonly T[],
  window: TimeWindow,
): T[] {
  return incidents.filter((i) =>
    i.startedAt < window.end && (i.resolvedAt === null || i.resolvedAt > window.start)
  );
}

/**
 * Breaches of `targetPercent` within `report`: every UTC day overlapping the report (clipped to
 * it) and every rolling window of `rollingDays` days ending at a UTC midnight inside the report
 * or at its end, whose uptime is below the target. Windows with nothing observed are not
 * breaches. Rolling windows reach back before the report, so pass transitions from
 * `report.start − rollingDays` on. Oldest first; days before rolling windows ending together.
 */
export function findBreaches(
  transitions: readonly StatusTransition[],
  incidents: readonly IncidentSpan[],
  report: TimeWindow,
  targetPercent: number,
  options: { rollingDays?: number; otherwise?: StatusLevel } = {},
): Breach[] {
  const rollingMs = (options.rollingDays ?? SLA_ROLLING_DAYS) * DAY_MS;
  const out: Breach[] = [];
  const check = (kind: Breach["kind"], window: TimeWindow) => {
    const pct = uptimePercent(transitions, window, options.otherwise);
    if (pct !== null && pct < targetPercent) {
      out.push({
        kind,
        ...window,
        uptimePercent: pct,
        incidentIds: incidentsDuring(incidents, window).map((i) => i.id),
      });
    }
  };
  for (let day = utcDayStart(report.start); day < report.end; day += DAY_MS) {
    const end = Math.min(day + DAY_MS, report.end);
    check("day", { start: Math.max(day, report.start), end });
    check("rolling", { start: end - rollingMs, end });
  }
  return out;
}
