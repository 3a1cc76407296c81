/**
 * Deliveries and their attempts are stored alike on both engines; these map a row
 * to its record.
 * @module
 */
import type {
  AlertMessage,
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryState,
} from "../../domain/mod.ts";

/** Most characters of a reply or error kept per attempt. */
export const REPLY_MAX = 500;

/** A stored `alert_deliveries` row as its record. */
export function deliveryOf(r: Record<string, unknown>): DeliveryRecord {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    routeId: String(r.route_id),
    source: {
      kind: String(r.source_kind) as DeliveryRecord["source"]["kind"],
      id: r.source_id === null ? null : String(r.source_id),
    },
    changeId: r.change_id === null ? null : Number(r.change_id),
    notificationId: String(r.notification_id),
    subject: r.subject === null ? null : String(r.subject),
    step: Number(r.step),
    recovery: Number(r.recovery) === 1,
    message: JSON.parse(String(r.message)) as AlertMessage,
    notBefore: Number(r.not_before),
    createdAt: Number(r.created_at),
    state: String(r.state) as DeliveryState,
    attempts: Number(r.attempts),
    lastError: r.last_error === null ? null : String(r.last_error),
    updatedAt: Number(r.updated_at),
    claimedUntil: r.claimed_until === null || r.claimed_until === undefined
      ? null
      : Number(r.claimed_until),
  };
}

/** A stored `alert_attempts` row as its record. */
export function attemptOf(r: Record<string, unknown>): DeliveryAttempt {
  return {
    n: Number(r.n),
    at: Number(r.at),
    ok: Number(r.ok) === 1,
    status: r.status === null ? null : Number(r.status),
    reply: r.reply === null ? null : String(r.reply),
    latencyMs: Number(r.latency_ms),
    error: r.error === null ? null : String(r.error),
  };
}
