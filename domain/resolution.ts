/**
 * A vendor's typical time to resolve: the median (p50) and p90 of how long its resolved
 * incidents lasted, from start to resolution, per impact. Planned maintenance is left out. Pure:
 * callers pass the incidents and the window.
 * @module
 */
import { type Impact, type IncidentStatus, isMaintenance } from "./incident.ts";
import { percentile } from "./sla.ts";
import { MINUTE_MS } from "./time.ts";
import type { TimeWindow } from "./uptime.ts";

/** Impacts a figure is given for, most severe first (MAINTENANCE is planned work: left out). */
export const RESOLUTION_IMPACTS = ["CRITICAL", "MAJOR", "MINOR", "NONE"] as const;
/** One of {@link RESOLUTION_IMPACTS}. */
export type ResolutionImpact = (typeof RESOLUTION_IMPACTS)[number];

/** How long a set of incidents took to resolve. */
export interface ResolutionFigure {
  /** Incidents counted (the sample size). */
  readonly incidents: number;
  /** Median minutes from start to resolution (1 decimal); null when none was counted. */
  readonly p50Minutes: number | null;
  /** 90th percentile minutes (nearest rank, 1 decimal); null when none was counted. */
  readonly p90Minutes: number | null;
}

/** A vendor's typical time to resolve, overall and per impact. */
export interface TimeToResolve {
  /** Incidents resolved within this many days before the figures' instant are counted. */
  readonly windowDays: number;
  /** Every counted incident, whatever its impact. */
  readonly all: ResolutionFigure;
  /** Per impact (every impact present; one with no incident has nulls). */
  readonly byImpact: Readonly<Record<ResolutionImpact, ResolutionFigure>>;
}

/** What the figures need to know of an incident. */
export interface ResolvedSpan {
  readonly status: IncidentStatus;
  readonly impact: Impact;
  readonly startedAt: number;
  readonly resolvedAt: number | null;
}

function figureOf(durationsMs: readonly number[]): ResolutionFigure {
  const minutes = (ms: number | null) => ms === null ? null : Math.round(ms / MINUTE_MS * 10) / 10;
  return {
    incidents: durationsMs.length,
    p50Minutes: minutes(percentile(durationsMs, 50)),
    p90Minutes: minutes(percentile(durationsMs, 90)),
  };
}

/**
 * p50 and p90 of the durations (`resolvedAt − startedAt`) of the incidents that were resolved
 * (status RESOLVED) inside `window` and are not maintenance (by impact or status), overall and
 * per impact. An incident whose resolution is earlier than its start (a vendor's bad data) is
 * left out. Percentiles use the nearest-rank method (domain/sla.ts `percentile`).
 * @example
 * // three MAJOR incidents of 30, 38 and 130 minutes → MAJOR p50 38, p90 130
 */
export function timeToResolve(
  incidents: Iterable<ResolvedSpan>,
  window: TimeWindow,
  windowDays: number,
): TimeToResolve {
  const all: number[] = [];
  const byImpact = new Map<Impact, number[]>(RESOLUTION_IMPACTS.map((i) => [i, []]));
  for (const i of incidents) {
    if (i.status !== "RESOLVED" || isMaintenance(i) || i.resolvedAt === null) continue;
    if (i.resolvedAt < window.start || i.resolvedAt >= window.end) continue;
    const ms = i.resolvedAt - i.startedAt;
    if (!Number.isFinite(ms) || ms < 0) continue;
    all.push(ms);
    byImpact.get(i.impact)?.push(ms);
  }
  const per = Object.fromEntries(
    RESOLUTION_IMPACTS.map((impact) => [impact, figureOf(byImpact.get(impact)!)]),
  ) as Record<ResolutionImpact, ResolutionFigure>;
  return { windowDays, all: figureOf(all), byImpact: per };
}
