/**
 * Stores what an adapter read on PostgreSQL: loads the state the reading is compared with, asks
 * domain/reading_diff.ts what changed, and writes exactly that, then the caps. Runs inside the
 * caller's transaction; decides nothing itself (the SQLite store does the same in its dialect).
 * @module
 */
import {
  diffReading,
  type EpochMs,
  type Impact,
  type IncidentChange,
  type IncidentSnapshot,
  type IncidentStatus,
  type IncidentUpdate,
  type ReadingDiff,
  type Snapshot,
  staleReading,
  type StatusChange,
  type StatusLevel,
  type StoredComponent,
  type StoredIncident,
  type StoredVendor,
  type TransitionWrite,
  webLinkOrNull,
} from "../../domain/mod.ts";
import {
  trimComponentTransitions,
  trimIncidents,
  trimRemovedComponents,
  trimTimeline,
} from "./caps.ts";
import type { Row, Sql } from "./db.ts";
import { openSql } from "../shared/sql.ts";

const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));

/** The stored facts of vendor `vendorId`, locked for this transaction; throws when missing. */
export async function loadVendor(sql: Sql, vendorId: number): Promise<StoredVendor> {
  const [row] = await sql`SELECT slug, current_status, last_success_at, last_changed_at
    FROM vendors WHERE id = ${vendorId} FOR UPDATE`;
  if (!row) throw new Error(`Cannot store a reading: no vendor with id ${vendorId}`);
  return {
    slug: String(row.slug),
    currentStatus: row.current_status as StatusLevel,
    lastSuccessAt: numOrNull(row.last_success_at),
    lastChangedAt: numOrNull(row.last_changed_at),
  };
}

function toStoredIncident(r: Row, updates: IncidentUpdate[]): StoredIncident {
  return {
    externalId: String(r.external_id),
    title: String(r.title),
    status: r.status as IncidentStatus,
    impact: r.impact as Impact,
    startedAt: Number(r.started_at),
    updatedAt: Number(r.updated_at),
    resolvedAt: numOrNull(r.resolved_at),
    url: webLinkOrNull(r.url),
    componentIds: JSON.parse(String(r.component_ids)) as string[],
    scheduledStartAt: numOrNull(r.scheduled_start_at),
    scheduledEndAt: numOrNull(r.scheduled_end_at),
    updates,
  };
}

/**
 * Applies `snapshot` of vendor `vendorId` read at `at` (inside the caller's transaction) and
 * returns the changes to log.
 */
export async function writeReading(
  sql: Sql,
  vendorId: number,
  snapshot: Snapshot,
  at: EpochMs,
): Promise<readonly (StatusChange | IncidentChange)[]> {
  const wanted = [...new Set(snapshot.incidents.map((i) => i.externalId))];
  // Sent together (one round trip), run in order: the vendor row is locked before the rest is
  // read. Incidents: those the snapshot names, and every open one.
  const [vendor, componentRows, incidentRows] = await Promise.all([
    loadVendor(sql, vendorId),
    sql`SELECT id, external_id, name, group_name, status, position,
      removed_at FROM components WHERE vendor_id = ${vendorId}`,
    sql`SELECT * FROM incidents WHERE vendor_id = ${vendorId}
      AND (external_id = ANY(${sql.array(wanted)}::text[]) OR ${
      sql.unsafe(openSql())
    }) ORDER BY id`,
  ]);
  const components: StoredComponent[] = componentRows.map((r) => ({
    externalId: String(r.external_id),
    name: String(r.name),
    group: (r.group_name as string | null) ?? null,
    status: r.status as StatusLevel,
    position: Number(r.position),
    removedAt: numOrNull(r.removed_at),
  }));
  const incidentIds = new Map<string, number>();
  const incidents: StoredIncident[] = [];
  const named = new Set(wanted);
  const known = incidentRows.filter((r) => named.has(String(r.external_id)));
  const timelines = new Map<number, IncidentUpdate[]>();
  if (known.length > 0) {
    const rows = await sql`SELECT incident_id, at, status, body FROM incident_updates
      WHERE incident_id = ANY(${sql.array(known.map((r) => Number(r.id)))}::bigint[])
      ORDER BY id`;
    for (const u of rows) {
      const list = timelines.get(Number(u.incident_id)) ?? [];
      list.push({ at: Number(u.at), status: u.status as IncidentStatus, body: String(u.body) });
      timelines.set(Number(u.incident_id), list);
    }
  }
  const byExternal = new Map(known.map((r) => [String(r.external_id), r]));
  for (const externalId of wanted) {
    const row = byExternal.get(externalId);
    if (!row) continue;
    incidentIds.set(externalId, Number(row.id));
    incidents.push(toStoredIncident(row, timelines.get(Number(row.id)) ?? []));
  }
  for (const row of incidentRows) {
    const externalId = String(row.external_id);
    if (incidentIds.has(externalId)) continue;
    incidentIds.set(externalId, Number(row.id));
    incidents.push(toStoredIncident(row, []));
  }
  const diff = diffReading({ vendor, components, incidents }, snapshot, at);
  const componentIds = new Map(componentRows.map((r) => [String(r.external_id), Number(r.id)]));
  await persist(sql, vendorId, diff, at, componentIds, incidentIds);
  return diff.changes;
}

async function persist(
  sql: Sql,
  vendorId: number,
  diff: ReadingDiff,
  at: EpochMs,
  componentIds: Map<string, number>,
  incidentIds: Map<string, number>,
): Promise<void> {
  const inserts = diff.components.flatMap((w) => w.kind === "insert" ? [w] : []);
  for (let i = 0; i < inserts.length; i += 1000) {
    const chunk = inserts.slice(i, i + 1000);
    const rows = await sql`INSERT INTO components ${
      sql(
        chunk.map((w) => ({
          vendor_id: vendorId,
          external_id: w.component.externalId,
          name: w.component.name,
          group_name: w.component.group,
          status: w.component.status,
          position: w.position,
          updated_at: at,
        })),
        "vendor_id",
        "external_id",
        "name",
        "group_name",
        "status",
        "position",
        "updated_at",
      )
    } RETURNING id, external_id`;
    for (const r of rows) componentIds.set(String(r.external_id), Number(r.id));
  }
  for (const w of diff.components) {
    if (w.kind === "update") {
      await sql`UPDATE components SET name = ${w.name}, group_name = ${w.group},
        status = ${w.status}, position = ${w.position}, removed_at = NULL,
        updated_at = ${w.touch ? at : sql`updated_at`}
        WHERE id = ${componentIds.get(w.externalId)!}`;
    } else if (w.kind === "remove") {
      await sql`UPDATE components SET removed_at = ${at}
        WHERE id = ${componentIds.get(w.externalId)!}`;
    }
  }
  // At most 1,000 rows per statement: a statement carries at most 65,534 parameters.
  for (let i = 0; i < diff.transitions.length; i += 1000) {
    await sql`INSERT INTO transitions ${
      sql(
        diff.transitions.slice(i, i + 1000).map((t) =>
          transitionRow(vendorId, t, at, componentIds)
        ),
        "vendor_id",
        "component_id",
        "from_status",
        "to_status",
        "at",
      )
    }`;
  }
  for (const w of diff.incidents) {
    if (w.kind === "insert") {
      const id = await insertIncident(sql, vendorId, w.incident);
      incidentIds.set(w.incident.externalId, id);
      await insertUpdates(sql, id, w.incident.updates);
    } else if (w.kind === "update") {
      const id = incidentIds.get(w.incident.externalId)!;
      if (w.fields) await updateIncident(sql, id, w.incident);
      await insertUpdates(sql, id, w.updates);
    } else {
      await sql`UPDATE incidents SET status = ${w.status}, resolved_at = ${at}, updated_at = ${at}
        WHERE id = ${incidentIds.get(w.externalId)!}`;
    }
  }
  const v = diff.vendor;
  await sql`UPDATE vendors SET current_status = ${v.currentStatus}, indicator = ${v.indicator},
    last_changed_at = ${v.lastChangedAt}, last_checked_at = ${v.lastCheckedAt},
    last_success_at = ${v.lastSuccessAt} WHERE id = ${vendorId}`;
  const caps = diff.caps;
  if (caps.removedComponents) await trimRemovedComponents(sql, vendorId);
  await trimComponentTransitions(
    sql,
    vendorId,
    caps.componentTransitions.map((e) => componentIds.get(e)!),
  );
  for (const e of caps.timelines) await trimTimeline(sql, incidentIds.get(e)!);
  if (caps.incidents) await trimIncidents(sql, vendorId);
}

function transitionRow(
  vendorId: number,
  t: TransitionWrite,
  at: EpochMs,
  componentIds: Map<string, number>,
) {
  return {
    vendor_id: vendorId,
    component_id: t.component === null ? null : componentIds.get(t.component)!,
    from_status: t.from,
    to_status: t.to,
    at,
  };
}

async function insertIncident(sql: Sql, vendorId: number, i: IncidentSnapshot): Promise<number> {
  const [row] = await sql`INSERT INTO incidents (vendor_id, external_id, title, status, impact,
      started_at, updated_at, resolved_at, url, component_ids, scheduled_start_at,
      scheduled_end_at)
    VALUES (${vendorId}, ${i.externalId}, ${i.title}, ${i.status}, ${i.impact}, ${i.startedAt},
      ${i.updatedAt}, ${i.resolvedAt}, ${i.url}, ${JSON.stringify(i.componentIds)},
      ${i.scheduledStartAt ?? null}, ${i.scheduledEndAt ?? null})
    RETURNING id`;
  return Number(row!.id);
}

async function updateIncident(sql: Sql, id: number, i: IncidentSnapshot): Promise<void> {
  await sql`UPDATE incidents SET title = ${i.title}, status = ${i.status}, impact = ${i.impact},
    started_at = ${i.startedAt}, updated_at = ${i.updatedAt}, resolved_at = ${i.resolvedAt},
    url = ${i.url}, component_ids = ${JSON.stringify(i.componentIds)},
    scheduled_start_at = ${i.scheduledStartAt ?? null},
    scheduled_end_at = ${i.scheduledEndAt ?? null}
    WHERE id = ${id}`;
}

async function insertUpdates(
  sql: Sql,
  incidentId: number,
  updates: readonly IncidentUpdate[],
): Promise<void> {
  for (let i = 0; i < updates.length; i += 1000) {
    const chunk = updates.slice(i, i + 1000);
    await sql`INSERT INTO incident_updates ${
      sql(
        chunk.map((u) => ({ incident_id: incidentId, at: u.at, status: u.status, body: u.body })),
        "incident_id",
        "at",
        "status",
        "body",
      )
    } ON CONFLICT DO NOTHING`;
  }
}

/**
 * Marks vendor `vendorId` stale at `at` (domain `staleReading`) inside the caller's
 * transaction and forgets its validators; returns the change to log, if any.
 */
export async function writeStale(
  sql: Sql,
  vendorId: number,
  at: EpochMs,
): Promise<StatusChange[]> {
  const stale = staleReading(await loadVendor(sql, vendorId), at);
  await sql`UPDATE vendors SET etag = NULL, last_modified = NULL WHERE id = ${vendorId}`;
  if (stale.transition === null || stale.change === null) return [];
  await sql`INSERT INTO transitions ${
    sql(
      [transitionRow(vendorId, stale.transition, at, new Map())],
      "vendor_id",
      "component_id",
      "from_status",
      "to_status",
      "at",
    )
  }`;
  await sql`UPDATE vendors SET current_status = ${stale.currentStatus},
    last_changed_at = ${stale.lastChangedAt} WHERE id = ${vendorId}`;
  return [stale.change];
}
