/**
 * The SLA report of one service for an account: uptime against the account's target, MTTR,
 * latency percentiles of the measured fetches of the vendor's status endpoint, and the breach
 * history with the incidents behind each breach.
 * @module
 */
import {
  type Breach,
  DAY_MS,
  downtime,
  type EpochMs,
  findBreaches,
  histogramSummary,
  InvalidRequest,
  type LatencySummary,
  mttrMinutes,
  notEnoughData,
  percentUp,
  type Principal,
  SLA_ROLLING_DAYS,
  type SlaIncidentRow,
} from "../domain/mod.ts";
import { roundPercent, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { type Access, authorize } from "./policy.ts";

/** Bounds and default of the report window, in days. */
export const SLA_DAYS = { min: 1, max: 90, default: 30 } as const;

/** The plan SLA reports need (they are account data behind an API key). */
export const SLA_PLAN = "PRO";

/** Who may read SLA reports: a key or token holding `sla:read`, on the Pro plan or above. */
export const READ_SLA_REPORT: Access = {
  credential: "key",
  scopes: ["sla:read"],
  plan: { plan: SLA_PLAN, feature: "SLA reports" },
};

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
  /**
   * How much of the window statusd observed (ms): the uptime covers only that, so a service
   * first read an hour ago has an hour behind its figure, not `days` days.
   */
  readonly observedMs: number;
  /** True when uptime is at or above target; null while less than a day was observed. */
  readonly met: boolean | null;
  /** "not enough data yet (42 s observed)" while less than a day was observed; else null. */
  readonly note: string | null;
  /** Mean minutes to recovery of disruptions that ended in the window (1 decimal). */
  readonly mttrMinutes: number | null;
  readonly latency: LatencySummary;
  readonly rollingDays: number;
  readonly breaches: readonly (Omit<Breach, "incidentIds"> & {
    incidents: readonly SlaIncidentRow[];
  })[];
}

/** Builds the SLA report of `slug` over the last `days` days for the caller's account. */
export async function slaReport(
  ctx: AppContext,
  who: Principal,
  slug: string,
  days: number = SLA_DAYS.default,
): Promise<SlaReport> {
  authorize(who, READ_SLA_REPORT);
  if (who.kind === "anonymous") throw new Error("unreachable: authorize refuses anonymous callers");
  if (!Number.isInteger(days) || days < SLA_DAYS.min || days > SLA_DAYS.max) {
    throw new InvalidRequest([{
      parameter: "days",
      message: `expected an integer from ${SLA_DAYS.min} to ${SLA_DAYS.max}`,
    }]);
  }
  const end = ctx.clock.now();
  const window = { start: end - days * DAY_MS, end };
  const lookback = window.start - SLA_ROLLING_DAYS * DAY_MS;
  const found = await ctx.store.history.slaInputs(slug, { start: lookback, end }, window);
  if (found === null) throw await serviceNotFound(ctx, slug);
  const { service, transitions: ts, incidents } = found;
  const target = who.account.slaTarget;
  const observed = downtime(ts, window, service.currentStatus);
  const note = notEnoughData(observed.observedMs);
  const uptime = note === null ? percentUp(observed) : null;
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
    observedMs: observed.observedMs,
    met: uptime === null ? null : uptime >= target,
    note,
    mttrMinutes: mttr === null ? null : Math.round(mttr * 10) / 10,
    latency: histogramSummary(found.latency),
    rollingDays: SLA_ROLLING_DAYS,
    breaches,
  };
}
