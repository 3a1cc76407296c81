/**
 * Persistence: SQLite through node:sqlite, numbered migrations, named queries by noun.
 * @module
 */
import { type Db, openDb } from "./db.ts";
import { migrate } from "./migrate.ts";

export type { Db } from "./db.ts";
export { transaction } from "./db.ts";
export { migrate } from "./migrate.ts";
export * from "./changes.ts";
export * from "./vendors.ts";
export * from "./snapshots.ts";
export * from "./polls.ts";
export * from "./services.ts";
export * from "./history.ts";
export * from "./accounts.ts";
export * from "./api_keys.ts";
export * from "./sessions.ts";
export * from "./sla.ts";
export * from "./oauth.ts";
export * from "./retention.ts";

/** Opens the database at `path` and applies pending migrations. */
export function openStore(path: string): Db {
  const db = openDb(path);
  migrate(db);
  return db;
}
export * from "./pages.ts";
