/**
 * Per-vendor caps on what accumulates across readings (domain STORE_LIMITS), enforced inside the
 * reading's transaction when domain/reading_diff.ts says the reading may have pushed past one,
 * so one vendor churning ids, timelines or statuses every poll cannot grow the database without
 * bound. Each keeps the newest rows up to the cap, touching only the rows of the vendor,
 * incident or components just written.
 * @module
 */
import { STORE_LIMITS } from "../../domain/mod.ts";
import { type Db, statement } from "./db.ts";
import { openSql } from "../shared/sql.ts";

/** Keeps the most recently removed components of a vendor (and their history) up to the cap. */
export function trimRemovedComponents(
  db: Db,
  vendorId: number,
  keep = STORE_LIMITS.removedComponentsPerVendor,
): number {
  const doomed = statement(
    db,
    `SELECT id FROM components WHERE vendor_id = ? AND removed_at IS NOT NULL
     ORDER BY removed_at DESC, id DESC LIMIT -1 OFFSET ?`,
  ).all(vendorId, keep).map((r) => (r as { id: number }).id);
  return deleteComponents(db, doomed);
}

/** Deletes components by row id, with their transitions first (foreign keys). */
export function deleteComponents(db: Db, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  statement(
    db,
    "DELETE FROM transitions WHERE component_id IN (SELECT value FROM json_each(?))",
  ).run(list);
  return Number(
    statement(db, "DELETE FROM components WHERE id IN (SELECT value FROM json_each(?))").run(list)
      .changes,
  );
}

/** Keeps the newest status changes of each of `componentIds` up to the cap. */
export function trimComponentTransitions(
  db: Db,
  vendorId: number,
  componentIds: readonly number[],
  keep = STORE_LIMITS.transitionsPerComponent,
): void {
  const trim = statement(
    db,
    `DELETE FROM transitions WHERE vendor_id = ?1 AND component_id = ?2
       AND id < (SELECT id FROM transitions WHERE vendor_id = ?1 AND component_id = ?2
                 ORDER BY id DESC LIMIT 1 OFFSET ?3)`,
  );
  for (const id of componentIds) trim.run(vendorId, id, keep - 1);
}

/** Keeps the newest timeline entries of an incident up to the cap. */
export function trimTimeline(
  db: Db,
  incidentId: number,
  keep = STORE_LIMITS.updatesPerIncident,
): void {
  statement(
    db,
    `DELETE FROM incident_updates WHERE incident_id = ?1 AND id NOT IN
       (SELECT id FROM incident_updates WHERE incident_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2)`,
  ).run(incidentId, keep);
}

/**
 * Keeps a vendor's incidents up to the cap: open ones always, then the most recently closed;
 * the oldest closed ones go, with their timelines.
 */
export function trimIncidents(
  db: Db,
  vendorId: number,
  keep = STORE_LIMITS.incidentsPerVendor,
): number {
  const doomed = statement(
    db,
    `SELECT id FROM incidents WHERE vendor_id = ?
     ORDER BY ${openSql()} DESC,
       COALESCE(resolved_at, updated_at) DESC, id DESC
     LIMIT -1 OFFSET ?`,
  ).all(vendorId, keep).map((r) => (r as { id: number }).id);
  return deleteIncidents(db, doomed);
}

/** Deletes incidents by row id, with their timelines first (foreign keys). */
export function deleteIncidents(db: Db, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  statement(
    db,
    "DELETE FROM incident_updates WHERE incident_id IN (SELECT value FROM json_each(?))",
  )
    .run(list);
  return Number(
    statement(db, "DELETE FROM incidents WHERE id IN (SELECT value FROM json_each(?))").run(list)
      .changes,
  );
}
