/**
 * A service's track record, beyond its current status: its components' daily history, its
 * incidents resolved lately, how long its incidents take to resolve; and which services
 * recovered lately. Shared by the web pages (and REST/MCP where they expose the same figures).
 * @module
 */
import {
  componentDailyWorst,
  type ComponentTimelines,
  DAY_MS,
  type DayWorst,
  episodes,
  type EpochMs,
  type Incident,
  segmentsIn,
  type StatusLevel,
  type StatusTransition,
  STORE_LIMITS,
  type TimeToResolve,
  worst,
} from "../domain/mod.ts";
import { serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { HISTORY_MAX_DAYS } from "./reports.ts";
import { resolutionWindowStart, timeToResolveOf } from "./_resolution.ts";

/** One component's worst level per UTC day. */
export interface ComponentHistory {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  /** Its level now. */
  readonly status: StatusLevel;
  /** Oldest first; the last entry is today so far. */
  readonly entries: DayWorst[];
}

/**
 * Worst level per UTC day of each current component of a service over the last `days` days
 * (1..90), in the vendor's order. A day reads UNKNOWN where the component was not observed:
 * before statusd first saw it, and while statusd could not read the vendor. Where the store
 * has dropped a component's oldest changes (it keeps the newest 50), the time before the
 * oldest kept change reads UNKNOWN rather than a guess.
 */
export async function componentHistory(
  ctx: AppContext,
  slug: string,
  days = HISTORY_MAX_DAYS,
): Promise<ComponentHistory[]> {
  const now = ctx.clock.now();
  const found = await ctx.store.history.componentTimelines(slug, {
    start: now - days * DAY_MS,
    end: now,
  });
  if (found === null) throw await serviceNotFound(ctx, slug);
  return componentHistoryOf(found, now, days);
}

/** Each component's daily history from its stored transitions (and the service's). */
export function componentHistoryOf(
  found: ComponentTimelines,
  now: EpochMs,
  days: number,
): ComponentHistory[] {
  const service = { transitions: found.transitions, now: found.service.currentStatus };
  return found.components.map(({ component: c, transitions }) => ({
    id: c.id,
    name: c.name,
    group: c.group,
    status: c.status,
    entries: componentDailyWorst(
      { transitions: trimmedAsUnknown(transitions), now: c.status },
      service,
      now,
      days,
    ),
  }));
}

/** When the store may have dropped older changes, nothing before the oldest kept one is known. */
function trimmedAsUnknown(ts: readonly StatusTransition[]): readonly StatusTransition[] {
  if (ts.length < STORE_LIMITS.transitionsPerComponent) return ts;
  return [{ ...ts[0]!, from: "UNKNOWN" }, ...ts.slice(1)];
}

/** Most past incidents {@link pastIncidents} returns (the store keeps 500 per vendor). */
export const PAST_INCIDENTS_MAX = 500;

/**
 * The service's incidents resolved, and maintenances completed, in the last `days` days
 * (1..90), newest first (by start), each with its timeline.
 */
export async function pastIncidents(
  ctx: AppContext,
  slug: string,
  days = HISTORY_MAX_DAYS,
): Promise<Incident[]> {
  const found = await ctx.store.incidents.page(
    { service: slug, resolvedSince: ctx.clock.now() - days * DAY_MS },
    { page: 0, limit: PAST_INCIDENTS_MAX },
  );
  if (found === null) throw await serviceNotFound(ctx, slug);
  return [...found.items];
}

/** How long the service's incidents resolved in the last 90 days took (p50/p90, per impact). */
export async function serviceTimeToResolve(
  ctx: AppContext,
  slug: string,
): Promise<TimeToResolve> {
  const now = ctx.clock.now();
  const resolved = await ctx.store.history.resolutions(slug, resolutionWindowStart(now));
  if (resolved === null) throw await serviceNotFound(ctx, slug);
  return timeToResolveOf(resolved, now);
}

/** A service that was disrupted and is working again. */
export interface Recovery {
  readonly slug: string;
  readonly name: string;
  /** Its level now (OPERATIONAL or UNDER_MAINTENANCE). */
  readonly currentStatus: StatusLevel;
  /** When the disruption began (its first move to degraded or worse). */
  readonly disruptedSince: EpochMs;
  /** When it recovered. */
  readonly recoveredAt: EpochMs;
  /** The worst level it held during the disruption. */
  readonly worstStatus: StatusLevel;
}

/**
 * Services working again whose last disruption ended within `withinMs` before now, most
 * recent recovery first, at most `limit`.
 */
export async function recentRecoveries(
  ctx: AppContext,
  withinMs = DAY_MS,
  limit = 20,
): Promise<Recovery[]> {
  const now = ctx.clock.now();
  const since = now - withinMs;
  const candidates = await ctx.store.catalog.backToWorking(since, { start: since, end: now });
  const out: Recovery[] = [];
  for (const { service: c, transitions: ts } of candidates) {
    const last = episodes(ts).filter((e) => e.end !== null && e.end >= since && e.end <= now)
      .at(-1);
    if (!last) continue;
    const held = segmentsIn(ts, { start: last.start, end: last.end! }).map((s) => s.status);
    out.push({
      slug: c.slug,
      name: c.name,
      currentStatus: c.currentStatus,
      disruptedSince: last.start,
      recoveredAt: last.end!,
      worstStatus: worst(held),
    });
  }
  return out.sort((a, b) => b.recoveredAt - a.recoveredAt).slice(0, limit);
}
