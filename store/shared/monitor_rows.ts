/**
 * A stored monitors row as a monitor, shared by both engines (same columns, same names).
 * @module
 */
import type { MonitorRecord } from "../../domain/mod.ts";

/** A `monitors` row as the engines read it. */
export function toMonitor(r: Record<string, unknown>): MonitorRecord {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    serviceSlug: String(r.service_slug),
    components: JSON.parse(String(r.components)) as string[],
    label: r.label === null ? null : String(r.label),
    slaTarget: r.sla_target === null ? null : Number(r.sla_target),
    paused: Number(r.paused) === 1,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    version: Number(r.version),
  };
}
