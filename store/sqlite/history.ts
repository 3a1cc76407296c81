/**
 * What reports read about one service over time on SQLite: its transitions, the incidents of a
 * window and the fetch log, each in one read transaction.
 * @module
 */
import type {
  EpochMs,
  FetchRecord,
  HistoryStore,
  SlaIncidentRow,
  StatusLevel,
  StatusTransition,
  TimeWindow,
} from "../../domain/mod.ts";
import { type Db, readTransaction, statement } from "./db.ts";
import { incidentRows, resolvedSince } from "./incidents.ts";
import { latencyHistogram } from "../shared/latency_days.ts";
import { runNow } from "./engine.ts";
import { promised } from "./promised.ts";
import { componentsOf, serviceBySlug, withHistory } from "./services.ts";

/** A vendor's incidents open at some moment of `window`, oldest first. */
function incidentsBetween(db: Db, vendorId: number, window: TimeWindow): SlaIncidentRow[] {
  return (statement(
    db,
    `SELECT id, title, impact, started_at AS startedAt, resolved_at AS resolvedAt FROM incidents
     WHERE vendor_id = ? AND started_at < ? AND (resolved_at IS NULL OR resolved_at > ?)
     ORDER BY started_at, id`,
  ).all(
    vendorId,
    window.end,
    window.start,
  ) as unknown as (Omit<SlaIncidentRow, "id"> & { id: number })[])
    .map((r) => ({ ...r, id: String(r.id) }));
}

/**
 * The stored transitions of each current component (not removed) of a vendor, oldest first,
 * keyed by component row id. A component with none maps to `[]`.
 */
function componentTransitions(db: Db, vendorId: number): Map<number, StatusTransition[]> {
  const rows = statement(
    db,
    `SELECT c.id AS componentId, t.at, t.from_status AS "from", t.to_status AS "to"
     FROM components c LEFT JOIN transitions t ON t.component_id = c.id
     WHERE c.vendor_id = ? AND c.removed_at IS NULL
     ORDER BY c.id, t.at, t.id`,
  ).all(vendorId) as {
    componentId: number;
    at: number | null;
    from: StatusLevel | null;
    to: StatusLevel | null;
  }[];
  const out = new Map<number, StatusTransition[]>();
  for (const r of rows) {
    const list = out.get(r.componentId) ?? [];
    if (r.at !== null && r.from !== null && r.to !== null) {
      list.push({ at: r.at, from: r.from, to: r.to });
    }
    out.set(r.componentId, list);
  }
  return out;
}

/** The history noun over `db`. */
export function historyStore(db: Db): HistoryStore {
  return promised<HistoryStore>({
    servicePage(slug, q) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        if (service === null) return null;
        const stored = componentTransitions(db, service.id);
        const components = componentsOf(db, service.id);
        return {
          detail: {
            ...withHistory(db, [service], q.window)[0]!,
            components,
            incidents: incidentRows(db, { vendorId: service.id, active: true }, {
              page: 0,
              limit: 500,
            }),
            resolved: resolvedSince(db, service.id, q.resolvedAfter),
          },
          uptime: withHistory(db, [service], q.uptime, "recovery")[0]!,
          history: {
            ...withHistory(db, [service], q.history)[0]!,
            components: components.map((component) => ({
              component,
              transitions: stored.get(Number(component.id)) ?? [],
            })),
          },
          past: incidentRows(db, { vendorId: service.id, resolvedSince: q.pastSince }, {
            page: 0,
            limit: q.pastLimit,
          }),
        };
      });
    },
    timeline(slug, window, lookback) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        return service === null ? null : withHistory(db, [service], window, lookback)[0]!;
      });
    },
    slaInputs(slug, window, latency) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        if (service === null) return null;
        return {
          ...withHistory(db, [service], window, "recovery")[0]!,
          incidents: incidentsBetween(db, service.id, window),
          latency: runNow(db, latencyHistogram(service.id, latency)),
        };
      });
    },
    componentTimelines(slug, window) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        if (service === null) return null;
        const stored = componentTransitions(db, service.id);
        return {
          ...withHistory(db, [service], window)[0]!,
          components: componentsOf(db, service.id).map((component) => ({
            component,
            transitions: stored.get(Number(component.id)) ?? [],
          })),
        };
      });
    },
    resolutions(slug, since) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        return service === null ? null : resolvedSince(db, service.id, since);
      });
    },
    fetchLog(slug: string, since: EpochMs) {
      return statement(
        db,
        `SELECT f.at, f.outcome, f.http_status AS httpStatus, f.latency_ms AS latencyMs
         FROM fetches f JOIN vendors v ON v.id = f.vendor_id
         WHERE v.slug = ? AND f.at >= ? ORDER BY f.at, f.id`,
      ).all(slug, since).map((r) => ({ ...r }) as unknown as FetchRecord);
    },
  });
}
