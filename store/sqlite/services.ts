/**
 * Read queries over the catalog: services (vendors) with filters and paging, one service's
 * components and open incidents, provider roll-ups. Writers live elsewhere.
 * @module
 */
import type {
  Category,
  Component,
  EpochMs,
  PageRequest,
  Platform,
  ReadingFacts,
  ReadingState,
  StatusLevel,
} from "../domain/mod.ts";
import {
  isReadingErrorKind,
  offsetOf,
  READING_STATES,
  UNREADABLE_PLATFORMS,
} from "../domain/mod.ts";
import type { Db } from "./db.ts";

/**
 * Filters of the service catalog; every field is optional and they combine with AND. (Text
 * search is ranked by the app over {@link serviceCandidates}.)
 */
export interface ServiceFilter {
  readonly status?: StatusLevel;
  readonly category?: string;
  readonly provider?: string;
  /** Reading state (domain/reading.ts `readingState`); needs `staleBefore`. */
  readonly reading?: ReadingState;
  /** A last success before this instant is stale (domain/reading.ts `staleBefore`). */
  readonly staleBefore?: EpochMs;
}

/** One vendor as stored, with its row id (for follow-up queries). */
export interface ServiceRow {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly currentStatus: StatusLevel;
  readonly category: Category;
  readonly provider: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly lastCheckedAt: EpochMs | null;
  readonly lastChangedAt: EpochMs | null;
  /** What is stored about its readings (reading health is computed from these). */
  readonly reading: ReadingFacts;
}

const SERVICE_COLUMNS = `id, name, slug, current_status AS currentStatus, category, provider,
  status_page_url AS statusPageUrl, COALESCE(detected_platform, platform) AS platform,
  last_checked_at AS lastCheckedAt, last_changed_at AS lastChangedAt,
  platform AS listedPlatform, detected_platform AS detectedPlatform,
  last_success_at AS lastSuccessAt, failures, error_kind AS errorKind,
  error_http_status AS errorHttpStatus, error_message AS errorMessage, error_since AS errorSince,
  reading_notes AS readingNotes, unsupported_reason AS unsupportedReason,
  redetected_at AS redetectedAt, redetected_from AS redetectedFrom, redetected_to AS redetectedTo`;

interface RawServiceRow extends Omit<ServiceRow, "reading"> {
  listedPlatform: Platform;
  detectedPlatform: Platform | null;
  lastSuccessAt: number | null;
  failures: number;
  errorKind: string | null;
  errorHttpStatus: number | null;
  errorMessage: string | null;
  errorSince: number | null;
  readingNotes: string;
  unsupportedReason: string | null;
  redetectedAt: number | null;
  redetectedFrom: Platform | null;
  redetectedTo: Platform | null;
}

function toServiceRow(r: RawServiceRow): ServiceRow {
  let notes: string[] = [];
  try {
    const parsed: unknown = JSON.parse(r.readingNotes);
    if (Array.isArray(parsed)) notes = parsed.filter((n): n is string => typeof n === "string");
  } catch {
    // A damaged notes column reads as no notes.
  }
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    currentStatus: r.currentStatus,
    category: r.category,
    provider: r.provider,
    statusPageUrl: r.statusPageUrl,
    platform: r.platform,
    lastCheckedAt: r.lastCheckedAt,
    lastChangedAt: r.lastChangedAt,
    reading: {
      platform: r.platform,
      listedPlatform: r.listedPlatform,
      detectedPlatform: r.detectedPlatform,
      unsupportedReason: r.unsupportedReason,
      lastAttemptAt: r.lastCheckedAt,
      lastSuccessAt: r.lastSuccessAt,
      consecutiveFailures: r.failures,
      error: r.failures > 0 && isReadingErrorKind(r.errorKind)
        ? {
          kind: r.errorKind,
          httpStatus: r.errorHttpStatus,
          message: r.errorMessage ?? "",
          since: r.errorSince ?? r.lastCheckedAt ?? 0,
        }
        : null,
      notes,
      redetection: r.redetectedAt !== null && r.redetectedFrom !== null
        ? { at: r.redetectedAt, from: r.redetectedFrom, to: r.redetectedTo ?? "unknown" }
        : null,
    },
  };
}

const UNREADABLE_SQL = UNREADABLE_PLATFORMS.map((p) => `'${p}'`).join(", ");

/**
 * The reading state as SQL over a vendors row, the same rules as domain/reading.ts
 * `readingState` (`?` is `staleBefore`); tests check the two agree.
 */
const READING_STATE_SQL = `CASE
  WHEN unsupported_reason IS NOT NULL OR (platform = 'unknown' AND detected_platform = 'unknown')
    OR COALESCE(detected_platform, platform) IN (${UNREADABLE_SQL}) THEN 'unsupported'
  WHEN last_checked_at IS NULL AND last_success_at IS NULL THEN 'never_read'
  WHEN failures > 0 THEN 'failing'
  WHEN last_success_at IS NULL OR last_success_at < ? THEN 'stale'
  ELSE 'fresh' END`;

function whereOf(filter: ServiceFilter): { sql: string; params: (string | number)[] } {
  const clauses = ["in_catalog = 1"];
  const params: (string | number)[] = [];
  if (filter.status !== undefined) {
    clauses.push("current_status = ?");
    params.push(filter.status);
  }
  if (filter.category !== undefined) {
    clauses.push("category = ?");
    params.push(filter.category);
  }
  if (filter.provider !== undefined) {
    clauses.push("provider = ?");
    params.push(filter.provider);
  }
  if (filter.reading !== undefined) {
    if (filter.staleBefore === undefined) throw new Error("a reading filter needs staleBefore");
    clauses.push(`(${READING_STATE_SQL}) = ?`);
    params.push(filter.staleBefore, filter.reading);
  }
  return { sql: clauses.join(" AND "), params };
}

/** Number of catalog services matching `filter`. */
export function countServices(db: Db, filter: ServiceFilter): number {
  const w = whereOf(filter);
  const row = db.prepare(`SELECT COUNT(*) AS n FROM vendors WHERE ${w.sql}`).get(...w.params) as {
    n: number;
  };
  return row.n;
}

/** One page of catalog services matching `filter`, ordered by name (case-insensitive), then slug. */
export function listServiceRows(db: Db, filter: ServiceFilter, page: PageRequest): ServiceRow[] {
  const w = whereOf(filter);
  return (db.prepare(
    `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE ${w.sql}
     ORDER BY name COLLATE NOCASE, slug LIMIT ? OFFSET ?`,
  ).all(...w.params, page.limit, offsetOf(page)) as unknown as RawServiceRow[]).map(toServiceRow);
}

/** A catalog service as text search sees it. */
export interface ServiceCandidate {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly domains: readonly string[];
}

/** Every catalog service matching `filter`, with what text search ranks on. */
export function serviceCandidates(db: Db, filter: ServiceFilter): ServiceCandidate[] {
  const w = whereOf(filter);
  const rows = db.prepare(`SELECT id, name, slug, domains FROM vendors WHERE ${w.sql}`)
    .all(...w.params) as { id: number; name: string; slug: string; domains: string }[];
  return rows.map((r) => ({ ...r, domains: JSON.parse(r.domains) as string[] }));
}

/** The catalog services with these row ids, in the order given (unknown ids are skipped). */
export function serviceRowsByIds(db: Db, ids: readonly number[]): ServiceRow[] {
  if (ids.length === 0) return [];
  const rows = db.prepare(
    `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as unknown as RawServiceRow[];
  const byId = new Map(rows.map((r) => [r.id, toServiceRow(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The catalog service with `slug`, or null. */
export function getServiceRow(db: Db, slug: string): ServiceRow | null {
  const row = db.prepare(`SELECT ${SERVICE_COLUMNS} FROM vendors WHERE slug = ? AND in_catalog = 1`)
    .get(slug);
  return row === undefined ? null : toServiceRow(row as unknown as RawServiceRow);
}

/** Every catalog service's name and slug (for "did you mean" suggestions). */
export function serviceNames(db: Db): { name: string; slug: string }[] {
  return db.prepare("SELECT name, slug FROM vendors WHERE in_catalog = 1 ORDER BY slug")
    .all() as unknown as { name: string; slug: string }[];
}

/** Current (not removed) components of a vendor, in the vendor's own order. */
export function componentsOf(db: Db, vendorId: number): Component[] {
  const rows = db.prepare(
    `SELECT id, name, status, group_name AS "group", updated_at AS updatedAt FROM components
     WHERE vendor_id = ? AND removed_at IS NULL ORDER BY position, name, id`,
  ).all(vendorId) as {
    id: number;
    name: string;
    status: StatusLevel;
    group: string | null;
    updatedAt: number;
  }[];
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}

/** One provider's roll-up over its catalog services. */
export interface ProviderRow {
  readonly provider: string;
  /** Names of its services, ordered by name (the app derives a display name). */
  readonly serviceNames: string[];
  readonly byStatus: Partial<Record<StatusLevel, number>>;
  readonly activeIncidents: number;
  /** Vendor ids of its services (for uptime). */
  readonly vendorIds: number[];
  /** Current level of each service, parallel to `vendorIds`. */
  readonly statuses: StatusLevel[];
}

/** One row per provider, ordered by provider slug. */
export function providerRows(db: Db): ProviderRow[] {
  const rows = db.prepare(
    `SELECT v.id, v.provider, v.name, v.current_status AS status,
       (SELECT COUNT(*) FROM incidents i WHERE i.vendor_id = v.id
          AND i.status NOT IN ('RESOLVED', 'COMPLETED')) AS open
     FROM vendors v WHERE v.in_catalog = 1 ORDER BY v.provider, v.name COLLATE NOCASE, v.slug`,
  ).all() as { id: number; provider: string; name: string; status: StatusLevel; open: number }[];
  const out: ProviderRow[] = [];
  let current: ProviderRow | null = null;
  for (const r of rows) {
    if (current === null || current.provider !== r.provider) {
      current = {
        provider: r.provider,
        serviceNames: [],
        byStatus: {},
        activeIncidents: 0,
        vendorIds: [],
        statuses: [],
      };
      out.push(current);
    }
    current.serviceNames.push(r.name);
    current.vendorIds.push(r.id);
    current.statuses.push(r.status);
    current.byStatus[r.status] = (current.byStatus[r.status] ?? 0) + 1;
    (current as { activeIncidents: number }).activeIncidents += r.open;
  }
  return out;
}

/** When each catalog service's page content last changed: status change or incident update. */
export function serviceLastModified(db: Db): { slug: string; lastModified: EpochMs | null }[] {
  return db.prepare(
    `SELECT v.slug, MAX(COALESCE(v.last_changed_at, 0),
       COALESCE((SELECT MAX(i.updated_at) FROM incidents i WHERE i.vendor_id = v.id), 0)) AS m
     FROM vendors v WHERE v.in_catalog = 1 ORDER BY v.slug`,
  ).all().map((r) => {
    const row = r as { slug: string; m: number };
    return { slug: row.slug, lastModified: row.m > 0 ? row.m : null };
  });
}

/** Counts for the health endpoint. */
export interface StoreCounts {
  readonly services: number;
  readonly components: number;
  readonly openIncidents: number;
  readonly transitions: number;
  readonly lastCheckedAt: EpochMs | null;
}

/** Row counts and the newest check time (also proves the database answers). */
export function storeCounts(db: Db): StoreCounts {
  return db.prepare(
    `SELECT (SELECT COUNT(*) FROM vendors WHERE in_catalog = 1) AS services,
       (SELECT COUNT(*) FROM components WHERE removed_at IS NULL) AS components,
       (SELECT COUNT(*) FROM incidents WHERE status NOT IN ('RESOLVED', 'COMPLETED')) AS openIncidents,
       (SELECT COUNT(*) FROM transitions) AS transitions,
       (SELECT MAX(last_checked_at) FROM vendors) AS lastCheckedAt`,
  ).get() as unknown as StoreCounts;
}

/** Catalog services per reading state (every state present), for `/healthz` and the home page. */
export function readingStateCounts(db: Db, staleBefore: EpochMs): Record<ReadingState, number> {
  const rows = db.prepare(
    `SELECT state, COUNT(*) AS n FROM (SELECT ${READING_STATE_SQL} AS state FROM vendors
     WHERE in_catalog = 1) GROUP BY state`,
  ).all(staleBefore) as { state: ReadingState; n: number }[];
  const out = Object.fromEntries(READING_STATES.map((s) => [s, 0])) as Record<
    ReadingState,
    number
  >;
  for (const r of rows) out[r.state] = r.n;
  return out;
}

/** Number of polls per outcome (`ok`, `not_modified` or an error kind) since `since`. */
export function pollOutcomesSince(db: Db, since: EpochMs): Record<string, number> {
  const rows = db.prepare(
    "SELECT outcome, COUNT(*) AS n FROM fetches WHERE at >= ? GROUP BY outcome ORDER BY outcome",
  ).all(since) as { outcome: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
}
