/**
 * SQL fragments rendered once from domain rules, so no rule is written twice: whether an
 * incident is open (`CLOSED_INCIDENT_STATUSES`), a reading's state (`readingState`), and
 * which levels count as recovered. SQL both engines speak, for the shared algorithms and both
 * engines' own statements.
 * @module
 */
import {
  CLOSED_INCIDENT_STATUSES,
  MAINTENANCE_STATUSES,
  RECOVERED_LEVELS,
  UNREADABLE_PLATFORMS,
} from "../../domain/mod.ts";

/** A list of SQL string literals. Only for the fixed vocabularies of domain/ (no quotes in them). */
function literals(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(", ");
}

/** `true` for an open incident row; `alias` is the incidents table's alias (or empty). */
export function openSql(alias = ""): string {
  return `${alias ? `${alias}.` : ""}status NOT IN (${literals(CLOSED_INCIDENT_STATUSES)})`;
}

/** `true` for a closed incident row. */
export function closedSql(alias = ""): string {
  return `${alias ? `${alias}.` : ""}status IN (${literals(CLOSED_INCIDENT_STATUSES)})`;
}

/** `true` for planned maintenance (domain/incident.ts `isMaintenance`). */
export function maintenanceSql(alias: string): string {
  return `(${alias}.impact = 'MAINTENANCE' OR ${alias}.status IN (${
    literals(MAINTENANCE_STATUSES)
  }))`;
}

/** `true` for a vendor row whose level is a working one (`RECOVERED_LEVELS`). */
export function workingSql(alias: string): string {
  return `${alias}.current_status IN (${literals(RECOVERED_LEVELS)})`;
}

/** `true` for a transition row ending a disruption (domain/uptime.ts `RECOVERED_LEVELS`). */
export function recoveredSql(alias: string): string {
  return `${alias}.to_status IN (${literals(RECOVERED_LEVELS)})`;
}

/**
 * The reading state as SQL over a vendors row, the same rules as domain/reading.ts
 * `readingState` (`?` is `staleBefore`); tests check the two agree.
 */
export const READING_STATE_SQL = `CASE
  WHEN unsupported_reason IS NOT NULL OR (platform = 'unknown' AND detected_platform = 'unknown')
    OR COALESCE(detected_platform, platform) IN (${
  literals(UNREADABLE_PLATFORMS)
}) THEN 'unsupported'
  WHEN last_checked_at IS NULL AND last_success_at IS NULL THEN 'never_read'
  WHEN failures > 0 THEN 'failing'
  WHEN last_success_at IS NULL OR last_success_at < ? THEN 'stale'
  ELSE 'fresh' END`;

/**
 * Vendors everyone sees listed (`alias`: the table's alias, if any): polled, and from the catalog
 * or promoted by the operator; what an account added by URL is listed for that account only.
 */
export function listedSql(alias = ""): string {
  const a = alias === "" ? "" : `${alias}.`;
  return `${a}in_catalog = 1 AND ${a}origin IN ('catalog', 'promoted')`;
}

/** {@link listedSql} over unaliased `vendors`. */
export const LISTED_SQL = listedSql();
