/**
 * Stores what an adapter read: diffs a snapshot against the stored state and writes only the
 * differences (components, incidents and their timelines, service and component transitions,
 * the vendor's current status) plus the check time, together with the change-feed rows.
 * @module
 */
import type {
  Change,
  ComponentSnapshot,
  EpochMs,
  IncidentChange,
  IncidentSnapshot,
  Snapshot,
  StatusChange,
  StatusLevel,
} from "../domain/mod.ts";
import { isMaintenance, isOpen, serviceStatus } from "../domain/mod.ts";
import {
  trimComponentTransitions,
  trimIncidents,
  trimRemovedComponents,
  trimTimeline,
} from "./caps.ts";
import { recordChanges } from "./changes.ts";
import { type Db, statement, transaction } from "./db.ts";

type RawChange = StatusChange | IncidentChange;

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
  status: IncidentSnapshot["status"];
  impact: IncidentSnapshot["impact"];
  started_at: number;
  updated_at: number;
  resolved_at: number | null;
  url: string | null;
  component_ids: string;
  scheduled_start_at: number | null;
  scheduled_end_at: number | null;
}

/**
 * Applies `snapshot` of vendor `vendorId` read at `at`, in one transaction, and returns the
 * committed changes (publish them after this returns). Nothing changed → only the check time
 * is written and the result is empty.
 */
export function applySnapshot(db: Db, vendorId: number, snapshot: Snapshot, at: EpochMs): Change[] {
  return transaction(db, () => recordChanges(db, at, writeSnapshot(db, vendorId, snapshot, at)));
}

/** The body of {@link applySnapshot}, for callers that already hold a transaction. */
export function writeSnapshot(
  db: Db,
  vendorId: number,
  snapshot: Snapshot,
  at: EpochMs,
): RawChange[] {
  const vendor = statement(
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
  if (!vendor) throw new Error(`Cannot apply a snapshot: no vendor with id ${vendorId}`);
  const changes: RawChange[] = [
    ...writeComponents(db, vendorId, vendor.slug, snapshot.components, at),
    ...writeIncidents(db, vendorId, vendor.slug, snapshot.incidents, at),
  ];
  const status = serviceStatus(snapshot);
  if (status !== vendor.current_status) {
    insertTransition(db, vendorId, null, vendor.current_status, status, at);
    changes.unshift({
      kind: "status",
      slug: vendor.slug,
      component: null,
      from: vendor.current_status,
      to: status,
    });
    statement(
      db,
      "UPDATE vendors SET current_status = ?, indicator = ?, last_changed_at = ?, last_checked_at = ?, last_success_at = ? WHERE id = ?",
    ).run(status, snapshot.indicator, changedAt(vendor, at), at, at, vendorId);
  } else {
    statement(
      db,
      "UPDATE vendors SET indicator = ?, last_checked_at = ?, last_success_at = ? WHERE id = ?",
    ).run(snapshot.indicator, at, at, vendorId);
  }
  return changes;
}

/**
 * The first reading of a vendor is an observation, not a change: `last_changed_at` stays as
 * it was, so a fresh start does not make every vendor "moving" for 30 minutes.
 */
function changedAt(
  vendor: { last_success_at: number | null; last_changed_at: number | null },
  at: EpochMs,
): EpochMs | null {
  return vendor.last_success_at === null ? vendor.last_changed_at : at;
}

function insertTransition(
  db: Db,
  vendorId: number,
  componentId: number | null,
  from: StatusLevel,
  to: StatusLevel,
  at: EpochMs,
): void {
  statement(
    db,
    "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, ?, ?, ?, ?)",
  ).run(vendorId, componentId, from, to, at);
}

function writeComponents(
  db: Db,
  vendorId: number,
  slug: string,
  components: readonly ComponentSnapshot[],
  at: EpochMs,
): StatusChange[] {
  const stored = statement(
    db,
    "SELECT id, external_id, name, group_name, status, position, removed_at FROM components WHERE vendor_id = ?",
  ).all(vendorId) as unknown as ComponentRow[];
  const byExternal = new Map(stored.map((r) => [r.external_id, r]));
  const changes: StatusChange[] = [];
  const seen = new Set<string>();
  const flipped: number[] = [];
  let removed = 0;
  components.forEach((c, position) => {
    if (seen.has(c.externalId)) return; // a repeated id in one payload: the first one wins
    seen.add(c.externalId);
    const row = byExternal.get(c.externalId);
    if (!row) {
      const { id } = statement(
        db,
        `INSERT INTO components (vendor_id, external_id, name, group_name, status, position, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).get(vendorId, c.externalId, c.name, c.group, c.status, position, at) as { id: number };
      insertTransition(db, vendorId, id, "UNKNOWN", c.status, at);
      return;
    }
    const from: StatusLevel = row.removed_at === null ? row.status : "UNKNOWN";
    if (from !== c.status) {
      insertTransition(db, vendorId, row.id, from, c.status, at);
      flipped.push(row.id);
      changes.push({ kind: "status", slug, component: c.name, from, to: c.status });
    }
    if (
      from !== c.status || row.name !== c.name || row.group_name !== c.group ||
      row.position !== position || row.removed_at !== null
    ) {
      statement(
        db,
        `UPDATE components SET name = ?, group_name = ?, status = ?, position = ?, removed_at = NULL,
           updated_at = CASE WHEN status = ? AND removed_at IS NULL THEN updated_at ELSE ? END
         WHERE id = ?`,
      ).run(c.name, c.group, c.status, position, c.status, at, row.id);
    }
  });
  for (const row of stored) {
    if (seen.has(row.external_id) || row.removed_at !== null) continue;
    // Gone from the page: history ends here (UNKNOWN time is not counted as up or down).
    insertTransition(db, vendorId, row.id, row.status, "UNKNOWN", at);
    statement(db, "UPDATE components SET removed_at = ? WHERE id = ?").run(at, row.id);
    removed++;
  }
  // Bounded growth (domain STORE_LIMITS): ids churning every poll, statuses flapping.
  if (removed > 0) trimRemovedComponents(db, vendorId);
  trimComponentTransitions(db, vendorId, flipped);
  return changes;
}

function writeIncidents(
  db: Db,
  vendorId: number,
  slug: string,
  incidents: readonly IncidentSnapshot[],
  at: EpochMs,
): IncidentChange[] {
  const changes: IncidentChange[] = [];
  const seen = new Set<string>();
  const find = statement(
    db,
    `SELECT id, external_id, title, status, impact, started_at, updated_at, resolved_at, url,
       component_ids, scheduled_start_at, scheduled_end_at
     FROM incidents WHERE vendor_id = ? AND external_id = ?`,
  );
  let inserted = 0;
  for (const incident of incidents) {
    if (seen.has(incident.externalId)) continue;
    seen.add(incident.externalId);
    const row = find.get(vendorId, incident.externalId) as IncidentRow | undefined;
    if (!row) inserted++;
    const change = row ? updateIncident(db, row, incident) : insertIncident(db, vendorId, incident);
    if (change) changes.push({ kind: "incident", slug, ...change });
  }
  changes.push(...closeVanished(db, vendorId, slug, seen, at));
  if (inserted > 0) trimIncidents(db, vendorId);
  return changes;
}

type IncidentFields = Omit<IncidentChange, "kind" | "slug">;

function fieldsOf(incident: IncidentSnapshot): IncidentFields {
  const latest = incident.updates[incident.updates.length - 1];
  return {
    incidentId: incident.externalId,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    latestUpdate: latest?.body ?? null,
  };
}

function insertIncident(db: Db, vendorId: number, i: IncidentSnapshot): IncidentFields {
  const { id } = statement(
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
  ) as { id: number };
  insertUpdates(db, id, i);
  return fieldsOf(i);
}

/** Inserts timeline entries not stored yet; returns how many were new. */
function insertUpdates(db: Db, incidentId: number, i: IncidentSnapshot): number {
  const insert = statement(
    db,
    "INSERT OR IGNORE INTO incident_updates (incident_id, at, status, body) VALUES (?, ?, ?, ?)",
  );
  let added = 0;
  for (const u of i.updates) {
    added += Number(insert.run(incidentId, u.at, u.status, u.body).changes);
  }
  if (added > 0) trimTimeline(db, incidentId);
  return added;
}

function updateIncident(db: Db, row: IncidentRow, i: IncidentSnapshot): IncidentFields | null {
  const componentIds = JSON.stringify(i.componentIds);
  const stored = statement(
    db,
    "SELECT at, status, body FROM incident_updates WHERE incident_id = ?",
  ).all(row.id) as { at: number; status: string; body: string }[];
  const known = new Set(stored.map((u) => `${u.at}\u0000${u.status}\u0000${u.body}`));
  const hasNew = i.updates.some((u) => !known.has(`${u.at}\u0000${u.status}\u0000${u.body}`));
  const scheduledStartAt = i.scheduledStartAt ?? null;
  const scheduledEndAt = i.scheduledEndAt ?? null;
  // A rescheduled maintenance is news for subscribers (calendars, deploy gates).
  const moved = row.status !== i.status || row.impact !== i.impact || row.title !== i.title ||
    row.scheduled_start_at !== scheduledStartAt || row.scheduled_end_at !== scheduledEndAt;
  const edited = moved || row.started_at !== i.startedAt || row.updated_at !== i.updatedAt ||
    row.resolved_at !== i.resolvedAt || row.url !== i.url || row.component_ids !== componentIds;
  if (edited) {
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
      componentIds,
      scheduledStartAt,
      scheduledEndAt,
      row.id,
    );
  }
  if (hasNew) insertUpdates(db, row.id, i);
  return moved || hasNew ? fieldsOf(i) : null;
}

/**
 * Open incidents the payload no longer shows are closed at `at`: documents such as
 * Statuspage's summary drop an incident once it is resolved, so absence is the only signal.
 */
function closeVanished(
  db: Db,
  vendorId: number,
  slug: string,
  seen: ReadonlySet<string>,
  at: EpochMs,
): IncidentChange[] {
  const open = (statement(
    db,
    `SELECT id, external_id, title, status, impact FROM incidents
     WHERE vendor_id = ? AND status NOT IN ('RESOLVED', 'COMPLETED')`,
  ).all(vendorId) as unknown as Pick<
    IncidentRow,
    "id" | "external_id" | "title" | "status" | "impact"
  >[]).filter((r) => !seen.has(r.external_id) && isOpen(r.status));
  return open.map((r) => {
    const status = isMaintenance(r) ? "COMPLETED" : "RESOLVED";
    statement(db, "UPDATE incidents SET status = ?, resolved_at = ?, updated_at = ? WHERE id = ?")
      .run(status, at, at, r.id);
    return {
      kind: "incident",
      slug,
      incidentId: r.external_id,
      title: r.title,
      status,
      impact: r.impact,
      latestUpdate: null,
    };
  });
}
