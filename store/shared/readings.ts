/**
 * Stores what an adapter read, once for both engines: loads the state the reading is compared
 * with, asks domain/reading_diff.ts what changed, and writes exactly that (components,
 * incidents and their timelines, transitions, the vendor's level), then the caps the reading may
 * have pushed past. Runs inside the caller's transaction; decides nothing itself.
 * @module
 */
import {
  diffReading,
  type EpochMs,
  historyCutoff,
  type Impact,
  type IncidentChange,
  type IncidentSnapshot,
  type IncidentStatus,
  type IncidentUpdate,
  type ReadingDiff,
  type Revision,
  type Snapshot,
  staleReading,
  type StatusChange,
  type StatusLevel,
  type StoredComponent,
  type StoredIncident,
  type StoredVendor,
  type TransitionWrite,
  type VanishedIncident,
  webLinkOrNull,
} from "../../domain/mod.ts";
import { isOpen, OPEN_INCIDENTS_MAX } from "../../domain/mod.ts";
import {
  trimComponentTransitions,
  trimIncidents,
  trimRemovedComponents,
  trimTimeline,
} from "./caps.ts";
import {
  all,
  type Dialect,
  first,
  insertMany,
  insertManyReturning,
  numOrNull,
  type Param,
  type Query,
  type Row,
  run,
} from "./query.ts";
import { timelinesOf } from "./incidents.ts";
import { maintenanceSql, openSql } from "./sql.ts";

/** The stored facts of vendor `vendorId`, locked for this transaction; throws when missing. */
export function* loadVendor(d: Dialect, vendorId: number): Query<StoredVendor> {
  const row = yield* first(
    `SELECT slug, current_status, last_success_at, last_changed_at FROM vendors
     WHERE id = ?${d.forUpdate}`,
    vendorId,
  );
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
    removedAt: numOrNull(r.removed_at),
  };
}

/** The vendor's open incidents that are not maintenance, oldest first (`PollStore.openIncidents`). */
export function* openIncidentsOf(vendorId: number): Query<VanishedIncident[]> {
  const rows = yield* all(
    `SELECT i.external_id, i.title, i.url, i.started_at FROM incidents i
      WHERE i.vendor_id = ? AND ${openSql("i")} AND NOT ${maintenanceSql("i")}
      ORDER BY i.started_at, i.id LIMIT ?`,
    vendorId,
    OPEN_INCIDENTS_MAX,
  );
  return rows.map((r) => ({
    externalId: String(r.external_id),
    title: String(r.title),
    url: webLinkOrNull(r.url),
    startedAt: Number(r.started_at),
  }));
}

/**
 * Applies `snapshot` of vendor `vendorId` read at `at` (inside the caller's transaction) and
 * returns the changes to log.
 */
export function* writeReading(
  d: Dialect,
  vendorId: number,
  snapshot: Snapshot,
  at: EpochMs,
): Query<readonly (StatusChange | IncidentChange)[]> {
  const vendor = yield* loadVendor(d, vendorId);
  const componentRows = yield* all(
    `SELECT id, external_id, name, group_name, status, position, removed_at FROM components
     WHERE vendor_id = ?`,
    vendorId,
  );
  const components: StoredComponent[] = componentRows.map((r) => ({
    externalId: String(r.external_id),
    name: String(r.name),
    group: (r.group_name as string | null) ?? null,
    status: r.status as StatusLevel,
    position: Number(r.position),
    removedAt: numOrNull(r.removed_at),
  }));
  // Incidents: those the snapshot names (with their timelines), then every other open one and,
  // for a document that keeps history, every other one it should still list.
  const wanted = [...new Set(snapshot.incidents.map((i) => i.externalId))];
  const cutoff = historyCutoff(snapshot);
  const incidentRows = yield* all(
    `SELECT * FROM incidents WHERE vendor_id = ?
       AND (${d.inJson("external_id")} OR ${openSql()}${
      cutoff === null ? "" : " OR started_at > ?"
    }) ORDER BY id`,
    vendorId,
    JSON.stringify(wanted),
    ...(cutoff === null ? [] : [cutoff]),
  );
  const named = new Set(wanted);
  const known = incidentRows.filter((r) => named.has(String(r.external_id)));
  const timelines = yield* timelinesOf(d, known.map((r) => Number(r.id)));
  const byExternal = new Map(known.map((r) => [String(r.external_id), r]));
  const incidentIds = new Map<string, number>();
  const incidents: StoredIncident[] = [];
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
  yield* persist(d, vendorId, diff, at, componentIds, incidentIds, vendor.lastSuccessAt);
  return diff.changes;
}

function* persist(
  d: Dialect,
  vendorId: number,
  diff: ReadingDiff,
  at: EpochMs,
  componentIds: Map<string, number>,
  incidentIds: Map<string, number>,
  priorReadAt: EpochMs | null,
): Query<void> {
  const inserted = yield* insertManyReturning(
    "components",
    ["vendor_id", "external_id", "name", "group_name", "status", "position", "updated_at"],
    diff.components.flatMap((w) =>
      w.kind === "insert"
        ? [[
          vendorId,
          w.component.externalId,
          w.component.name,
          w.component.group,
          w.component.status,
          w.position,
          at,
        ]]
        : []
    ),
    "id, external_id",
  );
  for (const r of inserted) componentIds.set(String(r.external_id), Number(r.id));
  for (const w of diff.components) {
    if (w.kind === "update") {
      yield* run(
        `UPDATE components SET name = ?, group_name = ?, status = ?, position = ?,
           removed_at = NULL, updated_at = CASE WHEN ? = 1 THEN ? ELSE updated_at END
         WHERE id = ?`,
        w.name,
        w.group,
        w.status,
        w.position,
        w.touch ? 1 : 0,
        at,
        componentIds.get(w.externalId)!,
      );
    } else if (w.kind === "remove") {
      yield* run(
        "UPDATE components SET removed_at = ? WHERE id = ?",
        at,
        componentIds.get(w.externalId)!,
      );
    }
  }
  yield* insertTransitions(vendorId, diff.transitions, at, componentIds);
  for (const w of diff.incidents) {
    if (w.kind === "insert") {
      const id = yield* insertIncident(vendorId, w.incident, at, priorReadAt);
      incidentIds.set(w.incident.externalId, id);
      yield* insertUpdates(id, w.incident.updates);
    } else if (w.kind === "update") {
      const id = incidentIds.get(w.incident.externalId)!;
      if (w.fields) yield* updateIncident(id, w.incident, at);
      if (w.restored) yield* run("UPDATE incidents SET removed_at = NULL WHERE id = ?", id);
      yield* keepRevisions(vendorId, id, w.revisions, at);
      yield* insertUpdates(id, w.updates);
    } else if (w.kind === "remove") {
      const id = incidentIds.get(w.externalId)!;
      if (w.close === null) yield* run("UPDATE incidents SET removed_at = ? WHERE id = ?", at, id);
      else {
        yield* run(
          `UPDATE incidents SET removed_at = ?, status = ?, resolved_at = ?, updated_at = ?,
             closed_seen_at = COALESCE(closed_seen_at, ?) WHERE id = ?`,
          at,
          w.close,
          at,
          at,
          at,
          id,
        );
      }
      yield* keepRevisions(vendorId, id, [w.revision], at);
    } else {
      yield* run(
        `UPDATE incidents SET status = ?, resolved_at = ?, updated_at = ?,
           closed_seen_at = COALESCE(closed_seen_at, ?) WHERE id = ?`,
        w.status,
        at,
        at,
        at,
        incidentIds.get(w.externalId)!,
      );
    }
  }
  const v = diff.vendor;
  yield* run(
    `UPDATE vendors SET current_status = ?, indicator = ?, last_changed_at = ?,
       last_checked_at = ?, last_success_at = ? WHERE id = ?`,
    v.currentStatus,
    v.indicator,
    v.lastChangedAt,
    v.lastCheckedAt,
    v.lastSuccessAt,
    vendorId,
  );
  // Bounded growth (domain STORE_LIMITS): ids churning every poll, statuses flapping.
  const caps = diff.caps;
  if (caps.removedComponents) yield* trimRemovedComponents(d, vendorId);
  yield* trimComponentTransitions(
    vendorId,
    caps.componentTransitions.map((e) => componentIds.get(e)!),
  );
  for (const e of caps.timelines) yield* trimTimeline(incidentIds.get(e)!);
  if (caps.incidents) yield* trimIncidents(d, vendorId);
}

function* insertTransitions(
  vendorId: number,
  transitions: readonly TransitionWrite[],
  at: EpochMs,
  componentIds: Map<string, number>,
): Query<void> {
  yield* insertMany(
    "transitions",
    ["vendor_id", "component_id", "from_status", "to_status", "at"],
    transitions.map((t): Param[] => [
      vendorId,
      t.component === null ? null : componentIds.get(t.component)!,
      t.from,
      t.to,
      at,
    ]),
  );
}

/** Revisions kept per incident at most (the newest). */
export const REVISIONS_PER_INCIDENT = 20;
/** Characters of a revision's before or after text kept at most. */
const REVISION_TEXT_MAX = 4000;

/**
 * Keeps what the vendor rewrote of incident `id`, with what was there before; an edited update
 * takes its new text in place (the timeline shows what the vendor says now, the revision what
 * it said).
 */
function* keepRevisions(
  vendorId: number,
  id: number,
  revisions: readonly Revision[],
  at: EpochMs,
): Query<void> {
  if (revisions.length === 0) return;
  for (const r of revisions) {
    if (r.update) {
      yield* run(
        `UPDATE incident_updates SET body = ? WHERE incident_id = ? AND at = ? AND status = ?
           AND body = ? AND NOT EXISTS (SELECT 1 FROM incident_updates o
             WHERE o.incident_id = ? AND o.at = ? AND o.status = ? AND o.body = ?)`,
        r.after,
        id,
        r.update.at,
        r.update.status,
        r.before,
        id,
        r.update.at,
        r.update.status,
        r.after,
      );
    }
    yield* run(
      `INSERT INTO incident_revisions (incident_id, vendor_id, at, kind, before_text, after_text)
       VALUES (?, ?, ?, ?, ?, ?)`,
      id,
      vendorId,
      at,
      r.kind,
      r.before.slice(0, REVISION_TEXT_MAX),
      r.after.slice(0, REVISION_TEXT_MAX),
    );
  }
  yield* run(
    `DELETE FROM incident_revisions WHERE incident_id = ? AND id NOT IN
       (SELECT id FROM incident_revisions WHERE incident_id = ? ORDER BY id DESC LIMIT ?)`,
    id,
    id,
    REVISIONS_PER_INCIDENT,
  );
}

/** An incident's stored fields after its external id, in the column order below. */
function incidentFields(i: IncidentSnapshot): Param[] {
  return [
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
  ];
}

/**
 * Inserts an incident first listed by a reading at `at`: statusd's own times ride along with the
 * vendor's (`seen_at`, and `closed_seen_at` when it was listed already closed), with the
 * vendor's previous successful reading (`prior_read_at`, null on a first reading) against which
 * a start the vendor gives is judged back-dated or not.
 */
function* insertIncident(
  vendorId: number,
  i: IncidentSnapshot,
  at: EpochMs,
  priorReadAt: EpochMs | null,
): Query<number> {
  const row = yield* first(
    `INSERT INTO incidents (vendor_id, external_id, title, status, impact, started_at, updated_at,
       resolved_at, url, component_ids, scheduled_start_at, scheduled_end_at, seen_at,
       closed_seen_at, prior_read_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    vendorId,
    i.externalId,
    ...incidentFields(i),
    at,
    isOpen(i.status) ? null : at,
    priorReadAt,
  );
  return Number(row!.id);
}

/** Rewrites an incident's fields; `closed_seen_at` follows its status as statusd saw it at `at`. */
function* updateIncident(id: number, i: IncidentSnapshot, at: EpochMs): Query<void> {
  yield* run(
    `UPDATE incidents SET title = ?, status = ?, impact = ?, started_at = ?, updated_at = ?,
       resolved_at = ?, url = ?, component_ids = ?, scheduled_start_at = ?, scheduled_end_at = ?,
       closed_seen_at = CASE WHEN ? = 1 THEN COALESCE(closed_seen_at, ?) ELSE NULL END
     WHERE id = ?`,
    ...incidentFields(i),
    isOpen(i.status) ? 0 : 1,
    at,
    id,
  );
}

function* insertUpdates(incidentId: number, updates: readonly IncidentUpdate[]): Query<void> {
  yield* insertMany(
    "incident_updates",
    ["incident_id", "at", "status", "body"],
    updates.map((u) => [incidentId, u.at, u.status, u.body]),
    " ON CONFLICT DO NOTHING",
  );
}

/**
 * Marks vendor `vendorId` stale at `at` (domain `staleReading`) inside the caller's
 * transaction and forgets its validators; returns the change to log, if any.
 */
export function* writeStale(d: Dialect, vendorId: number, at: EpochMs): Query<StatusChange[]> {
  const stale = staleReading(yield* loadVendor(d, vendorId), at);
  yield* run("UPDATE vendors SET etag = NULL, last_modified = NULL WHERE id = ?", vendorId);
  if (stale.transition === null || stale.change === null) return [];
  yield* insertTransitions(vendorId, [stale.transition], at, new Map());
  yield* run(
    "UPDATE vendors SET current_status = ?, last_changed_at = ? WHERE id = ?",
    stale.currentStatus,
    stale.lastChangedAt,
    vendorId,
  );
  return [stale.change];
}
