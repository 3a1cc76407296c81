/**
 * Helpers for SQLite's own tests: open the file itself (to look at rows the port does not
 * show, or to build an old database), and the store over that same connection.
 * @module
 */
import type { Store } from "../../../domain/mod.ts";
import { type Db, openDb } from "../../../store/sqlite/db.ts";
import { migrate, type Migration } from "../../../store/sqlite/migrate.ts";
import { MIGRATIONS } from "../../../store/sqlite/migrations/mod.ts";
import { sqliteStoreOver } from "../../../store/sqlite/mod.ts";

export { type Db, migrate, type Migration, MIGRATIONS, openDb };

/** A migrated database at `path` and the store over the same connection (close the store). */
export function openStoreWithDb(path: string): { db: Db; store: Store } {
  const db = openDb(path);
  migrate(db);
  return { db, store: sqliteStoreOver(db) };
}

/** A fresh temp folder holding `statusd.db`; `remove` deletes it. */
export function tempPath(): { path: string; remove(): void } {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  return { path: `${dir}/statusd.db`, remove: () => Deno.removeSync(dir, { recursive: true }) };
}

/** Every row of `table` as plain objects, ordered by id. */
export function rowsOf(db: Db, table: string): Record<string, unknown>[] {
  return db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all().map((r) => ({ ...r }));
}
