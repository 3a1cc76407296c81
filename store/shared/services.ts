/**
 * Reading services, once for both engines: the row mapping, the catalog filters, components,
 * and the service-level transitions uptime maths reads. Helpers of the catalog, incidents and
 * history nouns; each runs inside its caller's transaction.
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
import { all, type Dialect, first, type Param, type Query, type Row } from "./query.ts";
import { type RawServiceRow, toServiceRow } from "./service_rows.ts";
import { LISTED_SQL, listedSql, READING_STATE_SQL, recoveredSql } from "./sql.ts";

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

/** Rows of {@link SERVICE_COLUMNS} as service rows. */
export function toServiceRows(rows: readonly Row[]): ServiceRow[] {
  return rows.map((r) => toServiceRow(r as unknown as RawServiceRow));
}

/** `ORDER BY` of catalog listings: by name ignoring ASCII case, then slug. */
export function byName(d: Dialect): string {
  return `${d.caselessOrder("name")}, ${d.binary("slug")}`;
}

/** The WHERE clause (over unaliased `vendors`) and parameters of a catalog filter. */
export function serviceWhere(filter: ServiceFilter): { sql: string; params: Param[] } {
  const clauses: string[] = [];
  const params: Param[] = [];
  if (filter.account !== undefined) {
    clauses.push(
      `in_catalog = 1 AND (origin IN ('catalog', 'promoted') OR id IN
         (SELECT vendor_id FROM account_vendors WHERE account_id = ?))`,
    );
    params.push(filter.account);
  } else clauses.push(LISTED_SQL);
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
  if (filter.slowestToAdmit !== undefined) {
    clauses.push(
      `(SELECT COUNT(*) FROM warning_episodes e WHERE e.vendor_id = vendors.id
         AND e.first_evidence_at >= ?) >= ?`,
    );
    params.push(filter.slowestToAdmit.since, filter.slowestToAdmit.minEpisodes);
  }
  return { sql: clauses.join(" AND "), params };
}

/**
 * `ORDER BY` of a catalog listing under `filter` and its parameters: slowest to admit trouble
 * first (average acknowledgement delay, longest first) when it asks, then by name.
 */
export function listingOrder(d: Dialect, filter: ServiceFilter): { sql: string; params: Param[] } {
  if (filter.slowestToAdmit === undefined) return { sql: byName(d), params: [] };
  return {
    sql: `(SELECT AVG(e.delay_ms) FROM warning_episodes e WHERE e.vendor_id = vendors.id
            AND e.first_evidence_at >= ?) DESC, ${byName(d)}`,
    params: [filter.slowestToAdmit.since],
  };
}

/** The catalog service with `slug`, or null. */
export function* serviceBySlug(slug: string): Query<ServiceRow | null> {
  const row = yield* first(
    `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE slug = ? AND in_catalog = 1`,
    slug,
  );
  return row === undefined ? null : toServiceRows([row])[0]!;
}

/** Current (not removed) components of a vendor, in the vendor's own order. */
export function* componentsOf(d: Dialect, vendorId: number): Query<Component[]> {
  const rows = yield* all(
    `SELECT id, external_id, name, status, group_name AS "group", updated_at AS "updatedAt"
       FROM components
     WHERE vendor_id = ? AND removed_at IS NULL ORDER BY position, ${d.binary("name")}, id`,
    vendorId,
  );
  return rows.map((r) => ({
    id: String(r.id),
    externalId: String(r.external_id),
    name: String(r.name),
    status: r.status as StatusLevel,
    group: (r.group as string | null) ?? null,
    updatedAt: Number(r.updatedAt),
  }));
}

/**
 * Service-level transitions (component NULL) of each vendor in `vendorIds`, starting from the
 * last one at or before `start` (`"last"`) or from the last recovery at or before `start`
 * (`"recovery"`), through those before `end` plus the first one at or after `end` (its `from`
 * tells the level before it: a vendor first observed after the window was UNKNOWN during it);
 * oldest first per vendor. Vendors without transitions map to `[]`.
 */
export function* serviceTransitions(
  d: Dialect,
  vendorIds: readonly number[],
  window: TimeWindow,
  lookback: Lookback = "last",
): Query<Map<number, StatusTransition[]>> {
  const out = new Map<number, StatusTransition[]>(vendorIds.map((id) => [id, []]));
  if (vendorIds.length === 0) return out;
  const { start, end } = window;
  const recovery = lookback === "recovery";
  const rows = yield* all(
    `SELECT t.vendor_id AS "vendorId", t.at, t.from_status AS "from", t.to_status AS "to"
     FROM transitions t
     WHERE t.component_id IS NULL AND ${d.inJson("t.vendor_id", "bigint")}
       AND (t.at < ? OR t.id = (SELECT n.id FROM transitions n WHERE n.vendor_id = t.vendor_id
            AND n.component_id IS NULL AND n.at >= ? ORDER BY n.at, n.id LIMIT 1))
       AND t.at >= COALESCE((SELECT MAX(p.at) FROM transitions p
            WHERE p.vendor_id = t.vendor_id AND p.component_id IS NULL AND p.at <= ?
            ${recovery ? `AND ${recoveredSql("p")}` : ""}), ?)
     ORDER BY t.vendor_id, t.at, t.id`,
    JSON.stringify(vendorIds),
    end,
    end,
    start,
    recovery ? -1 : start,
  );
  for (const r of rows) {
    out.get(Number(r.vendorId))?.push({
      at: Number(r.at),
      from: r.from as StatusLevel,
      to: r.to as StatusLevel,
    });
  }
  return out;
}

/** `rows` each with its transitions over `window` (lookback "last"). */
export function* withHistory(
  d: Dialect,
  rows: readonly ServiceRow[],
  window: TimeWindow,
  lookback: Lookback = "last",
): Query<ServiceWithHistory[]> {
  const transitions = yield* serviceTransitions(d, rows.map((r) => r.id), window, lookback);
  return rows.map((service) => ({ service, transitions: transitions.get(service.id) ?? [] }));
}

/** When each catalog service's page content last changed: status change or incident update. */
export function* lastModifiedBySlug(
  d: Dialect,
): Query<{ slug: string; lastModified: EpochMs | null }[]> {
  const rows = yield* all(
    `SELECT v.slug, ${
      d.greatest(
        "COALESCE(v.last_changed_at, 0)",
        "COALESCE((SELECT MAX(i.updated_at) FROM incidents i WHERE i.vendor_id = v.id), 0)",
      )
    } AS m
     FROM vendors v WHERE ${listedSql("v")} ORDER BY ${d.binary("v.slug")}`,
  );
  return rows.map((r) => ({
    slug: String(r.slug),
    lastModified: Number(r.m) > 0 ? Number(r.m) : null,
  }));
}
