/**
 * The store on PostgreSQL (npm `postgres`): a connection pool, numbered migrations applied at
 * start under an advisory lock, every noun of the port, each method one transaction or one
 * snapshot. Several statusd processes may share the database.
 * @module
 */
import type { Store } from "../../domain/mod.ts";
import { createChangeFanOut } from "../change_feed.ts";
import { accountStore } from "./accounts.ts";
import { catalogStore } from "./catalog.ts";
import { changeStore } from "./changes.ts";
import { connect, type Sql } from "./db.ts";
import { healthStore } from "./health.ts";
import { historyStore } from "./history.ts";
import { incidentStore } from "./incidents.ts";
import { keyStore } from "./keys.ts";
import { migrate } from "./migrate.ts";
import { oauthStore } from "./oauth.ts";
import { pollStore } from "./polls.ts";
import { retentionStore } from "./retention.ts";
import { sessionStore } from "./sessions.ts";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** Told when a change subscriber throws (the writer goes on). */
  readonly onListenerError?: (err: unknown) => void;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
}

/**
 * Connects to the PostgreSQL database at `url`, applies pending migrations (under an advisory
 * lock, so instances starting together migrate once) and returns the store.
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  const sql = connect(url, { max: options.poolSize });
  try {
    await migrate(sql);
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw err;
  }
  return postgresStoreOver(sql, options);
}

/** The store over an open, migrated pool (closing the store ends the pool). */
export function postgresStoreOver(sql: Sql, options: PostgresStoreOptions = {}): Store {
  const feed = createChangeFanOut(options.onListenerError);
  let closing: Promise<void> | null = null;
  return {
    engine: "postgres",
    catalog: catalogStore(sql),
    polls: pollStore(sql, feed),
    incidents: incidentStore(sql),
    history: historyStore(sql),
    changes: changeStore(sql, feed),
    health: healthStore(sql),
    accounts: accountStore(sql),
    keys: keyStore(sql),
    sessions: sessionStore(sql),
    oauth: oauthStore(sql),
    retention: retentionStore(sql),
    close() {
      closing ??= sql.end({ timeout: 5 });
      return closing;
    },
  };
}
