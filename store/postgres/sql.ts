/**
 * SQL fragments rendered once from domain rules, so no rule is written twice (the same rules as
 * `store/sqlite/sql.ts`, in PostgreSQL's dialect): whether an incident is open, a reading's
 * state, which levels count as recovered. Private to `store/postgres/`.
 * @module
 */
import {
  CLOSED_INCIDENT_STATUSES,
  type EpochMs,
  MAINTENANCE_STATUSES,
  RECOVERED_LEVELS,
  UNREADABLE_PLATFORMS,
} from "../../domain/mod.ts";
import type { Fragment, Sql } from "./db.ts";

/** A list of SQL string literals. Only for the fixed vocabularies of domain/ (no quotes in them). */
function literals(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(", ");
}

const prefix = (alias: string) => (alias ? `${alias}.` : "");

/** `true` for an open incident row; `alias` is the incidents table's alias (or empty). */
export function openSql(sql: Sql, alias = "") {
  return sql.unsafe(`${prefix(alias)}status NOT IN (${literals(CLOSED_INCIDENT_STATUSES)})`);
}

/** `true` for a closed incident row. */
export function closedSql(sql: Sql, alias = "") {
  return sql.unsafe(`${prefix(alias)}status IN (${literals(CLOSED_INCIDENT_STATUSES)})`);
}

/** `true` for planned maintenance (domain/incident.ts `isMaintenance`). */
export function maintenanceSql(sql: Sql, alias: string) {
  return sql.unsafe(
    `(${alias}.impact = 'MAINTENANCE' OR ${alias}.status IN (${literals(MAINTENANCE_STATUSES)}))`,
  );
}

/** `true` for a vendor row whose level is a working one (`RECOVERED_LEVELS`). */
export function workingSql(sql: Sql, alias: string) {
  return sql.unsafe(`${alias}.current_status IN (${literals(RECOVERED_LEVELS)})`);
}

/** `true` for a transition row ending a disruption (domain/uptime.ts `RECOVERED_LEVELS`). */
export function recoveredSql(sql: Sql, alias: string) {
  return sql.unsafe(`${alias}.to_status IN (${literals(RECOVERED_LEVELS)})`);
}

/** The reading state over an unaliased vendors row (domain/reading.ts `readingState`). */
export function readingStateSql(sql: Sql, staleBefore: EpochMs) {
  return sql`CASE
    WHEN unsupported_reason IS NOT NULL OR (platform = 'unknown' AND detected_platform = 'unknown')
      OR COALESCE(detected_platform, platform) IN (${
    sql.unsafe(literals(UNREADABLE_PLATFORMS))
  }) THEN 'unsupported'
    WHEN last_checked_at IS NULL AND last_success_at IS NULL THEN 'never_read'
    WHEN failures > 0 THEN 'failing'
    WHEN last_success_at IS NULL OR last_success_at < ${staleBefore} THEN 'stale'
    ELSE 'fresh' END`;
}

/** Joins fragments with `AND`. */
export function and(sql: Sql, parts: readonly Fragment[]): Fragment {
  let out = sql`TRUE`;
  for (const p of parts) out = sql`${out} AND ${p}`;
  return out;
}
