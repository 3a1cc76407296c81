/**
 * Reading services out of PostgreSQL: the catalog filters, components, and the service-level
 * transitions uptime maths reads. Helpers of the catalog, incidents and history nouns; each
 * runs on its caller's transaction. Rows map to domain values through the SQLite store's
 * `toServiceRow`, so both engines answer the same.
 * @module
 */
import type {
  Component,
  EpochMs,
  Lookback,
  ServiceFilter,
  ServiceRow,
  ServiceWithHistory,
  StatusLevel,
  StatusTransition,
  TimeWindow,
} from "../../domain/mod.ts";
import { type RawServiceRow, toServiceRow } from "../shared/service_rows.ts";
import type { Fragment, Sql } from "./db.ts";
import { and, readingStateSql, recoveredSql } from "./sql.ts";

/** The columns {@link toServiceRow} reads, from `vendors` (unaliased). */
export const SERVICE_COLUMNS = `id, name, slug, current_status AS "currentStatus", category,
  provider, status_page_url AS "statusPageUrl", COALESCE(detected_platform, platform) AS platform,
  last_checked_at AS "lastCheckedAt", last_changed_at AS "lastChangedAt",
  platform AS "listedPlatform", detected_platform AS "detectedPlatform",
  last_success_at AS "lastSuccessAt", failures, error_kind AS "errorKind",
  error_http_status AS "errorHttpStatus", error_message AS "errorMessage",
  error_since AS "errorSince", reading_notes AS "readingNotes",
  unsupported_reason AS "unsupportedReason", redetected_at AS "redetectedAt",
  redetected_from AS "redetectedFrom", redetected_to AS "redetectedTo"`;

/** The service columns as a fragment. */
export function serviceColumns(sql: Sql): Fragment {
  return sql.unsafe(SERVICE_COLUMNS);
}

/** `ORDER BY` of catalog listings: by name ignoring ASCII case (as SQLite's NOCASE), then slug. */
export function byName(sql: Sql): Fragment {
  return sql.unsafe(`lower(name) COLLATE "C", slug COLLATE "C"`);
}

/** Rows of {@link SERVICE_COLUMNS} as service rows. */
export function toServiceRows(rows: readonly Record<string, unknown>[]): ServiceRow[] {
  return rows.map((r) => toServiceRow(r as unknown as RawServiceRow));
}

/** The WHERE clause (over unaliased `vendors`) of a catalog filter. */
export function serviceWhere(sql: Sql, filter: ServiceFilter): Fragment {
  const parts: Fragment[] = [sql`in_catalog = 1`];
  if (filter.status !== undefined) parts.push(sql`current_status = ${filter.status}`);
  if (filter.category !== undefined) parts.push(sql`category = ${filter.category}`);
  if (filter.provider !== undefined) parts.push(sql`provider = ${filter.provider}`);
  if (filter.reading !== undefined) {
    if (filter.staleBefore === undefined) throw new Error("a reading filter needs staleBefore");
    parts.push(sql`(${readingStateSql(sql, filter.staleBefore)}) = ${filter.reading}`);
  }
  return and(sql, parts);
}

/** The catalog service with `slug`, or null. */
export async function serviceBySlug(sql: Sql, slug: string): Promise<ServiceRow | null> {
  const rows = await sql`SELECT ${serviceColumns(sql)} FROM vendors
    WHERE slug = ${slug} AND in_catalog = 1`;
  return rows.length === 0 ? null : toServiceRows(rows)[0]!;
}

/** Current (not removed) components of a vendor, in the vendor's own order. */
export async function componentsOf(sql: Sql, vendorId: number): Promise<Component[]> {
  const rows = await sql`SELECT id, name, status, group_name AS "group", updated_at AS "updatedAt"
    FROM components WHERE vendor_id = ${vendorId} AND removed_at IS NULL
    ORDER BY position, name COLLATE "C", id`;
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    status: r.status as StatusLevel,
    group: (r.group as string | null) ?? null,
    updatedAt: Number(r.updatedAt),
  }));
}

/**
 * Service-level transitions of each vendor in `vendorIds` over `window` (the same rows as the
 * SQLite store's `serviceTransitions`: from the last one at or before the start, or the last
 * recovery, through the first one at or after the end), oldest first per vendor.
 */
export async function serviceTransitions(
  sql: Sql,
  vendorIds: readonly number[],
  window: TimeWindow,
  lookback: Lookback = "last",
): Promise<Map<number, StatusTransition[]>> {
  const out = new Map<number, StatusTransition[]>(vendorIds.map((id) => [id, []]));
  if (vendorIds.length === 0) return out;
  const { start, end } = window;
  const recovery = lookback === "recovery";
  const floor = recovery ? sql`-1` : sql`${start}`;
  const rows = await sql`
    SELECT t.vendor_id AS "vendorId", t.at, t.from_status AS "from", t.to_status AS "to"
    FROM transitions t
    WHERE t.component_id IS NULL AND t.vendor_id = ANY(${sql.array([...vendorIds])}::bigint[])
      AND (t.at < ${end} OR t.id = (SELECT n.id FROM transitions n WHERE n.vendor_id = t.vendor_id
           AND n.component_id IS NULL AND n.at >= ${end} ORDER BY n.at, n.id LIMIT 1))
      AND t.at >= COALESCE((SELECT MAX(p.at) FROM transitions p
           WHERE p.vendor_id = t.vendor_id AND p.component_id IS NULL AND p.at <= ${start}
           ${recovery ? sql`AND ${recoveredSql(sql, "p")}` : sql``}), ${floor})
    ORDER BY t.vendor_id, t.at, t.id`;
  for (const r of rows) {
    out.get(Number(r.vendorId))?.push({
      at: Number(r.at),
      from: r.from as StatusLevel,
      to: r.to as StatusLevel,
    });
  }
  return out;
}

/** `rows` each with its transitions over `window`. */
export async function withHistory(
  sql: Sql,
  rows: readonly ServiceRow[],
  window: TimeWindow,
  lookback: Lookback = "last",
): Promise<ServiceWithHistory[]> {
  const transitions = await serviceTransitions(sql, rows.map((r) => r.id), window, lookback);
  return rows.map((service) => ({ service, transitions: transitions.get(service.id) ?? [] }));
}

/** When each catalog service's page content last changed: status change or incident update. */
export async function lastModifiedBySlug(
  sql: Sql,
): Promise<{ slug: string; lastModified: EpochMs | null }[]> {
  const rows = await sql`SELECT v.slug, GREATEST(COALESCE(v.last_changed_at, 0),
      COALESCE((SELECT MAX(i.updated_at) FROM incidents i WHERE i.vendor_id = v.id), 0)) AS m
    FROM vendors v WHERE v.in_catalog = 1 ORDER BY v.slug COLLATE "C"`;
  return rows.map((r) => ({
    slug: String(r.slug),
    lastModified: Number(r.m) > 0 ? Number(r.m) : null,
  }));
}
