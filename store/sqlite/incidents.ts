/**
 * Incidents and maintenances of catalog services on SQLite: the feed (paged, filtered) and the
 * maintenance calendar, each read with timelines and affected component names.
 * @module
 */
import type {
  EpochMs,
  Impact,
  Incident,
  IncidentFilter,
  IncidentStatus,
  IncidentStore,
  MaintenanceFilter,
  PageRequest,
  ResolvedSpan,
} from "../../domain/mod.ts";
import { offsetOf, webLinkOrNull } from "../../domain/mod.ts";
import { type Db, readTransaction, statement } from "./db.ts";
import { promised } from "./promised.ts";
import { closedSql, jsonList, maintenanceSql, openSql } from "./sql.ts";

/** The feed's filter, plus the one-vendor filter one-service reads use. */
export interface IncidentQuery extends IncidentFilter {
  /** Only this vendor (row id). */
  readonly vendorId?: number;
}

function incidentWhere(filter: IncidentQuery): { sql: string; params: (string | number)[] } {
  const clauses = ["v.in_catalog = 1"];
  const params: (string | number)[] = [];
  if (filter.active) clauses.push(openSql("i"));
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
    clauses.push(`${closedSql("i")} AND i.resolved_at >= ?`);
    params.push(filter.resolvedSince);
  }
  return { sql: clauses.join(" AND "), params };
}

/**
 * The columns of a listed incident. The affected components' names are looked up one id at a
 * time (`CROSS JOIN` keeps json_each outside, so each lookup uses the (vendor, external id)
 * index; left to itself the planner walked every component of the vendor per incident), and
 * only for the rows of the page: {@link pageOf} limits the incidents first.
 */
const INCIDENT_COLUMNS = `i.id, v.slug AS serviceSlug, i.title, i.status, i.impact,
  i.started_at AS startedAt, i.updated_at AS updatedAt, i.resolved_at AS resolvedAt, i.url,
  i.scheduled_start_at AS scheduledStartAt, i.scheduled_end_at AS scheduledEndAt,
  (SELECT json_group_array(c.name) FROM json_each(i.component_ids) j
     CROSS JOIN components c ON c.vendor_id = i.vendor_id AND c.external_id = j.value)
    AS components`;

/**
 * `SELECT` of {@link INCIDENT_COLUMNS} over the incidents `where` picks, in `order`, `limit`
 * clause applied before any component name is looked up (a correlated subquery in the select
 * list of a sorted query runs for every row, not only the page's).
 */
function pageOf(where: string, order: string, limit: string): string {
  return `SELECT ${INCIDENT_COLUMNS} FROM (
      SELECT i.* FROM incidents i JOIN vendors v ON v.id = i.vendor_id
      WHERE ${where} ORDER BY ${order} ${limit}
    ) i JOIN vendors v ON v.id = i.vendor_id ORDER BY ${order}`;
}

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

function updatesOf(db: Db, incidentIds: number[]): Map<number, Incident["updates"][number][]> {
  const out = new Map<number, Incident["updates"][number][]>();
  if (incidentIds.length === 0) return out;
  const rows = statement(
    db,
    `SELECT incident_id AS incidentId, at, status, body FROM incident_updates
     WHERE incident_id IN (SELECT value FROM json_each(?)) ORDER BY incident_id, at, id`,
  ).all(jsonList(incidentIds)) as {
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
    url: webLinkOrNull(r.url),
    components: JSON.parse(r.components) as string[],
    updates: timelines.get(r.id) ?? [],
    scheduledStartAt: r.scheduledStartAt,
    scheduledEndAt: r.scheduledEndAt,
  }));
}

/** A vendor's incidents and maintenances resolved (or completed) at or after `since`. */
export function resolvedSince(db: Db, vendorId: number, since: EpochMs): ResolvedSpan[] {
  return statement(
    db,
    `SELECT status, impact, started_at AS startedAt, resolved_at AS resolvedAt FROM incidents
     WHERE vendor_id = ? AND ${closedSql()} AND resolved_at >= ?`,
  ).all(vendorId, since).map((r) => ({ ...r }) as unknown as ResolvedSpan);
}

/** Number of incidents matching `filter`. */
export function countIncidents(db: Db, filter: IncidentQuery): number {
  const w = incidentWhere(filter);
  return (statement(
    db,
    `SELECT COUNT(*) AS n FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE ${w.sql}`,
  ).get(...w.params) as { n: number }).n;
}

/**
 * One page of incidents matching `filter`, newest first (start time, then id), each with its
 * affected component names and its timeline (oldest entry first).
 */
export function incidentRows(db: Db, filter: IncidentQuery, page: PageRequest): Incident[] {
  const w = incidentWhere(filter);
  const rows = statement(
    db,
    pageOf(w.sql, "i.started_at DESC, i.id DESC", "LIMIT ? OFFSET ?"),
  ).all(...w.params, page.limit, offsetOf(page)) as unknown as IncidentSqlRow[];
  return incidentsOf(db, rows);
}

const PLANNED_START = "COALESCE(i.scheduled_start_at, i.started_at)";

function maintenanceRows(db: Db, filter: MaintenanceFilter): Incident[] {
  const clauses = ["v.in_catalog = 1", maintenanceSql("i")];
  const params: (string | number)[] = [];
  if (filter.services !== undefined) {
    clauses.push("v.slug IN (SELECT value FROM json_each(?))");
    params.push(jsonList(filter.services));
  }
  if (filter.provider !== undefined) {
    clauses.push("v.provider = ?");
    params.push(filter.provider);
  }
  let unfinished = openSql("i");
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
  const rows = statement(
    db,
    pageOf(clauses.join(" AND "), `${PLANNED_START}, i.id`, "LIMIT ?"),
  ).all(...params, filter.limit) as unknown as IncidentSqlRow[];
  return incidentsOf(db, rows);
}

/** The incidents noun over `db`. */
export function incidentStore(db: Db): IncidentStore {
  return promised<IncidentStore>({
    page(filter, page) {
      return readTransaction(db, () => {
        if (filter.service !== undefined) {
          const known = statement(db, "SELECT 1 FROM vendors WHERE slug = ? AND in_catalog = 1")
            .get(filter.service);
          if (known === undefined) return null;
        }
        return { items: incidentRows(db, filter, page), total: countIncidents(db, filter) };
      });
    },
    maintenances(filter) {
      return readTransaction(db, () => maintenanceRows(db, filter));
    },
  });
}
