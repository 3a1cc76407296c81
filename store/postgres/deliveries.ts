/**
 * The alerting outbox on PostgreSQL, as on SQLite; several instances share it, so a
 * claim takes due rows with `FOR UPDATE SKIP LOCKED` and a lease, and a cursor move is a
 * compare-and-set under the row lock. A lease held by an instance whose process died is free
 * at once (store/postgres/liveness.ts), not when it runs out.
 * @module
 */
import type { DeliveryStore, NewDelivery } from "../../domain/mod.ts";
import { MAX_IN_FLIGHT_PER_ACCOUNT, offsetOf } from "../../domain/mod.ts";
import { attemptOf, deliveryOf, REPLY_MAX } from "../shared/delivery_rows.ts";
import { affected, read, type Row, type Sql, write } from "./db.ts";
import { DEAD_HOLDERS_SQL } from "./liveness.ts";

async function insert(tx: Sql, d: NewDelivery): Promise<number> {
  return affected(
    await tx`INSERT INTO alert_deliveries (id, account_id, route_id, source_kind, source_id,
        change_id, notification_id, subject, step, recovery, message, state, not_before,
        created_at, updated_at)
      VALUES (${d.id}, ${d.accountId}, ${d.routeId}, ${d.source.kind}, ${d.source.id},
        ${d.changeId}, ${d.notificationId}, ${d.subject}, ${d.step}, ${d.recovery ? 1 : 0},
        ${JSON.stringify(d.message)}, ${d.closing ? "cancelled" : "pending"}, ${d.notBefore},
        ${d.createdAt}, ${d.createdAt})
      ON CONFLICT (id) DO NOTHING`,
  );
}

/** The outbox noun over `sql`. */
export function deliveryStore(sql: Sql): DeliveryStore {
  const one = async (tx: Sql, id: string) =>
    (await tx`SELECT * FROM alert_deliveries WHERE id = ${id}`)[0] as Row | undefined;
  return {
    enqueue(items, options = {}) {
      return write(sql, async (tx) => {
        if (options.cursor) {
          const { name, from, to } = options.cursor;
          await tx`INSERT INTO alert_cursors (name, position, updated_at)
            VALUES (${name}, 0, ${Date.now()}) ON CONFLICT (name) DO NOTHING`;
          const [at] = await tx`SELECT position FROM alert_cursors WHERE name = ${name}
            FOR UPDATE`;
          if (Number(at!.position) !== from) return "stale_cursor" as const;
          await tx`UPDATE alert_cursors SET position = ${to}, updated_at = ${Date.now()}
            WHERE name = ${name}`;
        }
        // Cancels first: a recovery queued with the cancel of its notification's steps stays.
        for (const n of options.cancel?.notificationIds ?? []) {
          await tx`UPDATE alert_deliveries SET state = 'cancelled', updated_at = ${Date.now()}
            WHERE notification_id = ${n} AND state = 'pending'
              AND not_before > ${options.cancel!.dueAfter}`;
        }
        if (options.end?.notificationIds.length) {
          // Taken in the claims' turn, so the locks below never cross a claim's.
          await tx`SELECT pg_advisory_xact_lock(hashtext('alert_deliveries_claim'))`;
        }
        for (const n of options.end?.notificationIds ?? []) {
          // Every pending one is locked first, the one being attempted too: a worker recording
          // its failure meanwhile either commits first (its retry is then cancelled here) or
          // waits and sees the recovery this transaction inserts (and retries nothing).
          await tx`SELECT id FROM alert_deliveries WHERE notification_id = ${n}
            AND state = 'pending' ORDER BY id FOR UPDATE`;
          await tx`UPDATE alert_deliveries SET state = 'cancelled', updated_at = ${Date.now()}
            WHERE notification_id = ${n} AND state = 'pending' AND recovery = 0
              AND (claimed_until IS NULL OR claimed_until < ${options.end!.at})`;
        }
        let inserted = 0;
        for (const d of items) inserted += await insert(tx, d);
        return { inserted };
      });
    },
    async cursor(name) {
      const [r] = await sql`SELECT position FROM alert_cursors WHERE name = ${name}`;
      return r ? Number(r.position) : null;
    },
    async openNotifications(sourceId, subject) {
      return (await sql`SELECT * FROM alert_deliveries WHERE source_id = ${sourceId}
        AND subject = ${subject} AND state = 'pending' ORDER BY created_at, seq`).map(deliveryOf);
    },
    async ofNotification(notificationId) {
      return (await sql`SELECT * FROM alert_deliveries WHERE notification_id = ${notificationId}
        ORDER BY created_at, seq`).map(deliveryOf);
    },
    async unresolved(subjectPrefix) {
      const rows = await sql`SELECT * FROM (
          SELECT d.*, ROW_NUMBER() OVER (PARTITION BY source_id, subject
            ORDER BY created_at DESC, seq DESC) AS nth
          FROM alert_deliveries d WHERE left(subject, ${subjectPrefix.length}) = ${subjectPrefix})
            AS latest
        WHERE nth = 1 AND recovery = 0 AND state <> 'cancelled' ORDER BY created_at`;
      return rows.map(deliveryOf);
    },
    async cancelPending(sourceId, dueAfter) {
      return affected(
        await sql`UPDATE alert_deliveries SET state = 'cancelled', updated_at = ${dueAfter}
          WHERE source_id = ${sourceId} AND state = 'pending' AND attempts = 0
            AND not_before > ${dueAfter}`,
      );
    },
    async latestFor(sourceId, subject) {
      const [r] = await sql`SELECT * FROM alert_deliveries WHERE source_id = ${sourceId}
        AND subject = ${subject} ORDER BY created_at DESC, seq DESC LIMIT 1`;
      return r ? deliveryOf(r) : null;
    },
    async acknowledge(notificationId, at) {
      return affected(
        await sql`UPDATE alert_deliveries SET state = 'acknowledged', updated_at = ${at}
          WHERE notification_id = ${notificationId} AND state = 'pending' AND not_before > ${at}`,
      );
    },
    list(accountId, filter, page) {
      return read(sql, async (tx) => {
        const w = tx`account_id = ${accountId}
          ${filter.state ? tx`AND state = ${filter.state}` : tx``}
          ${filter.routeId ? tx`AND route_id = ${filter.routeId}` : tx``}
          ${filter.sourceId ? tx`AND source_id = ${filter.sourceId}` : tx``}`;
        const [{ n }] = await tx`SELECT COUNT(*) AS n FROM alert_deliveries WHERE ${w}`;
        const rows = await tx`SELECT * FROM alert_deliveries WHERE ${w}
          ORDER BY created_at DESC, seq DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`;
        return { items: rows.map(deliveryOf), total: Number(n) };
      });
    },
    get(accountId, id) {
      return read(sql, async (tx) => {
        const r = await one(tx, id);
        if (!r || r.account_id !== accountId) return null;
        const attempts = await tx`SELECT * FROM alert_attempts WHERE delivery_id = ${id}
          ORDER BY n`;
        return { delivery: deliveryOf(r), attempts: attempts.map(attemptOf) };
      });
    },
    claimDue(now, limit, holder, leaseMs) {
      return write(sql, async (tx) => {
        // One claimer at a time across instances: the fair choice reads every live lease.
        await tx`SELECT pg_advisory_xact_lock(hashtext('alert_deliveries_claim'))`;
        const rows = await tx`UPDATE alert_deliveries SET claimed_by = ${holder},
            claimed_until = ${now + leaseMs}
          WHERE id IN (
            WITH dead AS (${tx.unsafe(DEAD_HOLDERS_SQL)}),
            live AS (
              SELECT account_id, route_id FROM alert_deliveries
              WHERE state = 'pending' AND claimed_until >= ${now}
                AND claimed_by NOT IN (SELECT holder FROM dead)
            ),
            heads AS (
              SELECT id, account_id, route_id, not_before, seq,
                ROW_NUMBER() OVER (PARTITION BY account_id, route_id ORDER BY not_before, seq)
                  AS in_route
              FROM alert_deliveries
              WHERE state = 'pending' AND not_before <= ${now}
                AND (claimed_until IS NULL OR claimed_until < ${now}
                  OR claimed_by IN (SELECT holder FROM dead))
            ),
            turns AS (
              SELECT h.id, h.not_before, h.seq,
                ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.not_before, h.seq)
                  + (SELECT COUNT(*) FROM live l WHERE l.account_id = h.account_id) AS turn
              FROM heads h
              WHERE h.in_route = 1 AND NOT EXISTS (
                SELECT 1 FROM live l WHERE l.account_id = h.account_id
                  AND l.route_id = h.route_id)
            )
            SELECT id FROM turns WHERE turn <= ${MAX_IN_FLIGHT_PER_ACCOUNT}
            ORDER BY turn, not_before, seq LIMIT ${limit})
          RETURNING *`;
        // Due first, then as they were enqueued (the order SQLite returns them in).
        return [...rows]
          .sort((a, b) =>
            Number(a.not_before) - Number(b.not_before) || Number(a.seq) - Number(b.seq)
          )
          .map(deliveryOf);
      });
    },
    extendLease(ids, holder, until) {
      if (ids.length === 0) return Promise.resolve(0);
      return write(sql, async (tx) =>
        affected(
          await tx`UPDATE alert_deliveries SET claimed_until = ${until}
            WHERE id IN ${tx(ids)} AND claimed_by = ${holder} AND state = 'pending'`,
        ));
    },
    finish(id, holder, attempt, next) {
      return write(sql, async (tx) => {
        const [r] = await tx`SELECT attempts, claimed_by, recovery, notification_id
          FROM alert_deliveries WHERE id = ${id} FOR UPDATE`;
        if (!r || r.claimed_by !== holder) return false;
        const n = Number(r.attempts) + 1;
        const ended = next.state === "pending" && Number(r.recovery) === 0 &&
          (await tx`SELECT 1 FROM alert_deliveries WHERE notification_id = ${r.notification_id}
            AND recovery = 1 LIMIT 1`).length > 0;
        await tx`INSERT INTO alert_attempts (delivery_id, n, at, ok, status, reply, latency_ms,
            error)
          VALUES (${id}, ${n}, ${attempt.at}, ${attempt.ok ? 1 : 0}, ${attempt.status},
            ${attempt.reply?.slice(0, REPLY_MAX) ?? null}, ${Math.round(attempt.latencyMs)},
            ${attempt.error?.slice(0, REPLY_MAX) ?? null})`;
        await tx`UPDATE alert_deliveries SET
            state = CASE WHEN state = 'pending' THEN ${ended ? "cancelled" : next.state}
              ELSE state END,
            not_before = ${next.notBefore}, attempts = ${n}, last_error = ${next.error},
            claimed_by = NULL, claimed_until = NULL, updated_at = ${attempt.at}
          WHERE id = ${id}`;
        return true;
      });
    },
    redeliver(accountId, id, at) {
      return write(sql, async (tx) => {
        const r = await one(tx, id);
        if (!r || r.account_id !== accountId) return null;
        await tx`UPDATE alert_deliveries SET state = 'pending', not_before = ${at},
            claimed_by = NULL, claimed_until = NULL, updated_at = ${at} WHERE id = ${id}`;
        return deliveryOf((await one(tx, id))!);
      });
    },
  };
}
