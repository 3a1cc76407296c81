/**
 * Read queries behind the SLA report: measured fetch latencies and incidents in a window.
 * @module
 */
import type { EpochMs, Impact } from "../domain/mod.ts";
import type { Db } from "./db.ts";

/**
 * Latencies (ms) of the fetches of a vendor's status endpoint in `[start, end)` that got an
 * answer (`ok` or `not_modified`; failures and timeouts are left out), ascending.
 */
export function fetchLatencies(db: Db, vendorId: number, start: EpochMs, end: EpochMs): number[] {
  return (db.prepare(
    `SELECT latency_ms AS ms FROM fetches
     WHERE vendor_id = ? AND at >= ? AND at < ? AND outcome IN ('ok', 'not_modified')
     ORDER BY latency_ms`,
  ).all(vendorId, start, end) as { ms: number }[]).map((r) => r.ms);
}

/** An incident as the SLA report cites it. */
export interface SlaIncidentRow {
  readonly id: string;
  readonly title: string;
  readonly impact: Impact;
  readonly startedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
}

/** A vendor's incidents open at some moment of `[start, end)`, oldest first. */
export function incidentsBetween(
  db: Db,
  vendorId: number,
  start: EpochMs,
  end: EpochMs,
): SlaIncidentRow[] {
  return (db.prepare(
    `SELECT id, title, impact, started_at AS startedAt, resolved_at AS resolvedAt FROM incidents
     WHERE vendor_id = ? AND started_at < ? AND (resolved_at IS NULL OR resolved_at > ?)
     ORDER BY started_at, id`,
  ).all(vendorId, end, start) as unknown as (Omit<SlaIncidentRow, "id"> & { id: number })[])
    .map((r) => ({ ...r, id: String(r.id) }));
}
