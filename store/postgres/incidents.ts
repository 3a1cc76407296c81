/**
 * Incidents and maintenances of catalog services on PostgreSQL: the feed (paged, filtered) and
 * the maintenance calendar, each read with timelines and affected component names.
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
import { type Fragment, read, type Row, type Sql } from "./db.ts";
import { and, closedSql, maintenanceSql, openSql } from "./sql.ts";

/** The feed's filter, plus the one-vendor filter one-service reads use. */
export interface IncidentQuery extends IncidentFilter {
  /** Only this vendor (row id). */
  readonly vendorId?: number;
}

function incidentWhere(sql: Sql, filter: IncidentQuery): Fragment {
  const parts: Fragment[] = [sql`v.in_catalog = 1`];
  if (filter.active) parts.push(openSql(sql, "i"));
  if (filter.service !== undefined) parts.push(sql`v.slug = ${filter.service}`);
  if (filter.vendorId !== undefined) parts.push(sql`i.vendor_id = ${filter.vendorId}`);
  if (filter.since !== undefined) parts.push(sql`i.updated_at >= ${filter.since}`);
  if (filter.resolvedSince !== undefined) {
    parts.push(sql`${closedSql(sql, "i")} AND i.resolved_at >= ${filter.resolvedSince}`);
  }
  return and(sql, parts);
}

/**
 * The incidents `where` picks, in `order`, limited first, with their affected components'
 * names (looked up for the page's rows only).
 */
function pageOf(sql: Sql, where: Fragment, order: string, limit: Fragment) {
  const by = sql.unsafe(order);
  return sql`SELECT i.id, v.slug AS "serviceSlug", i.title, i.status, i.impact,
      i.started_at AS "startedAt", i.updated_at AS "updatedAt", i.resolved_at AS "resolvedAt",
      i.url, i.scheduled_start_at AS "scheduledStartAt", i.scheduled_end_at AS "scheduledEndAt",
      COALESCE((SELECT json_agg(c.name ORDER BY j.n)::text
        FROM jsonb_array_elements_text(i.component_ids::jsonb) WITH ORDINALITY j(value, n)
        JOIN components c ON c.vendor_id = i.vendor_id AND c.external_id = j.value), '[]')
        AS components
    FROM (SELECT i.* FROM incidents i JOIN vendors v ON v.id = i.vendor_id
          WHERE ${where} ORDER BY ${by} ${limit}) i
    JOIN vendors v ON v.id = i.vendor_id ORDER BY ${by}`;
}

async function updatesOf(
  sql: Sql,
  incidentIds: number[],
): Promise<Map<number, Incident["updates"][number][]>> {
  const out = new Map<number, Incident["updates"][number][]>();
  if (incidentIds.length === 0) return out;
  const rows = await sql`SELECT incident_id AS "incidentId", at, status, body
    FROM incident_updates WHERE incident_id = ANY(${sql.array(incidentIds)}::bigint[])
    ORDER BY incident_id, at, id`;
  for (const r of rows) {
    const id = Number(r.incidentId);
    const list = out.get(id) ?? [];
    list.push({ at: Number(r.at), status: r.status as IncidentStatus, body: String(r.body) });
    out.set(id, list);
  }
  return out;
}

const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));

async function incidentsOf(sql: Sql, rows: readonly Row[]): Promise<Incident[]> {
  const timelines = await updatesOf(sql, rows.map((r) => Number(r.id)));
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
    scheduledStartAt: numOrNull(r.scheduledStartAt),
    scheduledEndAt: numOrNull(r.scheduledEndAt),
  }));
}

/** A vendor's incidents and maintenances resolved (or completed) at or after `since`. */
export async function resolvedSince(
  sql: Sql,
  vendorId: number,
  since: EpochMs,
): Promise<ResolvedSpan[]> {
  const rows = await sql`SELECT status, impact, started_at AS "startedAt",
      resolved_at AS "resolvedAt" FROM incidents
    WHERE vendor_id = ${vendorId} AND ${closedSql(sql)} AND resolved_at >= ${since}
    ORDER BY id`;
  return rows.map((r) =>
    ({
      status: r.status as IncidentStatus,
      impact: r.impact as Impact,
      startedAt: Number(r.startedAt),
      resolvedAt: Number(r.resolvedAt),
    }) as ResolvedSpan
  );
}

/** Number of incidents matching `filter`. */
export async function countIncidents(sql: Sql, filter: IncidentQuery): Promise<number> {
  const [{ n }] = await sql`SELECT COUNT(*) AS n FROM incidents i
    JOIN vendors v ON v.id = i.vendor_id WHERE ${incidentWhere(sql, filter)}`;
  return Number(n);
}

/** One page of incidents matching `filter`, newest first, with components and timelines. */
export async function incidentRows(
  sql: Sql,
  filter: IncidentQuery,
  page: PageRequest,
): Promise<Incident[]> {
  const rows = await pageOf(
    sql,
    incidentWhere(sql, filter),
    "i.started_at DESC, i.id DESC",
    sql`LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
  );
  return incidentsOf(sql, rows);
}

const PLANNED_START = "COALESCE(i.scheduled_start_at, i.started_at)";

async function maintenanceRows(sql: Sql, filter: MaintenanceFilter): Promise<Incident[]> {
  const parts: Fragment[] = [sql`v.in_catalog = 1`, maintenanceSql(sql, "i")];
  if (filter.services !== undefined) {
    parts.push(sql`v.slug = ANY(${sql.array([...filter.services])}::text[])`);
  }
  if (filter.provider !== undefined) parts.push(sql`v.provider = ${filter.provider}`);
  const unfinishedParts: Fragment[] = [openSql(sql, "i")];
  if (filter.startsBefore !== undefined) {
    unfinishedParts.push(
      sql`(i.status = 'IN_PROGRESS' OR ${sql.unsafe(PLANNED_START)} <= ${filter.startsBefore})`,
    );
  }
  if (filter.endsAfter !== undefined) {
    unfinishedParts.push(
      sql`(i.status = 'IN_PROGRESS' OR i.scheduled_end_at IS NULL
        OR i.scheduled_end_at > ${filter.endsAfter})`,
    );
  }
  const unfinished = and(sql, unfinishedParts);
  parts.push(
    filter.finishedSince !== undefined
      ? sql`((${unfinished}) OR (i.status = 'COMPLETED' AND i.resolved_at >= ${filter.finishedSince}))`
      : sql`(${unfinished})`,
  );
  const rows = await pageOf(
    sql,
    and(sql, parts),
    `${PLANNED_START}, i.id`,
    sql`LIMIT ${filter.limit}`,
  );
  return incidentsOf(sql, rows);
}

/** The incidents noun over the pool `sql`. */
export function incidentStore(sql: Sql): IncidentStore {
  return {
    page(filter, page) {
      return read(sql, async (tx) => {
        if (filter.service !== undefined) {
          const known = await tx`SELECT 1 FROM vendors WHERE slug = ${filter.service}
            AND in_catalog = 1`;
          if (known.length === 0) return null;
        }
        return {
          items: await incidentRows(tx, filter, page),
          total: await countIncidents(tx, filter),
        };
      });
    },
    maintenances: (filter) => read(sql, (tx) => maintenanceRows(tx, filter)),
  };
}
