/**
 * Catalog verbs: the service list, one service, the incident feed and the provider overview.
 * Shared by REST, MCP and the web pages.
 * @module
 */
import {
  type Change,
  DAY_MS,
  type EpochMs,
  type Incident,
  NotFound,
  offsetOf,
  type Page,
  pageOf,
  type PageRequest,
  rankSearch,
  readingOf,
  type ReadingPolicy,
  type ReadingState,
  type Service,
  type ServiceDetail,
  staleBefore,
  type StatusLevel,
  uptimePercent,
  worst,
} from "../domain/mod.ts";
import {
  componentsOf,
  countIncidents,
  countServices,
  getServiceRow,
  type IncidentFilter,
  listIncidentRows,
  listServiceRows,
  pollOutcomesSince,
  providerRows,
  readingStateCounts,
  serviceCandidates,
  type ServiceFilter as StoreServiceFilter,
  serviceLastModified,
  serviceNames,
  type ServiceRow,
  serviceRowsByIds,
  serviceTransitions,
  type StoreCounts,
  storeCounts,
} from "../store/mod.ts";
import { changesAfter, lastChangeId } from "../store/mod.ts";
import type { AppContext } from "./context.ts";
import { timeToResolveOf } from "./_resolution.ts";

export type { IncidentFilter, StoreCounts } from "../store/mod.ts";

/** Filters of the service catalog; they combine with AND. */
export interface ServiceFilter extends StoreServiceFilter {
  /** Search text: matches are ranked (domain/search.ts) instead of ordered by name. */
  readonly q?: string;
}

/** Window of the catalog's `uptimePercent`, in days. */
export const CATALOG_UPTIME_DAYS = 30;

/** Rounds a percent to 3 decimals (99.999 stays distinguishable from 100). */
export function roundPercent(p: number | null): number | null {
  return p === null ? null : Math.round(p * 1000) / 1000;
}

/** 30-day uptime percent of each row (rounded), by vendor id. */
function uptimeOf(ctx: AppContext, rows: readonly ServiceRow[]): Map<number, number | null> {
  const now = ctx.clock.now();
  const window = { start: now - CATALOG_UPTIME_DAYS * DAY_MS, end: now };
  const transitions = serviceTransitions(ctx.db, rows.map((r) => r.id), window.start, window.end);
  return new Map(rows.map((r) => [
    r.id,
    roundPercent(uptimePercent(transitions.get(r.id) ?? [], window, r.currentStatus)),
  ]));
}

/** The reading policy of this server (the configured stable interval). */
function policyOf(ctx: AppContext): ReadingPolicy {
  return { stableSeconds: ctx.settings.pollStableSeconds };
}

function toService(ctx: AppContext, row: ServiceRow, uptime: number | null): Service {
  return {
    name: row.name,
    slug: row.slug,
    currentStatus: row.currentStatus,
    uptimePercent: uptime,
    category: row.category,
    provider: row.provider,
    statusPageUrl: row.statusPageUrl,
    platform: row.platform,
    lastCheckedAt: row.lastCheckedAt,
    lastChangedAt: row.lastChangedAt,
    reading: readingOf(row.reading, ctx.clock.now(), policyOf(ctx)),
  };
}

/**
 * A page of catalog services matching `filter` (`reading` filters by reading state at the
 * context's clock), with 30-day uptime and reading health: ordered by name, or best match
 * first when `filter.q` is given (exact and prefix matches of name and slug, then word starts,
 * then the rest; see domain/search.ts).
 */
export function listServices(
  ctx: AppContext,
  filter: Omit<ServiceFilter, "staleBefore">,
  page: PageRequest,
): Page<Service> {
  const { q, ...rest } = filter;
  const query = { ...rest, staleBefore: staleBefore(ctx.clock.now(), policyOf(ctx)) };
  if (q !== undefined && q.trim() !== "") {
    const ranked = rankSearch(q, serviceCandidates(ctx.db, query));
    const start = offsetOf(page);
    const rows = serviceRowsByIds(ctx.db, ranked.slice(start, start + page.limit).map((c) => c.id));
    const uptime = uptimeOf(ctx, rows);
    return pageOf(
      rows.map((r) => toService(ctx, r, uptime.get(r.id) ?? null)),
      ranked.length,
      page,
    );
  }
  const total = countServices(ctx.db, query);
  const rows = listServiceRows(ctx.db, query, page);
  const uptime = uptimeOf(ctx, rows);
  return pageOf(rows.map((r) => toService(ctx, r, uptime.get(r.id) ?? null)), total, page);
}

/** Levenshtein distance, capped: returns `cap + 1` as soon as it exceeds `cap`. */
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Up to 5 catalog slugs close to `text`: slugs or names containing it (or contained in it),
 * then slugs within a small edit distance; closest first.
 */
export function suggestSlugs(ctx: AppContext, text: string): string[] {
  const needle = text.toLowerCase().trim();
  if (needle.length < 2) return [];
  const cap = needle.length <= 4 ? 1 : 2;
  const scored: { slug: string; score: number }[] = [];
  for (const { name, slug } of serviceNames(ctx.db)) {
    const lname = name.toLowerCase();
    let score: number | null = null;
    const d = distance(needle, slug, cap);
    if (d <= cap) score = d;
    else if (slug.includes(needle) || lname.includes(needle)) score = cap + 1;
    else if (needle.length >= 4 && slug.length >= 4 && needle.includes(slug)) score = cap + 2;
    if (score !== null) {
      scored.push({ slug, score: score * 1000 + Math.abs(slug.length - needle.length) });
    }
  }
  return scored.sort((a, b) => a.score - b.score || a.slug.localeCompare(b.slug)).slice(0, 5)
    .map((s) => s.slug);
}

/** The catalog row for `slug`; NotFound (with suggestions) when there is none. */
export function requireService(ctx: AppContext, slug: string): ServiceRow {
  const row = getServiceRow(ctx.db, slug);
  if (row === null) throw new NotFound("service", slug, suggestSlugs(ctx, slug));
  return row;
}

/**
 * A catalog service's name and current level, or null when there is none (no suggestions are
 * computed: cheap enough for every badge request).
 */
export function serviceStatusOf(
  ctx: AppContext,
  slug: string,
): { name: string; currentStatus: StatusLevel } | null {
  const row = getServiceRow(ctx.db, slug);
  return row === null ? null : { name: row.name, currentStatus: row.currentStatus };
}

/**
 * One service with its components, its open incidents (with timelines) and its typical time to
 * resolve.
 */
export function getService(ctx: AppContext, slug: string): ServiceDetail {
  const row = requireService(ctx, slug);
  const incidents = listIncidentRows(ctx.db, { vendorId: row.id, active: true }, {
    page: 0,
    limit: 500,
  });
  return {
    ...toService(ctx, row, uptimeOf(ctx, [row]).get(row.id) ?? null),
    components: componentsOf(ctx.db, row.id),
    incidents,
    timeToResolve: timeToResolveOf(ctx, row.id),
  };
}

/**
 * The cross-vendor incident feed, newest first, filtered by `active`, `service` (slug; an
 * unknown slug is NotFound) and `since` (updated at or after).
 */
export function listIncidents(
  ctx: AppContext,
  filter: IncidentFilter,
  page: PageRequest,
): Page<Incident> {
  if (filter.service !== undefined) requireService(ctx, filter.service);
  const total = countIncidents(ctx.db, filter);
  return pageOf(listIncidentRows(ctx.db, filter, page), total, page);
}

/** One row of the provider overview (DESIGN §4). */
export interface ProviderOverview {
  /** Slug of the owning company. */
  readonly provider: string;
  /** Display name: the words all its services' names start with, else the title-cased slug. */
  readonly name: string;
  /** Number of its catalog services. */
  readonly services: number;
  /** Services per current level (levels with none are 0). */
  readonly byStatus: Record<StatusLevel, number>;
  /** Worst current level among its services. */
  readonly worstStatus: StatusLevel;
  /** Open incidents and maintenances across its services. */
  readonly activeIncidents: number;
  /** Mean 30-day uptime of its services that have one; null when none has. */
  readonly uptimePercent: number | null;
}

function providerName(provider: string, names: readonly string[]): string {
  const words = names.map((n) => n.split(/\s+/));
  const common: string[] = [];
  for (let i = 0; i < words[0]!.length; i++) {
    const w = words[0]![i]!;
    if (words.every((ws) => ws[i] === w)) common.push(w);
    else break;
  }
  if (common.length) return common.join(" ");
  return provider.split("-").map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join(" ");
}

const ZERO_COUNTS: Record<StatusLevel, number> = {
  OPERATIONAL: 0,
  UNDER_MAINTENANCE: 0,
  DEGRADED_PERFORMANCE: 0,
  PARTIAL_OUTAGE: 0,
  MAJOR_OUTAGE: 0,
  UNKNOWN: 0,
};

/** One aggregate row per provider, ordered by provider slug. */
export function providersOverview(ctx: AppContext): ProviderOverview[] {
  const rows = providerRows(ctx.db);
  const now: EpochMs = ctx.clock.now();
  const window = { start: now - CATALOG_UPTIME_DAYS * DAY_MS, end: now };
  const all = rows.flatMap((r) => r.vendorIds);
  const transitions = serviceTransitions(ctx.db, all, window.start, window.end);
  return rows.map((r) => {
    const uptimes = r.vendorIds
      .map((id, i) => uptimePercent(transitions.get(id) ?? [], window, r.statuses[i]))
      .filter((u): u is number => u !== null);
    const byStatus = { ...ZERO_COUNTS, ...r.byStatus };
    return {
      provider: r.provider,
      name: providerName(r.provider, r.serviceNames),
      services: r.vendorIds.length,
      byStatus,
      worstStatus: worst(Object.keys(r.byStatus) as StatusLevel[]),
      activeIncidents: r.activeIncidents,
      uptimePercent: uptimes.length
        ? roundPercent(uptimes.reduce((a, b) => a + b, 0) / uptimes.length)
        : null,
    };
  });
}

/** When each catalog service's page last changed (status change or incident update). */
export function serviceLastChanges(
  ctx: AppContext,
): { slug: string; lastModified: EpochMs | null }[] {
  return serviceLastModified(ctx.db);
}

/** Row counts of the store; throws when the database does not answer. */
export function catalogCounts(ctx: AppContext): StoreCounts {
  return storeCounts(ctx.db);
}

/** Committed changes after `afterId` (oldest first, at most `limit`), for resuming a stream. */
export function changesSince(ctx: AppContext, afterId: number, limit = 1000): Change[] {
  return changesAfter(ctx.db, afterId, limit);
}

/** Id of the newest committed change (0 when none). */
export function latestChangeId(ctx: AppContext): number {
  return lastChangeId(ctx.db);
}

/** Catalog services per reading state (every state present). */
export function readingCounts(ctx: AppContext): Record<ReadingState, number> {
  return readingStateCounts(ctx.db, staleBefore(ctx.clock.now(), policyOf(ctx)));
}

/** How the vendors' recent polls went (`/healthz`). */
export interface PollHealth {
  /** The window looked at: the last two stable intervals (every vendor is polled in it). */
  readonly windowSeconds: number;
  /** Polls recorded in the window. */
  readonly polls: number;
  /** Of which failed. */
  readonly failed: number;
  /** Failed polls per error kind (domain/reading.ts), kinds with none left out. */
  readonly failuresByKind: Record<string, number>;
  /** True when more than half of the window's polls failed. */
  readonly mostFailing: boolean;
}

/** Polls of the last two stable intervals: how many, how many failed and why. */
export function pollHealth(ctx: AppContext): PollHealth {
  const windowSeconds = 2 * ctx.settings.pollStableSeconds;
  const outcomes = pollOutcomesSince(ctx.db, ctx.clock.now() - windowSeconds * 1000);
  let polls = 0;
  let failed = 0;
  const failuresByKind: Record<string, number> = {};
  for (const [outcome, n] of Object.entries(outcomes)) {
    polls += n;
    if (outcome === "ok" || outcome === "not_modified") continue;
    failed += n;
    failuresByKind[outcome] = n;
  }
  return { windowSeconds, polls, failed, failuresByKind, mostFailing: failed * 2 > polls };
}
