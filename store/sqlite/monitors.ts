/**
 * Monitors on SQLite.
 * @module
 */
import type { MonitorStore } from "../../domain/mod.ts";
import { offsetOf } from "../../domain/mod.ts";
import { toMonitor } from "../shared/monitor_rows.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

type Row = Record<string, unknown>;

/** The monitors noun over `db`. */
export function monitorStore(db: Db): MonitorStore {
  const get = (accountId: string, id: string) => {
    const r = statement(db, "SELECT * FROM monitors WHERE account_id = ? AND id = ?")
      .get(accountId, id) as Row | undefined;
    return r ? toMonitor(r) : null;
  };
  return promised<MonitorStore>({
    create(m, limit) {
      return transaction(db, () => {
        if (limit !== null) {
          const { n } = statement(db, "SELECT COUNT(*) AS n FROM monitors WHERE account_id = ?")
            .get(m.accountId) as { n: number };
          if (n >= limit) return "limit" as const;
        }
        statement(
          db,
          `INSERT INTO monitors (id, account_id, service_slug, components, label, sla_target,
             paused, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
        ).run(
          m.id,
          m.accountId,
          m.serviceSlug,
          JSON.stringify(m.components),
          m.label,
          m.slaTarget,
          m.paused ? 1 : 0,
          m.createdAt,
          m.createdAt,
        );
        return get(m.accountId, m.id)!;
      });
    },
    watching(slugs) {
      return (statement(
        db,
        `SELECT * FROM monitors WHERE service_slug IN (SELECT value FROM json_each(?))
         AND paused = 0 ORDER BY created_at, rowid`,
      ).all(JSON.stringify(slugs)) as Row[]).map(toMonitor);
    },
    list(accountId, page) {
      return readTransaction(db, () => {
        const { n } = statement(db, "SELECT COUNT(*) AS n FROM monitors WHERE account_id = ?")
          .get(accountId) as { n: number };
        const rows = statement(
          db,
          `SELECT * FROM monitors WHERE account_id = ? ORDER BY created_at, rowid
           LIMIT ? OFFSET ?`,
        ).all(accountId, page.limit, offsetOf(page)) as Row[];
        return { items: rows.map(toMonitor), total: n };
      });
    },
    get,
    update(accountId, id, patch, at, ifVersion) {
      return transaction(db, () => {
        const now = get(accountId, id);
        if (now === null) return null;
        if (ifVersion !== null && now.version !== ifVersion) return "conflict" as const;
        const next = { ...now, ...patch };
        statement(
          db,
          `UPDATE monitors SET components = ?, label = ?, sla_target = ?, paused = ?,
             updated_at = ?, version = version + 1 WHERE account_id = ? AND id = ?`,
        ).run(
          JSON.stringify(next.components),
          next.label,
          next.slaTarget,
          next.paused ? 1 : 0,
          at,
          accountId,
          id,
        );
        return get(accountId, id);
      });
    },
    delete(accountId, id, ifVersion) {
      return transaction(db, () => {
        const now = get(accountId, id);
        if (now === null) return false;
        if (ifVersion !== null && now.version !== ifVersion) return "conflict" as const;
        statement(db, "DELETE FROM monitors WHERE account_id = ? AND id = ?").run(accountId, id);
        return true;
      });
    },
  });
}
