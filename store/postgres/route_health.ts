/**
 * Routes' delivery health on PostgreSQL (`route_health`, migration 9): the outcome is one
 * `INSERT … ON CONFLICT DO UPDATE` computed from the row as it is, so two instances recording at
 * once each count theirs.
 * @module
 */
import type { RouteHealth } from "../../domain/mod.ts";
import type { HealthRow, HealthRows } from "../route_health.ts";
import { read, type Row, type Sql, write } from "./db.ts";

function healthOf(r: Row): HealthRow {
  return {
    failuresInARow: Number(r.failures_in_a_row),
    paused: r.paused_since === null
      ? null
      : { since: Number(r.paused_since), reason: String(r.paused_reason ?? "") },
  };
}

/** The health rows over the pool `sql`. */
export function healthRows(sql: Sql): HealthRows {
  return {
    read(accountId, routeIds) {
      return read(sql, async (tx) => {
        const out = new Map<string, HealthRow>();
        if (routeIds.length === 0) return out;
        for (
          const r of await tx`SELECT * FROM route_health WHERE account_id = ${accountId}
            AND route_id IN ${tx([...routeIds])}`
        ) out.set(String(r.route_id), healthOf(r));
        return out;
      });
    },
    record(accountId, routeId, o) {
      return write(sql, async (tx): Promise<RouteHealth> => {
        const first = o.ok ? 0 : 1;
        const pausedFirst = !o.ok && first >= o.pauseAfter;
        const [r] = await tx`
          INSERT INTO route_health AS h (account_id, route_id, failures_in_a_row, paused_since,
            paused_reason)
          VALUES (${accountId}, ${routeId}, ${first}, ${pausedFirst ? o.at : null},
            ${pausedFirst ? o.reason : null})
          ON CONFLICT (account_id, route_id) DO UPDATE SET
            failures_in_a_row = CASE WHEN ${o.ok} THEN 0 ELSE h.failures_in_a_row + 1 END,
            paused_since = CASE
              WHEN NOT ${o.ok} AND h.paused_since IS NULL
                AND h.failures_in_a_row + 1 >= ${o.pauseAfter} THEN ${o.at}
              ELSE h.paused_since END,
            paused_reason = CASE
              WHEN NOT ${o.ok} AND h.paused_since IS NULL
                AND h.failures_in_a_row + 1 >= ${o.pauseAfter} THEN ${o.reason}
              ELSE h.paused_reason END
          RETURNING h.*`;
        const health = healthOf(r!);
        // Increments are serialised by the row lock, so exactly one outcome reaches the count
        // that pauses the route: the one that paused it.
        return {
          ...health,
          pausedNow: !o.ok && health.paused !== null && health.failuresInARow === o.pauseAfter,
        };
      });
    },
    remove(accountId, routeId) {
      return write(sql, async (tx) => {
        await tx`DELETE FROM route_health WHERE account_id = ${accountId}
          AND route_id = ${routeId}`;
      });
    },
  };
}
