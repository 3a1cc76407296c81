/**
 * Per-vendor caps on what accumulates across readings (domain STORE_LIMITS), once for both
 * engines, enforced inside the reading's transaction when domain/reading_diff.ts says the
 * reading may have pushed past one, so one vendor churning ids, timelines or statuses every
 * poll cannot grow the database without bound. Each keeps the newest rows up to the cap,
 * touching only the rows of the vendor, incident or components just written.
 * @module
 */
import { STORE_LIMITS } from "../../domain/mod.ts";
import { all, type Dialect, type Query, run } from "./query.ts";
import { openSql } from "./sql.ts";

/** Keeps the most recently removed components of a vendor (and their history) up to the cap. */
export function* trimRemovedComponents(
  d: Dialect,
  vendorId: number,
  keep = STORE_LIMITS.removedComponentsPerVendor,
): Query<number> {
  const doomed = yield* all(
    `SELECT id FROM components WHERE vendor_id = ? AND removed_at IS NOT NULL
     ORDER BY removed_at DESC, id DESC ${d.offsetOnly}`,
    vendorId,
    keep,
  );
  return yield* deleteComponents(d, doomed.map((r) => Number(r.id)));
}

/** Deletes components by row id, with their transitions first (foreign keys). */
export function* deleteComponents(d: Dialect, ids: readonly number[]): Query<number> {
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  yield* run(`DELETE FROM transitions WHERE ${d.inJson("component_id", "bigint")}`, list);
  return yield* run(`DELETE FROM components WHERE ${d.inJson("id", "bigint")}`, list);
}

/** Keeps the newest status changes of each of `componentIds` up to the cap. */
export function* trimComponentTransitions(
  vendorId: number,
  componentIds: readonly number[],
  keep = STORE_LIMITS.transitionsPerComponent,
): Query<void> {
  for (const id of componentIds) {
    yield* run(
      `DELETE FROM transitions WHERE vendor_id = ? AND component_id = ?
         AND id < (SELECT id FROM transitions WHERE vendor_id = ? AND component_id = ?
                   ORDER BY id DESC LIMIT 1 OFFSET ?)`,
      vendorId,
      id,
      vendorId,
      id,
      keep - 1,
    );
  }
}

/** Keeps the newest timeline entries of an incident up to the cap. */
export function* trimTimeline(
  incidentId: number,
  keep = STORE_LIMITS.updatesPerIncident,
): Query<void> {
  yield* run(
    `DELETE FROM incident_updates WHERE incident_id = ? AND id NOT IN
       (SELECT id FROM incident_updates WHERE incident_id = ? ORDER BY at DESC, id DESC LIMIT ?)`,
    incidentId,
    incidentId,
    keep,
  );
}

/**
 * Keeps a vendor's incidents up to the cap: open ones always, then the most recently closed;
 * the oldest closed ones go, with their timelines.
 */
export function* trimIncidents(
  d: Dialect,
  vendorId: number,
  keep = STORE_LIMITS.incidentsPerVendor,
): Query<number> {
  const doomed = yield* all(
    `SELECT id FROM incidents WHERE vendor_id = ?
     ORDER BY (${openSql()}) DESC, COALESCE(resolved_at, updated_at) DESC, id DESC
     ${d.offsetOnly}`,
    vendorId,
    keep,
  );
  return yield* deleteIncidents(d, doomed.map((r) => Number(r.id)));
}

/** Deletes incidents by row id, with their timelines first (foreign keys). */
export function* deleteIncidents(d: Dialect, ids: readonly number[]): Query<number> {
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  yield* run(`DELETE FROM incident_updates WHERE ${d.inJson("incident_id", "bigint")}`, list);
  yield* run(`DELETE FROM incident_revisions WHERE ${d.inJson("incident_id", "bigint")}`, list);
  return yield* run(`DELETE FROM incidents WHERE ${d.inJson("id", "bigint")}`, list);
}
