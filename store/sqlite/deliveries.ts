/**
 * The alerting outbox on SQLite: `alert_deliveries`, their `alert_attempts` and the
 * evaluator's `alert_cursors` (migration 13). One process owns a SQLite file, so a claim is a
 * plain update inside a write transaction.
 * @module
 */
import type { DeliveryAttempt, DeliveryStore, NewDelivery } from "../../domain/mod.ts";
import { MAX_IN_FLIGHT_PER_ACCOUNT, offsetOf } from "../../domain/mod.ts";
import { attemptOf, deliveryOf, REPLY_MAX } from "../shared/delivery_rows.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

type Row = Record<string, unknown>;

/**
 * The fair claim (the port's `claimDue`): each route's earliest due delivery, of routes with
 * none under a live lease, numbered per account after the account's live leases, at most
 * `:perAccount` per account, accounts in turn.
 */
const FAIR_CLAIM = `
  WITH live AS (
    SELECT account_id, route_id FROM alert_deliveries
    WHERE state = 'pending' AND claimed_until >= :now
  ),
  heads AS (
    SELECT id, account_id, route_id, not_before, rowid AS seq,
      ROW_NUMBER() OVER (PARTITION BY account_id, route_id ORDER BY not_before, rowid) AS in_route
    FROM alert_deliveries
    WHERE state = 'pending' AND not_before <= :now
      AND (claimed_until IS NULL OR claimed_until < :now)
  ),
  turns AS (
    SELECT h.id, h.not_before, h.seq,
      ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.not_before, h.seq)
        + (SELECT COUNT(*) FROM live l WHERE l.account_id = h.account_id) AS turn
    FROM heads h
    WHERE h.in_route = 1 AND NOT EXISTS (
      SELECT 1 FROM live l WHERE l.account_id = h.account_id AND l.route_id = h.route_id)
  )
  SELECT id FROM turns WHERE turn <= :perAccount ORDER BY turn, not_before, seq LIMIT :limit`;

function insert(db: Db, d: NewDelivery): number {
  const r = statement(
    db,
    `INSERT INTO alert_deliveries (id, account_id, route_id, source_kind, source_id, change_id,
       notification_id, subject, step, recovery, message, state, not_before, created_at,
       updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  ).run(
    d.id,
    d.accountId,
    d.routeId,
    d.source.kind,
    d.source.id,
    d.changeId,
    d.notificationId,
    d.subject,
    d.step,
    d.recovery ? 1 : 0,
    JSON.stringify(d.message),
    d.closing ? "cancelled" : "pending",
    d.notBefore,
    d.createdAt,
    d.createdAt,
  );
  return Number(r.changes);
}

/** The outbox noun over `db`. */
export function deliveryStore(db: Db): DeliveryStore {
  const one = (id: string) =>
    statement(db, "SELECT * FROM alert_deliveries WHERE id = ?").get(id) as Row | undefined;
  return promised<DeliveryStore>({
    enqueue(items, options = {}) {
      return transaction(db, () => {
        if (options.cursor) {
          const { name, from, to } = options.cursor;
          const at = statement(db, "SELECT position FROM alert_cursors WHERE name = ?")
            .get(name) as { position: number } | undefined;
          if ((at?.position ?? 0) !== from) return "stale_cursor" as const;
          statement(
            db,
            `INSERT INTO alert_cursors (name, position, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET position = excluded.position,
               updated_at = excluded.updated_at`,
          ).run(name, to, Date.now());
        }
        // Cancels first: a recovery queued with the cancel of its notification's steps stays.
        for (const n of options.cancel?.notificationIds ?? []) {
          statement(
            db,
            `UPDATE alert_deliveries SET state = 'cancelled', updated_at = ?
             WHERE notification_id = ? AND state = 'pending' AND not_before > ?`,
          ).run(Date.now(), n, options.cancel!.dueAfter);
        }
        for (const n of options.end?.notificationIds ?? []) {
          statement(
            db,
            `UPDATE alert_deliveries SET state = 'cancelled', updated_at = ?
             WHERE notification_id = ? AND state = 'pending' AND recovery = 0
               AND (claimed_until IS NULL OR claimed_until < ?)`,
          ).run(Date.now(), n, options.end!.at);
        }
        let inserted = 0;
        for (const d of items) inserted += insert(db, d);
        return { inserted };
      });
    },
    cursor(name) {
      const r = statement(db, "SELECT position FROM alert_cursors WHERE name = ?").get(name) as
        | { position: number }
        | undefined;
      return r ? Number(r.position) : null;
    },
    openNotifications(sourceId, subject) {
      return (statement(
        db,
        `SELECT * FROM alert_deliveries WHERE source_id = ? AND subject = ? AND state = 'pending'
         ORDER BY created_at, rowid`,
      ).all(sourceId, subject) as Row[]).map(deliveryOf);
    },
    ofNotification(notificationId) {
      return (statement(
        db,
        `SELECT * FROM alert_deliveries WHERE notification_id = ? ORDER BY created_at, rowid`,
      ).all(notificationId) as Row[]).map(deliveryOf);
    },
    unresolved(subjectPrefix) {
      const rows = statement(
        db,
        `SELECT * FROM (
           SELECT d.*, ROW_NUMBER() OVER (PARTITION BY source_id, subject
             ORDER BY created_at DESC, rowid DESC) AS nth
           FROM alert_deliveries d WHERE substr(subject, 1, ?) = ?)
         WHERE nth = 1 AND recovery = 0 AND state <> 'cancelled' ORDER BY created_at`,
      ).all(subjectPrefix.length, subjectPrefix) as Row[];
      return rows.map(deliveryOf);
    },
    cancelPending(sourceId, dueAfter) {
      const r = statement(
        db,
        `UPDATE alert_deliveries SET state = 'cancelled', updated_at = ?
         WHERE source_id = ? AND state = 'pending' AND attempts = 0 AND not_before > ?`,
      ).run(dueAfter, sourceId, dueAfter);
      return Number(r.changes);
    },
    latestFor(sourceId, subject) {
      const r = statement(
        db,
        `SELECT * FROM alert_deliveries WHERE source_id = ? AND subject = ?
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      ).get(sourceId, subject) as Row | undefined;
      return r ? deliveryOf(r) : null;
    },
    acknowledge(notificationId, at) {
      const r = statement(
        db,
        `UPDATE alert_deliveries SET state = 'acknowledged', updated_at = ?
         WHERE notification_id = ? AND state = 'pending' AND not_before > ?`,
      ).run(at, notificationId, at);
      return Number(r.changes);
    },
    list(accountId, filter, page) {
      return readTransaction(db, () => {
        const where = ["account_id = ?"];
        const params: (string | number)[] = [accountId];
        if (filter.state) (where.push("state = ?"), params.push(filter.state));
        if (filter.routeId) (where.push("route_id = ?"), params.push(filter.routeId));
        if (filter.sourceId) (where.push("source_id = ?"), params.push(filter.sourceId));
        const w = where.join(" AND ");
        const { n } = statement(db, `SELECT COUNT(*) AS n FROM alert_deliveries WHERE ${w}`)
          .get(...params) as { n: number };
        const rows = statement(
          db,
          `SELECT * FROM alert_deliveries WHERE ${w}
           ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
        ).all(...params, page.limit, offsetOf(page)) as Row[];
        return { items: rows.map(deliveryOf), total: Number(n) };
      });
    },
    get(accountId, id) {
      return readTransaction(db, () => {
        const r = one(id);
        if (!r || r.account_id !== accountId) return null;
        const attempts = (statement(
          db,
          "SELECT * FROM alert_attempts WHERE delivery_id = ? ORDER BY n",
        ).all(id) as Row[]).map(attemptOf);
        return { delivery: deliveryOf(r), attempts };
      });
    },
    claimDue(now, limit, holder, leaseMs) {
      return transaction(db, () => {
        const rows = statement(db, FAIR_CLAIM).all({
          now,
          limit,
          perAccount: MAX_IN_FLIGHT_PER_ACCOUNT,
        }) as { id: string }[];
        const claim = statement(
          db,
          "UPDATE alert_deliveries SET claimed_by = ?, claimed_until = ? WHERE id = ?",
        );
        for (const r of rows) claim.run(holder, now + leaseMs, r.id);
        return rows.map((r) => deliveryOf(one(r.id)!));
      });
    },
    extendLease(ids, holder, until) {
      return transaction(db, () => {
        const extend = statement(
          db,
          `UPDATE alert_deliveries SET claimed_until = ?
           WHERE id = ? AND claimed_by = ? AND state = 'pending'`,
        );
        let n = 0;
        for (const id of ids) n += Number(extend.run(until, id, holder).changes);
        return n;
      });
    },
    finish(id, holder, attempt: DeliveryAttempt, next) {
      return transaction(db, () => {
        const r = one(id);
        if (!r || r.claimed_by !== holder) return false;
        const n = Number(r.attempts) + 1;
        const ended = next.state === "pending" && Number(r.recovery) === 0 &&
          statement(
              db,
              `SELECT 1 FROM alert_deliveries WHERE notification_id = ? AND recovery = 1 LIMIT 1`,
            ).get(r.notification_id as string) !== undefined;
        statement(
          db,
          `INSERT INTO alert_attempts (delivery_id, n, at, ok, status, reply, latency_ms, error)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          n,
          attempt.at,
          attempt.ok ? 1 : 0,
          attempt.status,
          attempt.reply?.slice(0, REPLY_MAX) ?? null,
          Math.round(attempt.latencyMs),
          attempt.error?.slice(0, REPLY_MAX) ?? null,
        );
        statement(
          db,
          `UPDATE alert_deliveries SET state = CASE WHEN state = 'pending' THEN ? ELSE state END,
             not_before = ?, attempts = ?, last_error = ?, claimed_by = NULL,
             claimed_until = NULL, updated_at = ? WHERE id = ?`,
        ).run(ended ? "cancelled" : next.state, next.notBefore, n, next.error, attempt.at, id);
        return true;
      });
    },
    redeliver(accountId, id, at) {
      return transaction(db, () => {
        const r = one(id);
        if (!r || r.account_id !== accountId) return null;
        statement(
          db,
          `UPDATE alert_deliveries SET state = 'pending', not_before = ?, claimed_by = NULL,
             claimed_until = NULL, updated_at = ? WHERE id = ?`,
        ).run(at, at, id);
        return deliveryOf(one(id)!);
      });
    },
  });
}
