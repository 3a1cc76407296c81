/**
 * Applies the numbered PostgreSQL migrations at start, under a transaction-level advisory lock:
 * two instances starting at once queue on the lock, and the second finds everything applied.
 * Any version missing from `schema_migrations` is applied, in order.
 * @module
 */
import type { Sql } from "./db.ts";
import { MIGRATIONS } from "./migrations/mod.ts";
import type { Migration } from "../shared/migration.ts";

export type { Migration };

/** The advisory lock key statusd's migrations take (any constant shared by every instance). */
const MIGRATION_LOCK = 7_355_001;

/** Applies every migration the database has not recorded; returns the versions applied. */
export function migrate(
  sql: Sql,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
    const done = new Set(
      (await tx`SELECT version FROM schema_migrations`).map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name, applied_at)
        VALUES (${m.version}, ${m.name}, ${Date.now()})`;
      applied.push(m.version);
    }
    return applied;
  }) as Promise<number[]>;
}
