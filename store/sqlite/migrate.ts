/**
 * Applies the numbered SQLite migrations at start. The check and the work run in one
 * `BEGIN IMMEDIATE` transaction, which takes SQLite's write lock first: two processes starting
 * at once queue on it (busy_timeout), and the second finds everything applied. Any version
 * missing from `schema_migrations` is applied, in order, not only versions above the highest.
 * @module
 */
import { type Db, transaction } from "./db.ts";
import { MIGRATIONS } from "./migrations/mod.ts";
import type { Migration } from "../shared/migration.ts";

export type { Migration };

/** Applies every migration the database has not recorded; returns the versions applied. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number[] {
  return transaction(db, () => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    const done = new Set(
      db.prepare("SELECT version FROM schema_migrations").all().map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(m.version, m.name, Date.now());
      applied.push(m.version);
    }
    return applied;
  });
}
