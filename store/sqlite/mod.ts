/**
 * The store on SQLite (node:sqlite): one file (or `:memory:`), numbered migrations applied at
 * open, every noun of the port over one connection. Synchronous underneath, promises outside.
 * @module
 */
import type { Store } from "../../domain/mod.ts";
import { createChangeFanOut } from "../shared/change_feed.ts";
import { mailStore } from "./mail.ts";
import { deliveryStore } from "./deliveries.ts";
import { attemptStore } from "./attempts.ts";
import { type Db, openDb } from "./db.ts";
import { migrate } from "./migrate.ts";
import { monitorStore } from "./monitors.ts";
import { sqliteEngine } from "./engine.ts";
import { sharedNouns } from "../shared/nouns.ts";
import { pollStore } from "./polls.ts";
import { retentionStore } from "./retention.ts";
import { type CommitWindows, createWriteBatch } from "./write_batch.ts";

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Told when a change subscriber throws (the writer goes on). */
  readonly onListenerError?: (err: unknown) => void;
  /** Group-commit windows; production's by default, 0 in the test suite. */
  readonly commitWindows?: CommitWindows;
}

/**
 * Opens (creating it and its folder when missing) the SQLite database at `path`, or an
 * in-memory one for `":memory:"`, applies pending migrations, and returns the store.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const db = openDb(path);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return sqliteStoreOver(db, options);
}

/**
 * The store over an open, migrated connection (closing the store closes it). Only SQLite's
 * own tests use it directly, to look at rows the port does not show (caps, legacy values).
 */
export function sqliteStoreOver(db: Db, options: SqliteStoreOptions = {}): Store {
  const feed = createChangeFanOut(options.onListenerError);
  const batch = createWriteBatch(db, options.commitWindows);
  let open = true;
  return {
    engine: "sqlite",
    ...sharedNouns(sqliteEngine(db), feed, {
      lockSql: null,
      notifySql: null,
      published: (changes) => Promise.resolve(feed.publish(changes)),
    }),
    polls: pollStore(db, feed, batch),
    retention: retentionStore(db),
    attempts: attemptStore(),
    monitors: monitorStore(db),
    deliveries: deliveryStore(db),
    mail: mailStore(db),
    close() {
      if (open) {
        open = false;
        batch.flush();
        db.close();
      }
      return Promise.resolve();
    },
  };
}
