/**
 * Per-vendor caps on what accumulates across readings (domain STORE_LIMITS), enforced inside the
 * reading's transaction, as on SQLite (store/sqlite/caps.ts).
 * @module
 */
import { STORE_LIMITS } from "../../domain/mod.ts";
import type { Sql } from "./db.ts";
import { openSql } from "../shared/sql.ts";

/** Keeps the most recently removed components of a vendor (and their history) up to the cap. */
export async function trimRemovedComponents(
  sql: Sql,
  vendorId: number,
  keep = STORE_LIMITS.removedComponentsPerVendor,
): Promise<number> {
  const doomed = await sql`SELECT id FROM components
    WHERE vendor_id = ${vendorId} AND removed_at IS NOT NULL
    ORDER BY removed_at DESC, id DESC OFFSET ${keep}`;
  return deleteComponents(sql, doomed.map((r) => Number(r.id)));
}

/** Deletes components by row id, with their transitions first (foreign keys). */
export async function deleteComponents(sql: Sql, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = sql.array([...ids]);
  await sql`DELETE FROM transitions WHERE component_id = ANY(${list}::bigint[])`;
  return (await sql`DELETE FROM components WHERE id = ANY(${list}::bigint[])`).count;
}

/** Keeps the newest status changes of each of `componentIds` up to the cap. */
export async function trimComponentTransitions(
  sql: Sql,
  vendorId: number,
  componentIds: readonly number[],
  keep = STORE_LIMITS.transitionsPerComponent,
): Promise<void> {
  for (const id of componentIds) {
    await sql`DELETE FROM transitions WHERE vendor_id = ${vendorId} AND component_id = ${id}
      AND id < (SELECT id FROM transitions WHERE vendor_id = ${vendorId} AND component_id = ${id}
                ORDER BY id DESC LIMIT 1 OFFSET ${keep - 1})`;
  }
}

/** Keeps the newest timeline entries of an incident up to the cap. */
export async function trimTimeline(
  sql: Sql,
  incidentId: number,
  keep = STORE_LIMITS.updatesPerIncident,
): Promise<void> {
  await sql`DELETE FROM incident_updates WHERE incident_id = ${incidentId} AND id NOT IN
    (SELECT id FROM incident_updates WHERE incident_id = ${incidentId}
     ORDER BY at DESC, id DESC LIMIT ${keep})`;
}

/** Keeps a vendor's incidents up to the cap: open ones always, then the most recently closed. */
export async function trimIncidents(
  sql: Sql,
  vendorId: number,
  keep = STORE_LIMITS.incidentsPerVendor,
): Promise<number> {
  const doomed = await sql`SELECT id FROM incidents WHERE vendor_id = ${vendorId}
    ORDER BY (${sql.unsafe(openSql())}) DESC, COALESCE(resolved_at, updated_at) DESC, id DESC
    OFFSET ${keep}`;
  return deleteIncidents(sql, doomed.map((r) => Number(r.id)));
}

/** Deletes incidents by row id, with their timelines first (foreign keys). */
export async function deleteIncidents(sql: Sql, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = sql.array([...ids]);
  await sql`DELETE FROM incident_updates WHERE incident_id = ANY(${list}::bigint[])`;
  return (await sql`DELETE FROM incidents WHERE id = ANY(${list}::bigint[])`).count;
}
