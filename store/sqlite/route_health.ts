/**
 * Routes' delivery health on SQLite (`route_health`, migration 15): one writer, so the outcome
 * is read and written in one transaction.
 * @module
 */
import type { RouteHealth } from "../../domain/mod.ts";
import type { HealthRow, HealthRows } from "../route_health.ts";
import { type Db, statement, transaction } from "./db.ts";

type Row = Record<string, unknown>;

function healthOf(r: Row | undefined): HealthRow {
  if (!r) return { failuresInARow: 0, paused: null };
  return {
    failuresInARow: Number(r.failures_in_a_row),
    paused: r.paused_since === null
      ? null
      : { since: Number(r.paused_since), reason: String(r.paused_reason ?? "") },
  };
}

/** The health rows over `db`. */
export function healthRows(db: Db): HealthRows {
  const one = (accountId: string, routeId: string) =>
    statement(db, "SELECT * FROM route_health WHERE account_id = ? AND route_id = ?")
      .get(accountId, routeId) as Row | undefined;
  return {
    read(accountId, routeIds) {
      const out = new Map<string, HealthRow>();
      for (const id of routeIds) {
        const r = one(accountId, id);
        if (r) out.set(id, healthOf(r));
      }
      return Promise.resolve(out);
    },
    record(accountId, routeId, o) {
      return Promise.resolve(transaction(db, (): RouteHealth => {
        const was = healthOf(one(accountId, routeId));
        const failures = o.ok ? 0 : was.failuresInARow + 1;
        const pauseNow = !o.ok && was.paused === null && failures >= o.pauseAfter;
        const paused = pauseNow ? { since: o.at, reason: o.reason } : was.paused;
        statement(
          db,
          `INSERT INTO route_health (account_id, route_id, failures_in_a_row, paused_since,
             paused_reason) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (account_id, route_id) DO UPDATE SET
             failures_in_a_row = excluded.failures_in_a_row,
             paused_since = excluded.paused_since, paused_reason = excluded.paused_reason`,
        ).run(accountId, routeId, failures, paused?.since ?? null, paused?.reason ?? null);
        return { failuresInARow: failures, paused, pausedNow: pauseNow };
      }));
    },
    remove(accountId, routeId) {
      statement(db, "DELETE FROM route_health WHERE account_id = ? AND route_id = ?")
        .run(accountId, routeId);
      return Promise.resolve();
    },
  };
}
