/**
 * Read queries behind a service's track record (component history, resolution times) and the
 * home page's recoveries. Small signatures, one job each.
 * @module
 */
import type {
  EpochMs,
  Impact,
  IncidentStatus,
  StatusLevel,
  StatusTransition,
} from "../domain/mod.ts";
import type { Db } from "./db.ts";

/**
 * The stored transitions of each current component (not removed) of a vendor, oldest first,
 * keyed by component id (the `id` reads return). A component with none maps to `[]`; the store
 * keeps at most the newest `STORE_LIMITS.transitionsPerComponent` per component.
 */
export function componentTransitions(db: Db, vendorId: number): Map<string, StatusTransition[]> {
  const rows = db.prepare(
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
  const out = new Map<string, StatusTransition[]>();
  for (const r of rows) {
    const list = out.get(String(r.componentId)) ?? [];
    if (r.at !== null && r.from !== null && r.to !== null) {
      list.push({ at: r.at, from: r.from, to: r.to });
    }
    out.set(String(r.componentId), list);
  }
  return out;
}

/** An incident's facts as resolution times need them. */
export interface ResolvedRow {
  readonly status: IncidentStatus;
  readonly impact: Impact;
  readonly startedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
}

/** The vendor's incidents and maintenances resolved (or completed) at or after `since`. */
export function resolvedSince(db: Db, vendorId: number, since: EpochMs): ResolvedRow[] {
  return db.prepare(
    `SELECT status, impact, started_at AS startedAt, resolved_at AS resolvedAt FROM incidents
     WHERE vendor_id = ? AND status IN ('RESOLVED', 'COMPLETED') AND resolved_at >= ?`,
  ).all(vendorId, since) as unknown as ResolvedRow[];
}

/** A catalog vendor that may have recovered lately. */
export interface ChangedRow {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly currentStatus: StatusLevel;
}

/**
 * Catalog vendors now OPERATIONAL or UNDER_MAINTENANCE whose status changed at or after
 * `since` (the candidates for "recovered recently"), most recent change first.
 */
export function changedToWorkingSince(db: Db, since: EpochMs): ChangedRow[] {
  return db.prepare(
    `SELECT id, slug, name, current_status AS currentStatus FROM vendors
     WHERE in_catalog = 1 AND last_changed_at >= ?
       AND current_status IN ('OPERATIONAL', 'UNDER_MAINTENANCE')
     ORDER BY last_changed_at DESC, id`,
  ).all(since) as unknown as ChangedRow[];
}
