/**
 * Catalog verbs: the service list, one service, the incident feed and the provider overview.
 * Shared by REST, MCP and the web pages.
 * @module
 */
import {
  type Change,
  DAY_MS,
  downtime,
  type EpochMs,
  GRADE_MIN_EPISODES,
  GRADE_WINDOW_DAYS,
  type Incident,
  type IncidentFilter,
  notEnoughData,
  NotFound,
  offsetOf,
  type Page,
  pageOf,
  type PageRequest,
  type PollOutcome,
  rankSearch,
  type ReadingErrorKind,
  readingOf,
  type ReadingPolicy,
  type ReadingState,
  type Service,
  type ServiceCandidate,
  type ServiceDetail,
  type ServiceDetailRows,
  type ServiceFilter as StoreServiceFilter,
  type ServiceRow,
  type ServiceWithHistory,
  staleBefore,
  type StatusLevel,
  type StoreCounts,
  type TimeWindow,
  uptimePercent,
  worst,
} from "../domain/mod.ts";
import { editDistance } from "../domain/suggest.ts";
import type { AppContext } from "./context.ts";
import type { Caller } from "./policy.ts";
import { resolutionWindowStart, timeToResolveOf } from "./_resolution.ts";

/** Filters of the service catalog; they combine with AND. */
export interface ServiceFilter extends Omit<StoreServiceFilter, "slowestToAdmit"> {
  /** Search text: matches are ranked (domain/search.ts) instead of ordered by name. */
  readonly q?: string;
  /**
   * `name` (the default), or `slowest_to_admit`: only vendors with an acknowledgement grade
   * (enough early-warning episodes in 90 days), the longest average delay first.
   */
  readonly sort?: ServiceSort;
}

/** The orders of the service catalog. */
export const SERVICE_SORTS = ["name", "slowest_to_admit"] as const;
/** One of {@link SERVICE_SORTS}. */
export type ServiceSort = (typeof SERVICE_SORTS)[number];

/** Window of the catalog's `uptimePercent`, in days. */
export const CATALOG_UPTIME_DAYS = 30;

/** Rounds a percent to 3 decimals (99.999 stays distinguishable from 100). */
export function roundPercent(p: number | null): number | null {
  return p === null ? null : Math.round(p * 1000) / 1000;
}

/** The window of the catalog's `uptimePercent` at the context's clock. */
/** The window of the catalog's uptime figure, ending now. */
export function catalogWindow(ctx: AppContext): TimeWindow {
  const now = ctx.clock.now();
  return { start: now - CATALOG_UPTIME_DAYS * DAY_MS, end: now };
}

/** The reading policy of this server (the configured stable interval). */
export function policyOf(ctx: AppContext): ReadingPolicy {
  return { stableSeconds: ctx.settings.pollStableSeconds };
}

/** A service as every surface shows it, with its uptime over `window`. */
export function toService(
  ctx: AppContext,
  tracked: ServiceWithHistory,
  window: TimeWindow,
): Service {
  const row = tracked.service;
  const { observedMs } = downtime(tracked.transitions, window, row.currentStatus);
  // Minutes of watching make no figure (domain notEnoughData): null until a day was observed.
  const uptime = notEnoughData(observedMs) === null
    ? roundPercent(uptimePercent(tracked.transitions, window, row.currentStatus))
    : null;
  return {
    name: row.name,
    slug: row.slug,
    currentStatus: row.currentStatus,
    uptimePercent: uptime,
    uptimeObservedMs: observedMs,
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
export async function listServices(
  ctx: AppContext,
  filter: Omit<ServiceFilter, "staleBefore">,
  page: PageRequest,
): Promise<Page<Service>> {
  const { q, sort, ...rest } = filter;
  const now = ctx.clock.now();
  const query: StoreServiceFilter = {
    ...rest,
    staleBefore: staleBefore(now, policyOf(ctx)),
    ...(sort === "slowest_to_admit"
      ? {
        slowestToAdmit: {
          since: now - GRADE_WINDOW_DAYS * DAY_MS,
          minEpisodes: GRADE_MIN_EPISODES,
        },
      }
      : {}),
  };
  const window = catalogWindow(ctx);
  if (q !== undefined && q.trim() !== "") {
    const ranked = rankSearch(q, await searchCandidates(ctx, query));
    const start = offsetOf(page);
    const ids = ranked.slice(start, start + page.limit).map((c) => c.id);
    const rows = await ctx.store.catalog.byIds(ids, window);
    return pageOf(rows.map((r) => toService(ctx, r, window)), ranked.length, page);
  }
  const { rows, total } = await ctx.store.catalog.page(query, page, window);
  return pageOf(rows.map((r) => toService(ctx, r, window)), total, page);
}

/** Search's input per store and listing (`account`), at the store's search version. */
const searchInputs = new WeakMap<
  object,
  Map<string, { readonly version: number; readonly entries: ServiceCandidate[] }>
>();

/**
 * What search ranks for `filter`: the listed vendors (and the account's own), read once per
 * version of the catalog (`searchVersion`: one row read per search); any other filter (a level,
 * a category) is read as asked.
 */
export async function searchCandidates(
  ctx: AppContext,
  filter: StoreServiceFilter,
): Promise<ServiceCandidate[]> {
  const { account, staleBefore: _, ...others } = filter;
  if (Object.values(others).some((v) => v !== undefined)) {
    return interned(await ctx.store.catalog.candidates(filter));
  }
  let byListing = searchInputs.get(ctx.store);
  if (!byListing) searchInputs.set(ctx.store, byListing = new Map());
  const version = await ctx.store.catalog.searchVersion();
  const key = account ?? "";
  const cached = byListing.get(key);
  if (cached && cached.version === version) return cached.entries;
  const entries = interned(
    await ctx.store.catalog.candidates(account === undefined ? {} : { account }),
  );
  if (byListing.size > 200) byListing.clear();
  byListing.set(key, { version, entries });
  return entries;
}

/** The candidates search has seen before, by slug, with what they were (search's cache key). */
const seen = new Map<string, { readonly key: string; readonly entry: ServiceCandidate }>();

/**
 * `candidates` as the objects search has seen before where nothing changed, so what it worked
 * out of each (domain/search.ts, per object) is reused: a search over the whole catalog then
 * costs a few milliseconds, not tens.
 */
function interned(candidates: readonly ServiceCandidate[]): ServiceCandidate[] {
  return candidates.map((c) => {
    const key = [c.id, c.name, c.provider, c.statusPageUrl, ...c.domains, "|", ...c.aliases, "|"]
      .concat(c.probes ?? []).join("\u0000");
    const known = seen.get(c.slug);
    if (known && known.key === key) return known.entry;
    if (seen.size > 100_000) seen.clear();
    seen.set(c.slug, { key, entry: c });
    return c;
  });
}

/**
 * The account whose added vendors `who` sees listed beside the catalog's: a signed-in person's
 * or a key's account, when it has added any (otherwise every caller sees the same list, which
 * can be shared).
 */
export async function listedAccount(ctx: AppContext, who: Caller): Promise<string | undefined> {
  if (who.kind === "anonymous" || who.kind === "admin") return undefined;
  const added = await ctx.store.catalog.accountVendors(who.account.id);
  return added.some((v) => v.origin === "account") ? who.account.id : undefined;
}

/**
 * Up to 5 catalog slugs close to `text`: search's best matches for it, else slugs or names
 * containing it (or contained in it), then slugs within a small edit distance; closest first.
 */
export async function suggestSlugs(ctx: AppContext, text: string): Promise<string[]> {
  const needle = text.toLowerCase().trim();
  if (needle.length < 2) return [];
  // Search's own rule first (names, aliases, domains, typos: "githb" → github); then what is
  // merely close in spelling.
  const ranked = rankSearch(needle, await searchCandidates(ctx, {}))
    .slice(0, 5).map((c) => c.slug);
  const cap = needle.length <= 4 ? 1 : 2;
  const scored: { slug: string; score: number }[] = [];
  for (const { name, slug } of await ctx.store.catalog.names()) {
    const lname = name.toLowerCase();
    let score: number | null = null;
    const d = editDistance(needle, slug, cap);
    if (d <= cap) score = d;
    else if (slug.includes(needle) || lname.includes(needle)) score = cap + 1;
    else if (needle.length >= 4 && slug.length >= 4 && needle.includes(slug)) score = cap + 2;
    if (score !== null) {
      scored.push({ slug, score: score * 1000 + Math.abs(slug.length - needle.length) });
    }
  }
  const close = scored.sort((a, b) => a.score - b.score || a.slug.localeCompare(b.slug))
    .map((s) => s.slug);
  return [...new Set([...ranked, ...close])].slice(0, 5);
}

/** NotFound for `slug`, with the catalog slugs closest to it as suggestions. */
export async function serviceNotFound(ctx: AppContext, slug: string): Promise<NotFound> {
  return new NotFound("service", slug, await suggestSlugs(ctx, slug));
}

/** The catalog row for `slug`; NotFound (with suggestions) when there is none. */
export async function requireService(ctx: AppContext, slug: string): Promise<ServiceRow> {
  const row = await ctx.store.catalog.service(slug);
  if (row === null) throw await serviceNotFound(ctx, slug);
  return row;
}

/**
 * A catalog service's name and current level, or null when there is none (no suggestions are
 * computed: cheap enough for every badge request).
 */
export async function serviceStatusOf(
  ctx: AppContext,
  slug: string,
): Promise<{ name: string; currentStatus: StatusLevel } | null> {
  const row = await ctx.store.catalog.service(slug);
  return row === null ? null : { name: row.name, currentStatus: row.currentStatus };
}

/**
 * One service with its components, its open incidents (with timelines) and its typical time to
 * resolve, read together so the page never mixes two moments.
 */
export async function getService(ctx: AppContext, slug: string): Promise<ServiceDetail> {
  const window = catalogWindow(ctx);
  const now = ctx.clock.now();
  const found = await ctx.store.catalog.detail(slug, window, resolutionWindowStart(now));
  if (found === null) throw await serviceNotFound(ctx, slug);
  return serviceDetailOf(ctx, found, window, now);
}

/** A service's detail from its stored rows (`window`: the catalog window they were read for). */
export function serviceDetailOf(
  ctx: AppContext,
  found: ServiceDetailRows,
  window: TimeWindow,
  now: EpochMs,
): ServiceDetail {
  return {
    ...toService(ctx, found, window),
    components: found.components,
    incidents: found.incidents,
    timeToResolve: timeToResolveOf(found.resolved, now),
  };
}

/**
 * The cross-vendor incident feed, newest first, filtered by `active`, `service` (slug; an
 * unknown slug is NotFound) and `since` (updated at or after).
 */
export async function listIncidents(
  ctx: AppContext,
  filter: IncidentFilter,
  page: PageRequest,
): Promise<Page<Incident>> {
  const found = await ctx.store.incidents.page(filter, page);
  if (found === null) throw await serviceNotFound(ctx, filter.service ?? "");
  return pageOf([...found.items], found.total, page);
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
export async function providersOverview(ctx: AppContext): Promise<ProviderOverview[]> {
  const window = catalogWindow(ctx);
  const rows = await ctx.store.catalog.providers(window);
  return rows.map((r) => {
    const uptimes = r.services
      .filter((s) =>
        notEnoughData(downtime(s.transitions, window, s.currentStatus).observedMs) === null
      )
      .map((s) => uptimePercent(s.transitions, window, s.currentStatus))
      .filter((u): u is number => u !== null);
    const byStatus = { ...ZERO_COUNTS, ...r.byStatus };
    return {
      provider: r.provider,
      name: providerName(r.provider, r.serviceNames),
      services: r.services.length,
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
export async function serviceLastChanges(
  ctx: AppContext,
): Promise<{ slug: string; lastModified: EpochMs | null }[]> {
  return [...await ctx.store.catalog.lastModified()];
}

/** Committed changes after `afterId` (oldest first, at most `limit`), for resuming a stream. */
export async function changesSince(
  ctx: AppContext,
  afterId: number,
  limit = 1000,
): Promise<Change[]> {
  return [...await ctx.store.changes.after(afterId, limit)];
}

/** Id of the newest committed change (0 when none). */
export function latestChangeId(ctx: AppContext): Promise<number> {
  return ctx.store.changes.latestId();
}

/** Id of the oldest change still kept (retention prunes older ones), 0 when none. */
export function oldestChangeId(ctx: AppContext): Promise<number> {
  return ctx.store.changes.oldestId();
}

/** What `/healthz` says about the data: counts, recent polls, reading states. */
export interface HealthReport {
  readonly counts: StoreCounts;
  readonly polls: PollHealth;
  /** Catalog services per reading state (every state present). */
  readonly readings: Readonly<Record<ReadingState, number>>;
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
  readonly failuresByKind: Partial<Record<ReadingErrorKind, number>>;
  /** True when more than half of the window's polls failed. */
  readonly mostFailing: boolean;
}

/**
 * Row counts, the polls of the last two stable intervals (how many, how many failed and why)
 * and reading states, read together; rejects when the database does not answer.
 */
export async function healthReport(ctx: AppContext): Promise<HealthReport> {
  const windowSeconds = 2 * ctx.settings.pollStableSeconds;
  const now = ctx.clock.now();
  const facts = await ctx.store.health.facts(
    now - windowSeconds * 1000,
    staleBefore(now, policyOf(ctx)),
  );
  let polls = 0;
  let failed = 0;
  const failuresByKind: Partial<Record<ReadingErrorKind, number>> = {};
  for (const [outcome, n] of Object.entries(facts.outcomes) as [PollOutcome, number][]) {
    polls += n;
    if (outcome === "ok" || outcome === "not_modified") continue;
    failed += n;
    failuresByKind[outcome] = n;
  }
  return {
    counts: facts.counts,
    polls: { windowSeconds, polls, failed, failuresByKind, mostFailing: failed * 2 > polls },
    readings: facts.readingStates,
  };
}
