/**
 * What reports read about one service over time, once for both engines: its transitions, the
 * incidents of a window and the fetch log, each in one read snapshot.
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
import { incidentRows, resolvedSince } from "./incidents.ts";
import { latencyHistogram } from "./latency_days.ts";
import { all, type Engine, numOrNull, type Query } from "./query.ts";
import { componentsOf, serviceBySlug, withHistory } from "./services.ts";

/** A vendor's incidents open at some moment of `window`, oldest first. */
function* incidentsBetween(vendorId: number, window: TimeWindow): Query<SlaIncidentRow[]> {
  const rows = yield* all(
    `SELECT id, title, impact, started_at, resolved_at FROM incidents
     WHERE vendor_id = ? AND started_at < ? AND (resolved_at IS NULL OR resolved_at > ?)
     ORDER BY started_at, id`,
    vendorId,
    window.end,
    window.start,
  );
  return rows.map((r) => ({
    id: String(r.id),
    title: String(r.title),
    impact: r.impact as Impact,
    startedAt: Number(r.started_at),
    resolvedAt: numOrNull(r.resolved_at),
  }));
}

/**
 * The stored transitions of each current component (not removed) of a vendor, oldest first,
 * keyed by component row id. A component with none maps to `[]`.
 */
function* componentTransitions(vendorId: number): Query<Map<number, StatusTransition[]>> {
  const rows = yield* all(
    `SELECT c.id AS "componentId", t.at, t.from_status AS "from", t.to_status AS "to"
     FROM components c LEFT JOIN transitions t ON t.component_id = c.id
     WHERE c.vendor_id = ? AND c.removed_at IS NULL
     ORDER BY c.id, t.at, t.id`,
    vendorId,
  );
  const out = new Map<number, StatusTransition[]>();
  for (const r of rows) {
    const id = Number(r.componentId);
    const list = out.get(id) ?? [];
    if (r.at !== null) {
      list.push({ at: Number(r.at), from: r.from as StatusLevel, to: r.to as StatusLevel });
    }
    out.set(id, list);
  }
  return out;
}

/** The history noun over `engine`. */
export function historyStore(engine: Engine): HistoryStore {
  const d = engine.dialect;
  return {
    servicePage(slug, q) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        if (service === null) return null;
        const stored = yield* componentTransitions(service.id);
        const components = yield* componentsOf(d, service.id);
        const [now] = yield* withHistory(d, [service], q.window);
        const active = yield* incidentRows(d, { vendorId: service.id, active: true }, {
          page: 0,
          limit: 500,
        });
        const resolved = yield* resolvedSince(service.id, q.resolvedAfter);
        const [uptime] = yield* withHistory(d, [service], q.uptime, "recovery");
        const [history] = yield* withHistory(d, [service], q.history);
        const past = yield* incidentRows(d, {
          vendorId: service.id,
          resolvedSince: q.pastSince,
        }, { page: 0, limit: q.pastLimit });
        const rewrites = (yield* all(
          `SELECT COUNT(*) AS revisions, COUNT(DISTINCT incident_id) AS incidents
           FROM incident_revisions WHERE vendor_id = ? AND at >= ? AND at < ?`,
          service.id,
          q.history.start,
          q.history.end,
        ))[0]!;
        return {
          rewrites: {
            revisions: Number(rewrites.revisions),
            incidents: Number(rewrites.incidents),
          },
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
      })());
    },
    timeline(slug, window, lookback) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        return service === null ? null : (yield* withHistory(d, [service], window, lookback))[0]!;
      })());
    },
    slaInputs(slug, window, latency) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        if (service === null) return null;
        const [history] = yield* withHistory(d, [service], window, "recovery");
        return {
          ...history!,
          incidents: yield* incidentsBetween(service.id, window),
          latency: yield* latencyHistogram(service.id, latency),
        };
      })());
    },
    componentTimelines(slug, window) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        if (service === null) return null;
        const stored = yield* componentTransitions(service.id);
        const [history] = yield* withHistory(d, [service], window);
        const components = yield* componentsOf(d, service.id);
        return {
          ...history!,
          components: components.map((component) => ({
            component,
            transitions: stored.get(Number(component.id)) ?? [],
          })),
        };
      })());
    },
    resolutions(slug, since) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        return service === null ? null : yield* resolvedSince(service.id, since);
      })());
    },
    fetchLog(slug, since) {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT f.at, f.outcome, f.http_status, f.latency_ms
           FROM fetches f JOIN vendors v ON v.id = f.vendor_id
           WHERE v.slug = ? AND f.at >= ? ORDER BY f.at, f.id`,
          slug,
          since,
        );
        return rows.map((r): FetchRecord => ({
          at: Number(r.at),
          outcome: r.outcome as PollOutcome,
          httpStatus: numOrNull(r.http_status),
          latencyMs: Number(r.latency_ms),
        }));
      })());
    },
  };
}
