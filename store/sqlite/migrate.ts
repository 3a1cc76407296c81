/**
 * Applies numbered migrations in order, each in its own transaction, recording the version.
 * @module
 */
import { type Db, transaction } from "./db.ts";
import { MIGRATIONS } from "./migrations/mod.ts";

/** One schema step. Never edit one that has shipped: add a new one. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Applies every migration newer than the database's version; returns the versions applied. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const row = db.prepare("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations").get() as {
    v: number;
  };
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= row.v) continue;
    transaction(db, () => {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(m.version, m.name, Date.now());
    });
    applied.push(m.version);
  }
  return applied;
}
