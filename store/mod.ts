/**
 * Persistence behind the store port (domain/store/): `openStore` picks the engine from the
 * configuration; `store/sqlite/` is the embedded default.
 * @module
 */
import type { Store } from "../domain/mod.ts";
import { openSqliteStore } from "./sqlite/mod.ts";
import { reasonOf } from "./open_error.ts";

// PostgreSQL (`./postgres/mod.ts`, `./copy_to_postgres.ts`) is imported by whoever needs it:
// on SQLite the server never loads the PostgreSQL client (memory at rest).
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
export async function openStore(
  location: StoreLocation,
  options: {
    readonly onListenerError?: (err: unknown) => void;
    /** This instance's name (PostgreSQL: the owner of the vendors it claims). */
    readonly instance?: string;
  } = {},
): Promise<Store> {
  if (location.databaseUrl !== null) {
    const url = parseDatabaseUrl(location.databaseUrl);
    try {
      const { openPostgresStore } = await import("./postgres/mod.ts");
      return await openPostgresStore(location.databaseUrl, options);
    } catch (err) {
      throw new StoreOpenError(
        `Cannot use STATUSD_DATABASE_URL (${url.host}): ${reasonOf(err)}`,
      );
    }
  }
  try {
    return openSqliteStore(location.dbPath, options);
  } catch (err) {
    throw new StoreOpenError(
      `Cannot open the SQLite database in STATUSD_DB (${location.dbPath}): ${reasonOf(err)}`,
    );
  }
}

/** The URL of `STATUSD_DATABASE_URL`, or a one-line error that never repeats its password. */
function parseDatabaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StoreOpenError(
      "Cannot use STATUSD_DATABASE_URL: not a URL (expected postgres://user:password@host:5432/database)",
    );
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new StoreOpenError(
      `Cannot use STATUSD_DATABASE_URL: the scheme must be postgres:// or postgresql://, not ${url.protocol}//`,
    );
  }
  if (url.hostname === "") {
    throw new StoreOpenError("Cannot use STATUSD_DATABASE_URL: no host in the URL");
  }
  return url;
}
