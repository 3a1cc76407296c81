/**
 * Stores what an adapter read: loads the state the reading is compared with, asks
 * domain/reading_diff.ts what changed, and writes exactly that (components, incidents and their
 * timelines, transitions, the vendor's level), then the caps the reading may have pushed past.
 * Runs inside the caller's transaction; decides nothing itself.
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
import { type Db, statement } from "./db.ts";
import { openSql } from "../shared/sql.ts";

interface ComponentRow {
  id: number;
  external_id: string;
  name: string;
  group_name: string | null;
  status: StatusLevel;
  position: number;
  removed_at: number | null;
}

interface IncidentRow {
  id: number;
  external_id: string;
  title: string;
  status: IncidentStatus;
  impact: Impact;
  started_at: number;
  updated_at: number;
  resolved_at: number | null;
  url: string | null;
  component_ids: string;
  scheduled_start_at: number | null;
  scheduled_end_at: number | null;
}

const INCIDENT_COLUMNS = `id, external_id, title, status, impact, started_at, updated_at,
  resolved_at, url, component_ids, scheduled_start_at, scheduled_end_at`;

/** The stored facts of vendor `vendorId`; throws when there is no such vendor. */
export function loadVendor(db: Db, vendorId: number): StoredVendor {
  const row = statement(
    db,
    "SELECT slug, current_status, last_success_at, last_changed_at FROM vendors WHERE id = ?",
  ).get(vendorId) as
    | {
      slug: string;
      current_status: StatusLevel;
      last_success_at: number | null;
      last_changed_at: number | null;
    }
    | undefined;
  if (!row) throw new Error(`Cannot store a reading: no vendor with id ${vendorId}`);
  return {
    slug: row.slug,
    currentStatus: row.current_status,
    lastSuccessAt: row.last_success_at,
    lastChangedAt: row.last_changed_at,
  };
}

function toStoredIncident(r: IncidentRow, updates: IncidentUpdate[]): StoredIncident {
  return {
    externalId: r.external_id,
    title: r.title,
    status: r.status,
    impact: r.impact,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    resolvedAt: r.resolved_at,
    url: webLinkOrNull(r.url),
    componentIds: JSON.parse(r.component_ids) as string[],
    scheduledStartAt: r.scheduled_start_at,
    scheduledEndAt: r.scheduled_end_at,
    updates,
  };
}

/**
 * Applies `snapshot` of vendor `vendorId` read at `at` (inside the caller's transaction) and
 * returns the changes to log.
 */
export function writeReading(
  db: Db,
  vendorId: number,
  snapshot: Snapshot,
  at: EpochMs,
): readonly (StatusChange | IncidentChange)[] {
  const vendor = loadVendor(db, vendorId);
  const componentRows = statement(
    db,
    "SELECT id, external_id, name, group_name, status, position, removed_at FROM components WHERE vendor_id = ?",
  ).all(vendorId) as unknown as ComponentRow[];
  const components: StoredComponent[] = componentRows.map((r) => ({
    externalId: r.external_id,
    name: r.name,
    group: r.group_name,
    status: r.status,
    position: r.position,
    removedAt: r.removed_at,
  }));
  const incidentIds = new Map<string, number>();
  const incidents: StoredIncident[] = [];
  const find = statement(
    db,
    `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE vendor_id = ? AND external_id = ?`,
  );
  const timeline = statement(
    db,
    "SELECT at, status, body FROM incident_updates WHERE incident_id = ?",
  );
  for (const i of snapshot.incidents) {
    if (incidentIds.has(i.externalId)) continue;
    const row = find.get(vendorId, i.externalId) as IncidentRow | undefined;
    if (!row) continue;
    incidentIds.set(row.external_id, row.id);
    incidents.push(toStoredIncident(row, timeline.all(row.id) as unknown as IncidentUpdate[]));
  }
  const open = statement(
    db,
    `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE vendor_id = ? AND ${openSql()}`,
  ).all(vendorId) as unknown as IncidentRow[];
  for (const row of open) {
    if (incidentIds.has(row.external_id)) continue;
    incidentIds.set(row.external_id, row.id);
    incidents.push(toStoredIncident(row, []));
  }
  const diff = diffReading({ vendor, components, incidents }, snapshot, at);
  const componentIds = new Map(componentRows.map((r) => [r.external_id, r.id]));
  persist(db, vendorId, diff, at, componentIds, incidentIds);
  return diff.changes;
}

function persist(
  db: Db,
  vendorId: number,
  diff: ReadingDiff,
  at: EpochMs,
  componentIds: Map<string, number>,
  incidentIds: Map<string, number>,
): void {
  for (const w of diff.components) {
    if (w.kind === "insert") {
      const { id } = statement(
        db,
        `INSERT INTO components (vendor_id, external_id, name, group_name, status, position, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).get(
        vendorId,
        w.component.externalId,
        w.component.name,
        w.component.group,
        w.component.status,
        w.position,
        at,
      ) as { id: number };
      componentIds.set(w.component.externalId, id);
    } else if (w.kind === "update") {
      statement(
        db,
        `UPDATE components SET name = ?, group_name = ?, status = ?, position = ?, removed_at = NULL,
           updated_at = CASE WHEN ? THEN ? ELSE updated_at END
         WHERE id = ?`,
      ).run(
        w.name,
        w.group,
        w.status,
        w.position,
        w.touch ? 1 : 0,
        at,
        componentIds.get(w.externalId)!,
      );
    } else {
      statement(db, "UPDATE components SET removed_at = ? WHERE id = ?")
        .run(at, componentIds.get(w.externalId)!);
    }
  }
  for (const t of diff.transitions) insertTransition(db, vendorId, t, at, componentIds);
  for (const w of diff.incidents) {
    if (w.kind === "insert") {
      incidentIds.set(w.incident.externalId, insertIncident(db, vendorId, w.incident));
      insertUpdates(db, incidentIds.get(w.incident.externalId)!, w.incident.updates);
    } else if (w.kind === "update") {
      const id = incidentIds.get(w.incident.externalId)!;
      if (w.fields) updateIncident(db, id, w.incident);
      insertUpdates(db, id, w.updates);
    } else {
      statement(db, "UPDATE incidents SET status = ?, resolved_at = ?, updated_at = ? WHERE id = ?")
        .run(w.status, at, at, incidentIds.get(w.externalId)!);
    }
  }
  const v = diff.vendor;
  statement(
    db,
    `UPDATE vendors SET current_status = ?, indicator = ?, last_changed_at = ?, last_checked_at = ?,
       last_success_at = ? WHERE id = ?`,
  ).run(v.currentStatus, v.indicator, v.lastChangedAt, v.lastCheckedAt, v.lastSuccessAt, vendorId);
  // Bounded growth (domain STORE_LIMITS): ids churning every poll, statuses flapping.
  const caps = diff.caps;
  if (caps.removedComponents) trimRemovedComponents(db, vendorId);
  trimComponentTransitions(
    db,
    vendorId,
    caps.componentTransitions.map((e) => componentIds.get(e)!),
  );
  for (const e of caps.timelines) trimTimeline(db, incidentIds.get(e)!);
  if (caps.incidents) trimIncidents(db, vendorId);
}

function insertTransition(
  db: Db,
  vendorId: number,
  t: TransitionWrite,
  at: EpochMs,
  componentIds: Map<string, number>,
): void {
  statement(
    db,
    "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, ?, ?, ?, ?)",
  ).run(vendorId, t.component === null ? null : componentIds.get(t.component)!, t.from, t.to, at);
}

function insertIncident(db: Db, vendorId: number, i: IncidentSnapshot): number {
  return (statement(
    db,
    `INSERT INTO incidents (vendor_id, external_id, title, status, impact, started_at, updated_at,
       resolved_at, url, component_ids, scheduled_start_at, scheduled_end_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(
    vendorId,
    i.externalId,
    i.title,
    i.status,
    i.impact,
    i.startedAt,
    i.updatedAt,
    i.resolvedAt,
    i.url,
    JSON.stringify(i.componentIds),
    i.scheduledStartAt ?? null,
    i.scheduledEndAt ?? null,
  ) as { id: number }).id;
}

function updateIncident(db: Db, id: number, i: IncidentSnapshot): void {
  statement(
    db,
    `UPDATE incidents SET title = ?, status = ?, impact = ?, started_at = ?, updated_at = ?,
       resolved_at = ?, url = ?, component_ids = ?, scheduled_start_at = ?, scheduled_end_at = ?
     WHERE id = ?`,
  ).run(
    i.title,
    i.status,
    i.impact,
    i.startedAt,
    i.updatedAt,
    i.resolvedAt,
    i.url,
    JSON.stringify(i.componentIds),
    i.scheduledStartAt ?? null,
    i.scheduledEndAt ?? null,
    id,
  );
}

function insertUpdates(db: Db, incidentId: number, updates: readonly IncidentUpdate[]): void {
  const insert = statement(
    db,
    "INSERT OR IGNORE INTO incident_updates (incident_id, at, status, body) VALUES (?, ?, ?, ?)",
  );
  for (const u of updates) insert.run(incidentId, u.at, u.status, u.body);
}

/**
 * Marks vendor `vendorId` stale at `at` (domain `staleReading`) inside the caller's
 * transaction and forgets its validators; returns the change to log, if any.
 */
export function writeStale(db: Db, vendorId: number, at: EpochMs): StatusChange[] {
  const stale = staleReading(loadVendor(db, vendorId), at);
  statement(db, "UPDATE vendors SET etag = NULL, last_modified = NULL WHERE id = ?").run(vendorId);
  if (stale.transition === null || stale.change === null) return [];
  insertTransition(db, vendorId, stale.transition, at, new Map());
  statement(db, "UPDATE vendors SET current_status = ?, last_changed_at = ? WHERE id = ?")
    .run(stale.currentStatus, stale.lastChangedAt, vendorId);
  return [stale.change];
}
