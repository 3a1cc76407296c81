/**
 * Persistence behind the store port (domain/store/): `openStore` picks the engine from the
 * configuration; `store/sqlite/` is the embedded default.
 * @module
 */
import type { Store } from "../domain/mod.ts";
import { openSqliteStore } from "./sqlite/mod.ts";

export { openSqliteStore, type SqliteStoreOptions } from "./sqlite/mod.ts";

/** Where the data lives (the `database` slice of the configuration). */
export interface StoreLocation {
  /** `STATUSD_DATABASE_URL` (`postgres://…`), or null for SQLite. */
  readonly databaseUrl: string | null;
  /** `STATUSD_DB`: the SQLite file, used when no database URL is set. */
  readonly dbPath: string;
}

/** Why the store could not be opened, in one line naming what to fix. */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
}

/**
 * Opens the store the configuration names: PostgreSQL at `databaseUrl` when set, else the
 * SQLite file `dbPath`.
 */
export function openStore(
  location: StoreLocation,
  options: { readonly onListenerError?: (err: unknown) => void } = {},
): Promise<Store> {
  if (location.databaseUrl !== null) {
    const host = new URL(location.databaseUrl).host;
    return Promise.reject(
      new StoreOpenError(
        `Cannot use STATUSD_DATABASE_URL (${host}): PostgreSQL support is not built yet`,
      ),
    );
  }
  try {
    return Promise.resolve(openSqliteStore(location.dbPath, options));
  } catch (err) {
    return Promise.reject(
      new StoreOpenError(
        `Cannot open the SQLite database in STATUSD_DB (${location.dbPath}): ${
          err instanceof Error ? err.message : String(err)
        }`,
      ),
    );
  }
}
