/**
 * Monitors on PostgreSQL.
 * @module
 */
import type { MonitorStore } from "../../domain/mod.ts";
import { offsetOf } from "../../domain/mod.ts";
import { toMonitor } from "../shared/monitor_rows.ts";
import { read, type Sql, write } from "./db.ts";

/** The monitors noun over the pool `sql`. */
export function monitorStore(sql: Sql): MonitorStore {
  const get = async (tx: Sql, accountId: string, id: string, lock = false) => {
    const [r] = lock
      ? await tx`SELECT * FROM monitors WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`
      : await tx`SELECT * FROM monitors WHERE account_id = ${accountId} AND id = ${id}`;
    return r ? toMonitor(r) : null;
  };
  return {
    create(m, limit) {
      return write(sql, async (tx) => {
        // One create at a time per account, so two instances cannot both pass the limit.
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`monitors:${m.accountId}`}))`;
        if (limit !== null) {
          const [{ n }] = await tx`SELECT COUNT(*) AS n FROM monitors
            WHERE account_id = ${m.accountId}`;
          if (Number(n) >= limit) return "limit" as const;
        }
        const [r] = await tx`INSERT INTO monitors (id, account_id, service_slug, components,
            label, sla_target, paused, created_at, updated_at, version)
          VALUES (${m.id}, ${m.accountId}, ${m.serviceSlug}, ${JSON.stringify(m.components)},
            ${m.label}, ${m.slaTarget}, ${m.paused ? 1 : 0}, ${m.createdAt}, ${m.createdAt}, 1)
          RETURNING *`;
        return toMonitor(r!);
      });
    },
    async watching(slugs) {
      const rows = await sql`SELECT * FROM monitors WHERE service_slug = ANY(${slugs as string[]})
        AND paused = 0 ORDER BY created_at, seq`;
      return rows.map(toMonitor);
    },
    list(accountId, page) {
      return read(sql, async (tx) => {
        const [{ n }] = await tx`SELECT COUNT(*) AS n FROM monitors
          WHERE account_id = ${accountId}`;
        const rows = await tx`SELECT * FROM monitors WHERE account_id = ${accountId}
          ORDER BY created_at, seq LIMIT ${page.limit} OFFSET ${offsetOf(page)}`;
        return { items: rows.map(toMonitor), total: Number(n) };
      });
    },
    get: (accountId, id) => get(sql, accountId, id),
    update(accountId, id, patch, at, ifVersion) {
      return write(sql, async (tx) => {
        const now = await get(tx, accountId, id, true);
        if (now === null) return null;
        if (ifVersion !== null && now.version !== ifVersion) return "conflict" as const;
        const next = { ...now, ...patch };
        const [r] = await tx`UPDATE monitors SET components = ${JSON.stringify(next.components)},
            label = ${next.label}, sla_target = ${next.slaTarget}, paused = ${next.paused ? 1 : 0},
            updated_at = ${at}, version = version + 1
          WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
        return toMonitor(r!);
      });
    },
    delete(accountId, id, ifVersion) {
      return write(sql, async (tx) => {
        const now = await get(tx, accountId, id, true);
        if (now === null) return false;
        if (ifVersion !== null && now.version !== ifVersion) return "conflict" as const;
        await tx`DELETE FROM monitors WHERE account_id = ${accountId} AND id = ${id}`;
        return true;
      });
    },
  };
}
