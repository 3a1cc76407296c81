/**
 * Incidents and maintenances of catalog services, once for both engines: the feed (paged,
 * filtered) and the maintenance calendar, each read with timelines and affected component names.
 * @module
 */
import type {
  EpochMs,
  Impact,
  Incident,
  IncidentFilter,
  IncidentRevision,
  IncidentStatus,
  IncidentStore,
  MaintenanceFilter,
  PageRequest,
  ResolvedSpan,
} from "../../domain/mod.ts";
import { offsetOf, webLinkOrNull } from "../../domain/mod.ts";
import {
  all,
  type Dialect,
  type Engine,
  first,
  numOrNull,
  type Param,
  type Query,
  type Row,
} from "./query.ts";
import { closedSql, listedSql, maintenanceSql, openSql } from "./sql.ts";

/** The feed's filter, plus the one-vendor filter one-service reads use. */
export interface IncidentQuery extends IncidentFilter {
  /** Only this vendor (row id). */
  readonly vendorId?: number;
}

function incidentWhere(filter: IncidentQuery): { sql: string; params: Param[] } {
  // One vendor's incidents are its own to show; the feed lists the vendors everyone sees.
  const one = filter.vendorId !== undefined || filter.service !== undefined;
  const clauses = [one ? "v.in_catalog = 1" : listedSql("v")];
  const params: Param[] = [];
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
 * `SELECT` of a listed incident's columns over the incidents `where` picks, in `order`,
 * `limit` clause applied before any component name is looked up (a correlated subquery in the
 * select list of a sorted query runs for every row, not only the page's).
 */
function pageOf(d: Dialect, where: string, order: string, limit: string): string {
  return `SELECT i.id, v.slug AS "serviceSlug", i.title, i.status, i.impact,
      i.started_at AS "startedAt", i.updated_at AS "updatedAt", i.resolved_at AS "resolvedAt",
      i.url, i.scheduled_start_at AS "scheduledStartAt", i.scheduled_end_at AS "scheduledEndAt",
      i.removed_at AS "removedAt", ${d.componentNames("i")} AS components
    FROM (
      SELECT i.* FROM incidents i JOIN vendors v ON v.id = i.vendor_id
      WHERE ${where} ORDER BY ${order} ${limit}
    ) i JOIN vendors v ON v.id = i.vendor_id ORDER BY ${order}`;
}

/** The timelines of `incidentIds`, oldest entry first. */
export function* timelinesOf(
  d: Dialect,
  incidentIds: readonly number[],
): Query<Map<number, Incident["updates"][number][]>> {
  const out = new Map<number, Incident["updates"][number][]>();
  if (incidentIds.length === 0) return out;
  const rows = yield* all(
    `SELECT incident_id AS "incidentId", at, status, body FROM incident_updates
     WHERE ${d.inJson("incident_id", "bigint")} ORDER BY incident_id, at, id`,
    JSON.stringify(incidentIds),
  );
  for (const r of rows) {
    const id = Number(r.incidentId);
    const list = out.get(id) ?? [];
    list.push({ at: Number(r.at), status: r.status as IncidentStatus, body: String(r.body) });
    out.set(id, list);
  }
  return out;
}

/** The stored revisions of `incidentIds`, oldest first. */
function* storedRevisions(
  d: Dialect,
  incidentIds: readonly number[],
): Query<Map<number, IncidentRevision[]>> {
  const out = new Map<number, IncidentRevision[]>();
  if (incidentIds.length === 0) return out;
  const rows = yield* all(
    `SELECT incident_id, at, kind, before_text, after_text FROM incident_revisions
     WHERE ${d.inJson("incident_id", "bigint")} ORDER BY id`,
    JSON.stringify(incidentIds),
  );
  for (const r of rows) {
    const id = Number(r.incident_id);
    const list = out.get(id) ?? [];
    list.push({
      at: Number(r.at),
      kind: r.kind as IncidentRevision["kind"],
      before: String(r.before_text),
      after: String(r.after_text),
    });
    out.set(id, list);
  }
  return out;
}

/** Rows of {@link pageOf} as incidents, each with its timeline and revisions. */
function* incidentsOf(d: Dialect, rows: readonly Row[]): Query<Incident[]> {
  const ids = rows.map((r) => Number(r.id));
  const timelines = yield* timelinesOf(d, ids);
  const revisions = yield* storedRevisions(d, ids);
  return rows.map((r) => ({
    id: String(r.id),
    serviceSlug: String(r.serviceSlug),
    title: String(r.title),
    status: r.status as IncidentStatus,
    impact: r.impact as Impact,
    startedAt: Number(r.startedAt),
    updatedAt: Number(r.updatedAt),
    resolvedAt: numOrNull(r.resolvedAt),
    url: webLinkOrNull(r.url),
    components: JSON.parse(String(r.components)) as string[],
    updates: timelines.get(Number(r.id)) ?? [],
    revisions: revisions.get(Number(r.id)) ?? [],
    scheduledStartAt: numOrNull(r.scheduledStartAt),
    scheduledEndAt: numOrNull(r.scheduledEndAt),
    removedAt: numOrNull(r.removedAt),
  }));
}

/** A vendor's incidents and maintenances resolved (or completed) at or after `since`. */
export function* resolvedSince(vendorId: number, since: EpochMs): Query<ResolvedSpan[]> {
  const rows = yield* all(
    `SELECT status, impact, started_at, resolved_at FROM incidents
     WHERE vendor_id = ? AND ${closedSql()} AND resolved_at >= ? ORDER BY id`,
    vendorId,
    since,
  );
  return rows.map((r) =>
    ({
      status: r.status as IncidentStatus,
      impact: r.impact as Impact,
      startedAt: Number(r.started_at),
      resolvedAt: Number(r.resolved_at),
    }) as ResolvedSpan
  );
}

/** Number of incidents matching `filter`. */
export function* countIncidents(filter: IncidentQuery): Query<number> {
  const w = incidentWhere(filter);
  const r = yield* first(
    `SELECT COUNT(*) AS n FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE ${w.sql}`,
    ...w.params,
  );
  return Number(r!.n);
}

/**
 * One page of incidents matching `filter`, newest first (start time or, as `filter.order` says,
 * last update; then id), each with its
 * affected component names and its timeline (oldest entry first).
 */
export function* incidentRows(
  d: Dialect,
  filter: IncidentQuery,
  page: PageRequest,
): Query<Incident[]> {
  const w = incidentWhere(filter);
  const rows = yield* all(
    pageOf(
      d,
      w.sql,
      filter.order === "updated" ? "i.updated_at DESC, i.id DESC" : "i.started_at DESC, i.id DESC",
      "LIMIT ? OFFSET ?",
    ),
    ...w.params,
    page.limit,
    offsetOf(page),
  );
  return yield* incidentsOf(d, rows);
}

const PLANNED_START = "COALESCE(i.scheduled_start_at, i.started_at)";

function* maintenanceRows(d: Dialect, filter: MaintenanceFilter): Query<Incident[]> {
  const clauses = ["v.in_catalog = 1", maintenanceSql("i")];
  const params: Param[] = [];
  if (filter.services !== undefined) {
    clauses.push(d.inJson("v.slug"));
    params.push(JSON.stringify(filter.services));
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
  const rows = yield* all(
    pageOf(d, clauses.join(" AND "), `${PLANNED_START}, i.id`, "LIMIT ?"),
    ...params,
    filter.limit,
  );
  return yield* incidentsOf(d, rows);
}

/** The incidents noun over `engine`. */
export function incidentStore(engine: Engine): IncidentStore {
  const d = engine.dialect;
  return {
    page(filter, page) {
      return engine.read((function* () {
        if (filter.service !== undefined) {
          const known = yield* first(
            "SELECT 1 FROM vendors WHERE slug = ? AND in_catalog = 1",
            filter.service,
          );
          if (known === undefined) return null;
        }
        return {
          items: yield* incidentRows(d, filter, page),
          total: yield* countIncidents(filter),
        };
      })());
    },
    maintenances: (filter) => engine.read(maintenanceRows(d, filter)),
  };
}
