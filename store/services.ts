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
  StatusLevel,
} from "../domain/mod.ts";
import { offsetOf } from "../domain/mod.ts";
import type { Db } from "./db.ts";

/** Filters of the service catalog; every field is optional and they combine with AND. */
export interface ServiceFilter {
  readonly status?: StatusLevel;
  readonly category?: string;
  readonly provider?: string;
  /** Case-insensitive substring of the name or slug. */
  readonly q?: string;
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
}

const SERVICE_COLUMNS = `id, name, slug, current_status AS currentStatus, category, provider,
  status_page_url AS statusPageUrl, COALESCE(detected_platform, platform) AS platform,
  last_checked_at AS lastCheckedAt, last_changed_at AS lastChangedAt`;

/** Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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
  if (filter.q !== undefined && filter.q !== "") {
    const pattern = `%${likeEscape(filter.q.toLowerCase())}%`;
    clauses.push("(lower(name) LIKE ? ESCAPE '\\' OR slug LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern);
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
  return db.prepare(
    `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE ${w.sql}
     ORDER BY name COLLATE NOCASE, slug LIMIT ? OFFSET ?`,
  ).all(...w.params, page.limit, offsetOf(page)) as unknown as ServiceRow[];
}

/** The catalog service with `slug`, or null. */
export function getServiceRow(db: Db, slug: string): ServiceRow | null {
  const row = db.prepare(`SELECT ${SERVICE_COLUMNS} FROM vendors WHERE slug = ? AND in_catalog = 1`)
    .get(slug);
  return (row as ServiceRow | undefined) ?? null;
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
