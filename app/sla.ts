/**
 * The SLA report of one service for an account: uptime against the account's target, MTTR,
 * latency percentiles of the measured fetches of the vendor's status endpoint, and the breach
 * history with the incidents behind each breach.
 * @module
 */
import {
  type Breach,
  DAY_MS,
  type EpochMs,
  findBreaches,
  InvalidRequest,
  type LatencySummary,
  latencySummary,
  mttrMinutes,
  planAtLeast,
  PlanRequired,
  type Principal,
  SLA_ROLLING_DAYS,
  Unauthorized,
  uptimePercent,
} from "../domain/mod.ts";
import {
  fetchLatencies,
  incidentsBetween,
  serviceTransitions,
  type SlaIncidentRow,
} from "../store/mod.ts";
import { requireService, roundPercent } from "./catalog.ts";
import type { AppContext } from "./context.ts";

/** Bounds and default of the report window, in days. */
export const SLA_DAYS = { min: 1, max: 90, default: 30 } as const;

/** The plan SLA reports need (they are account data behind an API key). */
export const SLA_PLAN = "PRO";

/** One service's SLA report. */
export interface SlaReport {
  readonly slug: string;
  readonly name: string;
  readonly days: number;
  readonly windowStart: EpochMs;
  readonly windowEnd: EpochMs;
  /** The account's target in percent. */
  readonly targetPercent: number;
  /** Uptime over the window (3 decimals), null when nothing was observed. */
  readonly uptimePercent: number | null;
  /** True when uptime is at or above target; null when nothing was observed. */
  readonly met: boolean | null;
  /** Mean minutes to recovery of disruptions that ended in the window (1 decimal). */
  readonly mttrMinutes: number | null;
  readonly latency: LatencySummary;
  readonly rollingDays: number;
  readonly breaches: readonly (Omit<Breach, "incidentIds"> & { incidents: SlaIncidentRow[] })[];
}

/** Builds the SLA report of `slug` over the last `days` days for the caller's account. */
export function slaReport(
  ctx: AppContext,
  who: Principal,
  slug: string,
  days: number = SLA_DAYS.default,
): SlaReport {
  if (who.kind === "anonymous") throw new Unauthorized();
  if (!planAtLeast(who.account.plan, SLA_PLAN)) throw new PlanRequired(SLA_PLAN, "SLA reports");
  if (!Number.isInteger(days) || days < SLA_DAYS.min || days > SLA_DAYS.max) {
    throw new InvalidRequest([{
      parameter: "days",
      message: `expected an integer from ${SLA_DAYS.min} to ${SLA_DAYS.max}`,
    }]);
  }
  const service = requireService(ctx, slug);
  const end = ctx.clock.now();
  const window = { start: end - days * DAY_MS, end };
  const lookback = window.start - SLA_ROLLING_DAYS * DAY_MS;
  const ts = serviceTransitions(ctx.db, [service.id], lookback, end, "recovery").get(service.id) ??
    [];
  const incidents = incidentsBetween(ctx.db, service.id, lookback, end);
  const target = who.account.slaTarget;
  const uptime = uptimePercent(ts, window, service.currentStatus);
  const mttr = mttrMinutes(ts, window);
  const byId = new Map(incidents.map((i) => [i.id, i]));
  const breaches = findBreaches(ts, incidents, window, target, {
    otherwise: service.currentStatus,
  }).map(({ incidentIds, ...b }) => ({ ...b, incidents: incidentIds.map((id) => byId.get(id)!) }));
  return {
    slug: service.slug,
    name: service.name,
    days,
    windowStart: window.start,
    windowEnd: end,
    targetPercent: target,
    uptimePercent: roundPercent(uptime),
    met: uptime === null ? null : uptime >= target,
    mttrMinutes: mttr === null ? null : Math.round(mttr * 10) / 10,
    latency: latencySummary(fetchLatencies(ctx.db, service.id, window.start, end)),
    rollingDays: SLA_ROLLING_DAYS,
    breaches,
  };
}
