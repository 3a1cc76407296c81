/**
 * What reports read about one service over time on PostgreSQL: its transitions, the incidents
 * of a window and the fetch log, each in one snapshot.
 * @module
 */
import type {
  FetchRecord,
  HistoryStore,
  Impact,
  PollOutcome,
  SlaIncidentRow,
  StatusLevel,
  StatusTransition,
  TimeWindow,
} from "../../domain/mod.ts";
import { read, type Sql } from "./db.ts";
import { incidentRows, resolvedSince } from "./incidents.ts";
import { latencyHistogram } from "../shared/latency_days.ts";
import { runOn } from "./engine.ts";
import { componentsOf, serviceBySlug, withHistory } from "./services.ts";

async function incidentsBetween(
  sql: Sql,
  vendorId: number,
  window: TimeWindow,
): Promise<SlaIncidentRow[]> {
  const rows = await sql`SELECT id, title, impact, started_at, resolved_at FROM incidents
    WHERE vendor_id = ${vendorId} AND started_at < ${window.end}
      AND (resolved_at IS NULL OR resolved_at > ${window.start})
    ORDER BY started_at, id`;
  return rows.map((r) => ({
    id: String(r.id),
    title: String(r.title),
    impact: r.impact as Impact,
    startedAt: Number(r.started_at),
    resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
  }));
}

async function componentTransitions(
  sql: Sql,
  vendorId: number,
): Promise<Map<number, StatusTransition[]>> {
  const rows = await sql`SELECT c.id AS "componentId", t.at, t.from_status AS "from",
      t.to_status AS "to"
    FROM components c LEFT JOIN transitions t ON t.component_id = c.id
    WHERE c.vendor_id = ${vendorId} AND c.removed_at IS NULL
    ORDER BY c.id, t.at, t.id`;
  const out = new Map<number, StatusTransition[]>();
  for (const r of rows) {
    const id = Number(r.componentId);
    const list = out.get(id) ?? [];
    if (r.at !== null && r.from !== null && r.to !== null) {
      list.push({ at: Number(r.at), from: r.from as StatusLevel, to: r.to as StatusLevel });
    }
    out.set(id, list);
  }
  return out;
}

/** The history noun over the pool `sql`. */
export function historyStore(sql: Sql): HistoryStore {
  return {
    servicePage(slug, q) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        if (service === null) return null;
        // One snapshot: the reads below are sent together and see the same state.
        const [stored, components, [now], active, resolved, [uptime], [history], past] =
          await Promise.all([
            componentTransitions(tx, service.id),
            componentsOf(tx, service.id),
            withHistory(tx, [service], q.window),
            incidentRows(tx, { vendorId: service.id, active: true }, { page: 0, limit: 500 }),
            resolvedSince(tx, service.id, q.resolvedAfter),
            withHistory(tx, [service], q.uptime, "recovery"),
            withHistory(tx, [service], q.history),
            incidentRows(tx, { vendorId: service.id, resolvedSince: q.pastSince }, {
              page: 0,
              limit: q.pastLimit,
            }),
          ]);
        return {
          detail: { ...now!, components, incidents: active, resolved },
          uptime: uptime!,
          history: {
            ...history!,
            components: components.map((component) => ({
              component,
              transitions: stored.get(Number(component.id)) ?? [],
            })),
          },
          past,
        };
      });
    },
    timeline(slug, window, lookback) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        return service === null ? null : (await withHistory(tx, [service], window, lookback))[0]!;
      });
    },
    slaInputs(slug, window, latency) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        if (service === null) return null;
        const [[history], incidents, histogram] = await Promise.all([
          withHistory(tx, [service], window, "recovery"),
          incidentsBetween(tx, service.id, window),
          runOn(tx, latencyHistogram(service.id, latency)),
        ]);
        return { ...history!, incidents, latency: histogram };
      });
    },
    componentTimelines(slug, window) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        if (service === null) return null;
        const [stored, [history], components] = await Promise.all([
          componentTransitions(tx, service.id),
          withHistory(tx, [service], window),
          componentsOf(tx, service.id),
        ]);
        return {
          ...history!,
          components: components.map((component) => ({
            component,
            transitions: stored.get(Number(component.id)) ?? [],
          })),
        };
      });
    },
    resolutions(slug, since) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        return service === null ? null : resolvedSince(tx, service.id, since);
      });
    },
    async fetchLog(slug, since) {
      const rows = await sql`SELECT f.at, f.outcome, f.http_status, f.latency_ms
        FROM fetches f JOIN vendors v ON v.id = f.vendor_id
        WHERE v.slug = ${slug} AND f.at >= ${since} ORDER BY f.at, f.id`;
      return rows.map((r): FetchRecord => ({
        at: Number(r.at),
        outcome: r.outcome as PollOutcome,
        httpStatus: r.http_status === null ? null : Number(r.http_status),
        latencyMs: Number(r.latency_ms),
      }));
    },
  };
}
