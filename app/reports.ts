/**
 * Report verbs over a service's status transitions: daily history and uptime/MTTR
 * (maths in domain/uptime.ts, DESIGN §4).
 * @module
 */
import {
  dailyWorst,
  DAY_MS,
  downtime,
  episodes,
  type EpochMs,
  InvalidRequest,
  mttrMinutes,
  notEnoughData,
  observedPercent,
  observedSince,
  type ServiceWithHistory,
  uptimePercent,
} from "../domain/mod.ts";
import { roundPercent, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { type Access, authorize, type Caller } from "./policy.ts";
import type { ServiceHistory, ServiceUptime } from "../domain/mod.ts";

/**
 * Who may read a service's history and uptime: anyone; a key or token must hold `status:read`
 * (SPEC leaves it open; docs/decisions.md "Anonymous access to history and uptime").
 */
export const READ_SERVICE_HISTORY: Access = { credential: "optional", scopes: ["status:read"] };

/** Most days `serviceHistory` returns (SPEC §8). */
export const HISTORY_MAX_DAYS = 90;

/** Worst status per UTC day over the last `days` days (1..90, today included). */
export async function serviceHistory(
  ctx: AppContext,
  who: Caller,
  slug: string,
  days = HISTORY_MAX_DAYS,
): Promise<ServiceHistory> {
  authorize(who, READ_SERVICE_HISTORY);
  if (!Number.isInteger(days) || days < 1 || days > HISTORY_MAX_DAYS) {
    throw new InvalidRequest([{
      parameter: "days",
      message: `expected an integer from 1 to ${HISTORY_MAX_DAYS}`,
    }]);
  }
  const now = ctx.clock.now();
  const found = await ctx.store.history.timeline(
    slug,
    { start: now - days * DAY_MS, end: now },
    "last",
  );
  if (found === null) throw await serviceNotFound(ctx, slug);
  return historyOf(found, now, days);
}

/** The daily history from a service's transitions over the last `days` days. */
export function historyOf(found: ServiceWithHistory, now: EpochMs, days: number): ServiceHistory {
  const row = found.service;
  return {
    slug: row.slug,
    days,
    entries: dailyWorst(found.transitions, now, days, row.currentStatus),
  };
}

/** 7/30/90-day uptime and 90-day MTTR of one service. */
export async function serviceUptime(
  ctx: AppContext,
  who: Caller,
  slug: string,
): Promise<ServiceUptime> {
  authorize(who, READ_SERVICE_HISTORY);
  const now = ctx.clock.now();
  const w90 = { start: now - 90 * DAY_MS, end: now };
  const found = await ctx.store.history.timeline(slug, w90, "recovery");
  if (found === null) throw await serviceNotFound(ctx, slug);
  return uptimeOf(found, now);
}

/** Uptime and MTTR from a service's transitions over 90 days, reaching back to a recovery. */
export function uptimeOf(found: ServiceWithHistory, now: EpochMs): ServiceUptime {
  const w90 = { start: now - 90 * DAY_MS, end: now };
  const row = found.service;
  const ts = found.transitions;
  const windowOf = (days: number) => ({ start: now - days * DAY_MS, end: now });
  const observed = downtime(ts, w90, row.currentStatus).observedMs;
  const note = notEnoughData(observed);
  const pct = (days: number) =>
    note === null ? roundPercent(uptimePercent(ts, windowOf(days), row.currentStatus)) : null;
  const seen = (days: number) => observedPercent(ts, windowOf(days), row.currentStatus);
  const mttr = mttrMinutes(ts, w90);
  const ended = episodes(ts).filter((e) => e.end !== null && e.end >= w90.start && e.end < now);
  return {
    slug: row.slug,
    days7: pct(7),
    days30: pct(30),
    days90: pct(90),
    mttrMinutes: mttr === null ? null : Math.round(mttr * 10) / 10,
    disruptions: ended.length,
    asOf: now,
    observedSince: observedSince(ts, w90, row.currentStatus),
    observedPercent: { days7: seen(7), days30: seen(30), days90: seen(90) },
    note,
  };
}

export type { ServiceHistory, ServiceUptime };
