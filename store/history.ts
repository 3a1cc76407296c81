/**
 * Read queries over what happened: status transitions in a window and the incident feed
 * with timelines.
 * @module
 */
import type {
  EpochMs,
  Impact,
  Incident,
  IncidentStatus,
  PageRequest,
  StatusLevel,
  StatusTransition,
} from "../domain/mod.ts";
import { offsetOf } from "../domain/mod.ts";
import type { Db } from "./db.ts";

/** How far before the window to reach: the last transition, or the last recovery (for MTTR). */
export type Lookback = "last" | "recovery";

/**
 * Service-level transitions (component NULL) of each vendor in `vendorIds`, starting from the last one at or before `start` (`"last"`) or from the last recovery to
 * OPERATIONAL/UNDER_MAINTENANCE at or before `start` (`"recovery"`, so MTTR sees whole
 * episodes), through those before `end` plus the first one at or after `end` (its `from` tells the
 * level before it: a vendor first observed after the window was UNKNOWN during it); oldest first per vendor. Vendors without
 * transitions map to `[]`.
 */
export function serviceTransitions(
  db: Db,
  vendorIds: readonly number[],
  start: EpochMs,
  end: EpochMs,
  lookback: Lookback = "last",
): Map<number, StatusTransition[]> {
  const out = new Map<number, StatusTransition[]>(vendorIds.map((id) => [id, []]));
  if (vendorIds.length === 0) return out;
  const recovered = lookback === "recovery"
    ? "AND p.to_status IN ('OPERATIONAL', 'UNDER_MAINTENANCE')"
    : "";
  const ids = JSON.stringify(vendorIds);
  const rows = db.prepare(
    `SELECT t.vendor_id AS vendorId, t.at, t.from_status AS "from", t.to_status AS "to"
     FROM transitions t
     WHERE t.component_id IS NULL AND t.vendor_id IN (SELECT value FROM json_each(?))
       AND (t.at < ? OR t.id = (SELECT n.id FROM transitions n WHERE n.vendor_id = t.vendor_id
            AND n.component_id IS NULL AND n.at >= ? ORDER BY n.at, n.id LIMIT 1))
       AND t.at >= COALESCE((SELECT MAX(p.at) FROM transitions p
            WHERE p.vendor_id = t.vendor_id AND p.component_id IS NULL AND p.at <= ? ${recovered}),
          ${lookback === "recovery" ? "-1" : "?"})
     ORDER BY t.vendor_id, t.at, t.id`,
  ).all(...(lookback === "recovery" ? [ids, end, end, start] : [ids, end, end, start, start])) as {
    vendorId: number;
    at: number;
    from: StatusLevel;
    to: StatusLevel;
  }[];
  for (const r of rows) out.get(r.vendorId)?.push({ at: r.at, from: r.from, to: r.to });
  return out;
}

/** Filters of the incident feed. */
export interface IncidentFilter {
  /** Only unfinished incidents and maintenances. */
  readonly active?: boolean;
  /** Only this vendor (slug). */
  readonly service?: string;
  /** Only incidents updated at or after this instant. */
  readonly since?: EpochMs;
  /** Only this vendor (row id); used by one-service reads. */
  readonly vendorId?: number;
  /** Only incidents resolved (or maintenances completed) at or after this instant. */
  readonly resolvedSince?: EpochMs;
}

function whereOf(filter: IncidentFilter): { sql: string; params: (string | number)[] } {
  const clauses = ["v.in_catalog = 1"];
  const params: (string | number)[] = [];
  if (filter.active) clauses.push("i.status NOT IN ('RESOLVED', 'COMPLETED')");
  if (filter.service !== undefined) {
    clauses.push("v.slug = ?");
    params.push(filter.service);
  }
  if (filter.vendorId !== undefined) {
    clauses.push("i.vendor_id = ?");
    params.push(filter.vendorId);
  }
  if (filter.since !== undefined) {
    clauses.push("i.updated_at >= ?");
    params.push(filter.since);
  }
  if (filter.resolvedSince !== undefined) {
    clauses.push("i.status IN ('RESOLVED', 'COMPLETED') AND i.resolved_at >= ?");
    params.push(filter.resolvedSince);
  }
  return { sql: clauses.join(" AND "), params };
}

/** Number of incidents matching `filter`. */
export function countIncidents(db: Db, filter: IncidentFilter): number {
  const w = whereOf(filter);
  return (db.prepare(
    `SELECT COUNT(*) AS n FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE ${w.sql}`,
  ).get(...w.params) as { n: number }).n;
}

const INCIDENT_COLUMNS = `i.id, v.slug AS serviceSlug, i.title, i.status, i.impact,
  i.started_at AS startedAt, i.updated_at AS updatedAt, i.resolved_at AS resolvedAt, i.url,
  i.scheduled_start_at AS scheduledStartAt, i.scheduled_end_at AS scheduledEndAt,
  (SELECT json_group_array(c.name) FROM json_each(i.component_ids) j
     JOIN components c ON c.vendor_id = i.vendor_id AND c.external_id = j.value) AS components`;

interface IncidentSqlRow {
  id: number;
  serviceSlug: string;
  title: string;
  status: IncidentStatus;
  impact: Impact;
  startedAt: number;
  updatedAt: number;
  resolvedAt: number | null;
  url: string | null;
  scheduledStartAt: number | null;
  scheduledEndAt: number | null;
  components: string;
}

/** Rows of {@link INCIDENT_COLUMNS} as incidents, each with its timeline. */
function incidentsOf(db: Db, rows: readonly IncidentSqlRow[]): Incident[] {
  const timelines = updatesOf(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: String(r.id),
    serviceSlug: r.serviceSlug,
    title: r.title,
    status: r.status,
    impact: r.impact,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    resolvedAt: r.resolvedAt,
    url: r.url,
    components: JSON.parse(r.components) as string[],
    updates: timelines.get(r.id) ?? [],
    scheduledStartAt: r.scheduledStartAt,
    scheduledEndAt: r.scheduledEndAt,
  }));
}

/**
 * One page of incidents matching `filter`, newest first (start time, then id), each with its
 * affected component names and its timeline (oldest entry first).
 */
export function listIncidentRows(db: Db, filter: IncidentFilter, page: PageRequest): Incident[] {
  const w = whereOf(filter);
  const rows = db.prepare(
    `SELECT ${INCIDENT_COLUMNS} FROM incidents i JOIN vendors v ON v.id = i.vendor_id
     WHERE ${w.sql} ORDER BY i.started_at DESC, i.id DESC LIMIT ? OFFSET ?`,
  ).all(...w.params, page.limit, offsetOf(page)) as unknown as IncidentSqlRow[];
  return incidentsOf(db, rows);
}

/** Which maintenances to list; the fields combine with AND. */
export interface MaintenanceFilter {
  /** Only these services (slugs). */
  readonly services?: readonly string[];
  /** Only services of this provider (slug). */
  readonly provider?: string;
  /** Only unfinished ones in progress, or planned to start (or started) before this instant. */
  readonly startsBefore?: EpochMs;
  /**
   * Only unfinished ones in progress, or whose announced end (if any) is after this instant: a
   * maintenance still SCHEDULED after its window closed is stale, not due.
   */
  readonly endsAfter?: EpochMs;
  /** Also the ones finished (COMPLETED) at or after this instant. */
  readonly finishedSince?: EpochMs;
  /** At most this many (the earliest). */
  readonly limit: number;
}

const IS_MAINTENANCE =
  "(i.impact = 'MAINTENANCE' OR i.status IN ('SCHEDULED', 'IN_PROGRESS', 'COMPLETED'))";
const PLANNED_START = "COALESCE(i.scheduled_start_at, i.started_at)";

/**
 * Maintenances of catalog services: the unfinished ones (scheduled or in progress), plus the
 * recently finished ones when `finishedSince` is set; earliest planned start first.
 */
export function listMaintenanceRows(db: Db, filter: MaintenanceFilter): Incident[] {
  const clauses = ["v.in_catalog = 1", IS_MAINTENANCE];
  const params: (string | number)[] = [];
  if (filter.services !== undefined) {
    clauses.push("v.slug IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.services));
  }
  if (filter.provider !== undefined) {
    clauses.push("v.provider = ?");
    params.push(filter.provider);
  }
  let unfinished = "i.status NOT IN ('RESOLVED', 'COMPLETED')";
  if (filter.startsBefore !== undefined) {
    unfinished += ` AND (i.status = 'IN_PROGRESS' OR ${PLANNED_START} <= ?)`;
    params.push(filter.startsBefore);
  }
  if (filter.endsAfter !== undefined) {
    unfinished +=
      " AND (i.status = 'IN_PROGRESS' OR i.scheduled_end_at IS NULL OR i.scheduled_end_at > ?)";
    params.push(filter.endsAfter);
  }
  if (filter.finishedSince !== undefined) {
    clauses.push(`((${unfinished}) OR (i.status = 'COMPLETED' AND i.resolved_at >= ?))`);
    params.push(filter.finishedSince);
  } else {
    clauses.push(`(${unfinished})`);
  }
  const rows = db.prepare(
    `SELECT ${INCIDENT_COLUMNS} FROM incidents i JOIN vendors v ON v.id = i.vendor_id
     WHERE ${clauses.join(" AND ")} ORDER BY ${PLANNED_START}, i.id LIMIT ?`,
  ).all(...params, filter.limit) as unknown as IncidentSqlRow[];
  return incidentsOf(db, rows);
}

function updatesOf(db: Db, incidentIds: number[]): Map<number, Incident["updates"][number][]> {
  const out = new Map<number, Incident["updates"][number][]>();
  if (incidentIds.length === 0) return out;
  const rows = db.prepare(
    `SELECT incident_id AS incidentId, at, status, body FROM incident_updates
     WHERE incident_id IN (SELECT value FROM json_each(?)) ORDER BY incident_id, at, id`,
  ).all(JSON.stringify(incidentIds)) as {
    incidentId: number;
    at: number;
    status: IncidentStatus;
    body: string;
  }[];
  for (const r of rows) {
    const list = out.get(r.incidentId) ?? [];
    list.push({ at: r.at, status: r.status, body: r.body });
    out.set(r.incidentId, list);
  }
  return out;
}
