/**
 * Reading services out of SQLite: the row mapping, the catalog filters, components, and the
 * service-level transitions uptime maths reads. Helpers of the catalog, incidents and history
 * nouns; each runs inside its caller's read transaction.
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
import { type Db, statement } from "./db.ts";
import { jsonList, READING_STATE_SQL, recoveredSql } from "./sql.ts";

export { type RawServiceRow, toServiceRow };

/** The columns {@link toServiceRow} reads, from `vendors` (unaliased). */
export const SERVICE_COLUMNS = `id, name, slug, current_status AS currentStatus, category, provider,
  status_page_url AS statusPageUrl, COALESCE(detected_platform, platform) AS platform,
  last_checked_at AS lastCheckedAt, last_changed_at AS lastChangedAt,
  platform AS listedPlatform, detected_platform AS detectedPlatform,
  last_success_at AS lastSuccessAt, failures, error_kind AS errorKind,
  error_http_status AS errorHttpStatus, error_message AS errorMessage, error_since AS errorSince,
  reading_notes AS readingNotes, unsupported_reason AS unsupportedReason,
  redetected_at AS redetectedAt, redetected_from AS redetectedFrom, redetected_to AS redetectedTo`;

/** The WHERE clause (over unaliased `vendors`) and parameters of a catalog filter. */
export function serviceWhere(filter: ServiceFilter): { sql: string; params: (string | number)[] } {
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

/** The catalog service with `slug`, or null. */
export function serviceBySlug(db: Db, slug: string): ServiceRow | null {
  const row = statement(
    db,
    `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE slug = ? AND in_catalog = 1`,
  )
    .get(slug);
  return row === undefined ? null : toServiceRow(row as unknown as RawServiceRow);
}

/** Current (not removed) components of a vendor, in the vendor's own order. */
export function componentsOf(db: Db, vendorId: number): Component[] {
  const rows = statement(
    db,
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

/**
 * Service-level transitions (component NULL) of each vendor in `vendorIds`, starting from the
 * last one at or before `start` (`"last"`) or from the last recovery at or before `start`
 * (`"recovery"`), through those before `end` plus the first one at or after `end` (its `from`
 * tells the level before it: a vendor first observed after the window was UNKNOWN during it);
 * oldest first per vendor. Vendors without transitions map to `[]`.
 */
export function serviceTransitions(
  db: Db,
  vendorIds: readonly number[],
  window: TimeWindow,
  lookback: Lookback = "last",
): Map<number, StatusTransition[]> {
  const out = new Map<number, StatusTransition[]>(vendorIds.map((id) => [id, []]));
  if (vendorIds.length === 0) return out;
  const { start, end } = window;
  const recovered = lookback === "recovery" ? `AND ${recoveredSql("p")}` : "";
  const ids = jsonList(vendorIds);
  const rows = statement(
    db,
    `SELECT t.vendor_id AS vendorId, t.at, t.from_status AS "from", t.to_status AS "to"
     FROM transitions t
     WHERE t.component_id IS NULL AND t.vendor_id IN (SELECT value FROM json_each(?))
       AND (t.at < ? OR t.id = (SELECT n.id FROM transitions n WHERE n.vendor_id = t.vendor_id
            AND n.component_id IS NULL AND n.at >= ? ORDER BY n.at, n.id LIMIT 1))
       AND t.at >= COALESCE((SELECT MAX(p.at) FROM transitions p
            WHERE p.vendor_id = t.vendor_id AND p.component_id IS NULL AND p.at <= ? ${recovered}),
          ${lookback === "recovery" ? "-1" : "?"})
     ORDER BY t.vendor_id, t.at, t.id`,
  ).all(...(lookback === "recovery" ? [ids, end, end, start] : [ids, end, end, start, start])) as {
    vendorId: number;
    at: number;
    from: StatusLevel;
    to: StatusLevel;
  }[];
  for (const r of rows) out.get(r.vendorId)?.push({ at: r.at, from: r.from, to: r.to });
  return out;
}

/** `rows` each with its transitions over `window` (lookback "last"). */
export function withHistory(
  db: Db,
  rows: readonly ServiceRow[],
  window: TimeWindow,
  lookback: Lookback = "last",
): ServiceWithHistory[] {
  const transitions = serviceTransitions(db, rows.map((r) => r.id), window, lookback);
  return rows.map((service) => ({ service, transitions: transitions.get(service.id) ?? [] }));
}

/** When each catalog service's page content last changed: status change or incident update. */
export function lastModifiedBySlug(db: Db): { slug: string; lastModified: EpochMs | null }[] {
  return statement(
    db,
    `SELECT v.slug, MAX(COALESCE(v.last_changed_at, 0),
       COALESCE((SELECT MAX(i.updated_at) FROM incidents i WHERE i.vendor_id = v.id), 0)) AS m
     FROM vendors v WHERE v.in_catalog = 1 ORDER BY v.slug`,
  ).all().map((r) => {
    const row = r as { slug: string; m: number };
    return { slug: row.slug, lastModified: row.m > 0 ? row.m : null };
  });
}
