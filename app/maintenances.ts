/**
 * Vendor maintenance and incident feeds: what the maintenance API, the `.ics` calendar, the
 * RSS/Atom feeds and the deploy gate read. Shared by REST and the feed routes.
 * @module
 */
import {
  ANONYMOUS,
  DAY_MS,
  type EpochMs,
  type Incident,
  type Page,
  pageOf,
  type PageRequest,
} from "../domain/mod.ts";
import { boardBySlug, boardServiceSlugs } from "./boards.ts";
import { requireService, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";

/** Most maintenances one answer considers (there are far fewer open at any time). */
export const MAINTENANCES_MAX = 2000;
/** The calendar keeps finished maintenances this long, so they stay on people's calendars. */
export const CALENDAR_KEEP_FINISHED_DAYS = 7;
/** Incidents in one RSS/Atom feed. */
export const FEED_ITEMS = 50;

/** Which vendors' maintenance to read; the fields combine with AND. */
export interface MaintenanceScope {
  /** Only these services (slugs); an unknown slug is NotFound, with suggestions. */
  readonly services?: readonly string[];
  /** Only services of this provider (slug); an unknown provider matches nothing. */
  readonly provider?: string;
  /** Only services on this public board (slug); no such public board is NotFound. */
  readonly board?: string;
}

/** `scope` with its board turned into the services it watches (narrowing `services`). */
async function resolveScope(ctx: AppContext, scope: MaintenanceScope): Promise<MaintenanceScope> {
  if (scope.board === undefined) return scope;
  const onBoard = boardServiceSlugs(await boardBySlug(ctx, ANONYMOUS, scope.board));
  const { board: _, ...rest } = scope;
  return {
    ...rest,
    services: scope.services ? scope.services.filter((s) => onBoard.includes(s)) : onBoard,
  };
}

/** An incident or maintenance with the display name of its service. */
export interface NamedIncident {
  readonly incident: Incident;
  readonly serviceName: string;
}

async function checkServices(ctx: AppContext, scope: MaintenanceScope): Promise<void> {
  for (const slug of scope.services ?? []) await requireService(ctx, slug);
}

/**
 * Unfinished maintenances (scheduled or in progress), earliest planned start first. With
 * `withinMs`, only the ones due: in progress, or planned to start within that long from now
 * and not past their announced end (a vendor that never closed one does not make it due).
 */
export async function listMaintenances(
  ctx: AppContext,
  scope: MaintenanceScope & { readonly withinMs?: number },
  page: PageRequest,
): Promise<Page<Incident>> {
  await checkServices(ctx, scope);
  const { withinMs } = scope;
  scope = { ...await resolveScope(ctx, scope), withinMs };
  const all = await ctx.store.incidents.maintenances({
    ...scope,
    ...(scope.withinMs !== undefined
      ? { startsBefore: ctx.clock.now() + scope.withinMs, endsAfter: ctx.clock.now() }
      : {}),
    limit: MAINTENANCES_MAX,
  });
  const start = page.page * page.limit;
  return pageOf(all.slice(start, start + page.limit), all.length, page);
}

/** Display names of catalog services, by slug. */
async function namesOf(ctx: AppContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.catalog.names()).map((s) => [s.slug, s.name]));
}

function named(names: Map<string, string>, incidents: readonly Incident[]): NamedIncident[] {
  return incidents.map((incident) => ({
    incident,
    serviceName: names.get(incident.serviceSlug) ?? incident.serviceSlug,
  }));
}

/**
 * What the maintenance calendar lists: unfinished maintenances, and those finished in the last
 * {@link CALENDAR_KEEP_FINISHED_DAYS} days; earliest first.
 */
export async function maintenanceCalendar(
  ctx: AppContext,
  scope: MaintenanceScope,
): Promise<NamedIncident[]> {
  await checkServices(ctx, scope);
  scope = await resolveScope(ctx, scope);
  const rows = await ctx.store.incidents.maintenances({
    ...scope,
    finishedSince: ctx.clock.now() - CALENDAR_KEEP_FINISHED_DAYS * DAY_MS,
    limit: MAINTENANCES_MAX,
  });
  return named(await namesOf(ctx), rows);
}

/** An incident feed: its items (most recently updated first) and when it last changed. */
export interface IncidentFeed {
  /** The one service the feed is about, or null for every vendor. */
  readonly service: { readonly slug: string; readonly name: string } | null;
  readonly items: readonly NamedIncident[];
  /** Newest `updatedAt` among the items; now when there is none. */
  readonly updatedAt: EpochMs;
}

/**
 * The {@link FEED_ITEMS} most recently updated incidents and maintenances, of one service or of
 * all.
 */
export async function incidentFeed(ctx: AppContext, slug?: string): Promise<IncidentFeed> {
  const found = await ctx.store.incidents.page(
    slug === undefined ? { order: "updated" } : { service: slug, order: "updated" },
    { page: 0, limit: FEED_ITEMS },
  );
  if (found === null) throw await serviceNotFound(ctx, slug ?? "");
  const names = await namesOf(ctx);
  const items = named(names, found.items);
  return {
    service: slug === undefined ? null : { slug, name: names.get(slug) ?? slug },
    items,
    updatedAt: items.length ? Math.max(...items.map((i) => i.incident.updatedAt)) : ctx.clock.now(),
  };
}

/**
 * The {@link FEED_ITEMS} most recently updated incidents and maintenances of the services on a
 * public board (NotFound for no such public board), most recently updated first.
 */
export async function boardIncidentFeed(
  ctx: AppContext,
  slug: string,
): Promise<IncidentFeed & { readonly board: { readonly slug: string; readonly title: string } }> {
  const board = await boardBySlug(ctx, ANONYMOUS, slug);
  const names = await namesOf(ctx);
  const all: Incident[] = [];
  for (const service of boardServiceSlugs(board)) {
    const found = await ctx.store.incidents.page({ service, order: "updated" }, {
      page: 0,
      limit: FEED_ITEMS,
    });
    if (found) all.push(...found.items);
  }
  all.sort((a, b) => b.updatedAt - a.updatedAt || Number(b.id) - Number(a.id));
  const items = named(names, all.slice(0, FEED_ITEMS));
  return {
    board: { slug: board.slug, title: board.title },
    service: null,
    items,
    updatedAt: items.length ? Math.max(...items.map((i) => i.incident.updatedAt)) : ctx.clock.now(),
  };
}
