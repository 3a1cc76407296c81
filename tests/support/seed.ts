/**
 * Seeding a store through its port, the way the poller fills it: vendors go in through the
 * catalog sync, and everything else is a reading of the vendor's page recorded at a chosen
 * time (`store.polls.recordSuccess`). History at past times is readings at past times, so what
 * tests read back is what real polling would have stored. Each store keeps the page last read
 * for each vendor, so adding an incident or a component re-reads the whole page with it.
 * @module
 */
import type {
  Category,
  ComponentSnapshot,
  EpochMs,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  Snapshot,
  StatusLevel,
  Store,
  Vendor,
} from "../../domain/mod.ts";

/** What each store was told: its catalog and the page last read for each vendor. */
interface Seeded {
  readonly catalog: Map<string, Vendor>;
  readonly pages: Map<
    string,
    { indicator: StatusLevel; components: ComponentSnapshot[]; incidents: IncidentSnapshot[] }
  >;
}

const seeded = new WeakMap<Store, Seeded>();

function stateOf(store: Store): Seeded {
  let s = seeded.get(store);
  if (!s) seeded.set(store, s = { catalog: new Map(), pages: new Map() });
  return s;
}

/** Adds `vendors` to the catalog the store was given (through the real catalog sync). */
export async function syncVendors(store: Store, vendors: readonly Vendor[], now: EpochMs) {
  const { catalog } = stateOf(store);
  for (const v of vendors) catalog.set(v.slug, v);
  return await store.catalog.sync([...catalog.values()], now);
}

/** A catalog vendor with defaults for what a test does not care about. */
export function vendorOf(v: {
  slug: string;
  name?: string;
  category?: Category;
  provider?: string;
  domains?: string[];
}): Vendor {
  return {
    name: v.name ?? v.slug,
    slug: v.slug,
    statusPageUrl: `https://${v.slug}.example.test/`,
    platform: "statuspage",
    category: v.category ?? "other",
    provider: v.provider ?? v.slug,
    domains: v.domains ?? [],
  };
}

/** The store's row id of a catalog vendor (the poller's handle). */
export async function vendorId(store: Store, slug: string): Promise<number> {
  const row = await store.catalog.service(slug);
  if (!row) throw new Error(`no catalog vendor "${slug}"`);
  return row.id;
}

/**
 * Records a successful reading of `slug` at `at` showing `snapshot` (as the poller would after
 * parsing it); returns the committed changes.
 */
export async function recordReading(store: Store, slug: string, snapshot: Snapshot, at: EpochMs) {
  return await store.polls.recordSuccess(await vendorId(store, slug), snapshot, {
    at,
    latencyMs: 50,
    httpStatus: 200,
    nextPollAt: at + 60_000,
    deadlineAt: at + 65_000,
    etag: null,
    lastModified: null,
    notes: [],
  });
}

/** Records a poll of `slug` at `at` that timed out (as the poller would after 10 s). */
export async function recordTimeout(store: Store, slug: string, at: EpochMs) {
  return await store.polls.recordFailure(await vendorId(store, slug), {
    at,
    latencyMs: 10_000,
    httpStatus: null,
    nextPollAt: at + 60_000,
    deadlineAt: at + 65_000,
    outcome: "timeout",
    detail: "no answer in 10 s",
    stale: false,
    platformMiss: false,
  });
}

function pageOf(store: Store, slug: string) {
  const { pages } = stateOf(store);
  let page = pages.get(slug);
  if (!page) pages.set(slug, page = { indicator: "OPERATIONAL", components: [], incidents: [] });
  return page;
}

/** Reads the vendor's page again at `at` (with whatever was added to it). */
async function reread(store: Store, slug: string, at: EpochMs) {
  const page = pageOf(store, slug);
  return await recordReading(store, slug, {
    indicator: page.indicator,
    components: [...page.components],
    incidents: [...page.incidents],
  }, at);
}

/**
 * Adds a catalog vendor (through the real catalog sync). With `status`, its page is read at
 * `at` (T0 of the caller by default) showing that level; without, it is never read (UNKNOWN).
 */
export async function addVendor(
  store: Store,
  v: {
    slug: string;
    name?: string;
    category?: Category;
    provider?: string;
    domains?: string[];
    status?: StatusLevel;
    at?: EpochMs;
  },
  defaultAt: EpochMs,
): Promise<void> {
  await syncVendors(store, [vendorOf(v)], defaultAt);
  if (v.status !== undefined) await setStatus(store, v.slug, v.status, v.at ?? defaultAt);
}

/** Reads the vendor's page at `at` with its indicator at `status`. */
export async function setStatus(store: Store, slug: string, status: StatusLevel, at: EpochMs) {
  pageOf(store, slug).indicator = status;
  return await reread(store, slug, at);
}

/** Reads the vendor's page at each `[at, level]` in turn: its service-level history. */
export async function addTransitions(
  store: Store,
  slug: string,
  steps: readonly [EpochMs, StatusLevel][],
): Promise<void> {
  for (const [at, level] of steps) await setStatus(store, slug, level, at);
}

/** Adds a component to the vendor's page and reads it at `at`. */
export async function addComponent(
  store: Store,
  slug: string,
  c: { externalId: string; name: string; status: StatusLevel; group?: string | null },
  at: EpochMs,
): Promise<void> {
  pageOf(store, slug).components.push({
    externalId: c.externalId,
    name: c.name,
    status: c.status,
    group: c.group ?? null,
  });
  await reread(store, slug, at);
}

/** Takes a component off the vendor's page and reads it at `at` (the store marks it removed). */
export async function removeComponent(
  store: Store,
  slug: string,
  externalId: string,
  at: EpochMs,
): Promise<void> {
  const page = pageOf(store, slug);
  page.components = page.components.filter((c) => c.externalId !== externalId);
  await reread(store, slug, at);
}

/** An incident as a test describes it. */
export interface SeedIncident {
  externalId: string;
  title: string;
  status: IncidentStatus;
  impact: Impact;
  startedAt: EpochMs;
  updatedAt?: EpochMs;
  resolvedAt?: EpochMs | null;
  componentIds?: string[];
  updates?: { at: EpochMs; status: IncidentStatus; body: string }[];
  scheduledStartAt?: EpochMs | null;
  scheduledEndAt?: EpochMs | null;
  url?: string | null;
}

/**
 * Adds an incident to the vendor's page (or replaces the one with its id) and reads the page at
 * `at`. An incident later left off the page is closed by the store, as a real page dropping it.
 */
export async function addIncident(
  store: Store,
  slug: string,
  i: SeedIncident,
  at: EpochMs,
): Promise<void> {
  const page = pageOf(store, slug);
  const incident: IncidentSnapshot = {
    externalId: i.externalId,
    title: i.title,
    status: i.status,
    impact: i.impact,
    startedAt: i.startedAt,
    updatedAt: i.updatedAt ?? i.startedAt,
    resolvedAt: i.resolvedAt ?? null,
    url: i.url === undefined ? `https://example.test/incidents/${i.externalId}` : i.url,
    componentIds: i.componentIds ?? [],
    updates: i.updates ?? [],
    scheduledStartAt: i.scheduledStartAt ?? null,
    scheduledEndAt: i.scheduledEndAt ?? null,
  };
  const known = page.incidents.findIndex((x) => x.externalId === i.externalId);
  if (known >= 0) page.incidents[known] = incident;
  else page.incidents.push(incident);
  await reread(store, slug, at);
}
