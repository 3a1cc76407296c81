/**
 * The home page's facts, read together: counts per level and reading state, what is disrupted,
 * what is open, what is planned and what recovered lately.
 * @module
 */
import {
  type Incident,
  type ReadingState,
  type Service,
  staleBefore,
  type StatusLevel,
} from "../domain/mod.ts";
import { catalogWindow, policyOf, toService } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { listMaintenances } from "./maintenances.ts";
import { recentRecoveries, type Recovery } from "./track_record.ts";

/** Levels the home page lists as disrupted, worst first. */
export const DISRUPTED_LEVELS: readonly StatusLevel[] = [
  "MAJOR_OUTAGE",
  "PARTIAL_OUTAGE",
  "DEGRADED_PERFORMANCE",
];

/** What the home page shows; the counts, the disrupted services and the open incidents are read together. */
export interface HomeOverview {
  /** Catalog services. */
  readonly total: number;
  /** Catalog services per current level (every level present). */
  readonly byStatus: Readonly<Record<StatusLevel, number>>;
  /** Catalog services per reading state (every state present). */
  readonly readings: Readonly<Record<ReadingState, number>>;
  /** Services in {@link DISRUPTED_LEVELS}, worst level first, at most `perLevel` of each. */
  readonly disrupted: readonly Service[];
  /** Open incidents and maintenances, newest first. */
  readonly activeIncidents: readonly Incident[];
  /** Unfinished maintenances, earliest first. */
  readonly maintenances: readonly Incident[];
  /** Services that recovered within `recoveredWithinMs`, most recent first. */
  readonly recovered: readonly Recovery[];
  /** Display names of catalog services, by slug. */
  readonly names: ReadonlyMap<string, string>;
}

/** The home page's facts: counts, what is disrupted, what is open, planned and recovered. */
export async function homeOverview(
  ctx: AppContext,
  limits: { perLevel: number; incidents: number; maintenances: number; recoveredWithinMs: number },
): Promise<HomeOverview> {
  const window = catalogWindow(ctx);
  const o = await ctx.store.catalog.overview({
    disrupted: DISRUPTED_LEVELS,
    perLevel: limits.perLevel,
    incidents: limits.incidents,
    window,
    staleBefore: staleBefore(ctx.clock.now(), policyOf(ctx)),
  });
  const maintenances = await listMaintenances(ctx, {}, {
    page: 0,
    limit: limits.maintenances,
  });
  const names = new Map((await ctx.store.catalog.names()).map((n) => [n.slug, n.name]));
  return {
    total: Object.values(o.byStatus).reduce((a, b) => a + b, 0),
    byStatus: o.byStatus,
    readings: o.readingStates,
    disrupted: o.disrupted.map((s) => toService(ctx, s, window)),
    activeIncidents: o.activeIncidents,
    maintenances: maintenances.content,
    recovered: await recentRecoveries(ctx, limits.recoveredWithinMs),
    names,
  };
}
