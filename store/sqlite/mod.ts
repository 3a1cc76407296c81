/**
 * The store on SQLite (node:sqlite): one file (or `:memory:`), numbered migrations applied at
 * open, every noun of the port over one connection. Synchronous underneath, promises outside.
 * @module
 */
import type { Store } from "../../domain/mod.ts";
import { createChangeFanOut } from "../shared/change_feed.ts";
import { accountStore } from "../shared/accounts.ts";
import { idempotencyStore } from "../shared/idempotency.ts";
import { mailStore } from "./mail.ts";
import { healthRows, routeStore } from "../shared/route_health.ts";
import {
  boardStore,
  docStore,
  groupStore,
  ruleStore,
  subscriptionStore,
} from "../shared/account_docs.ts";
import { deliveryStore } from "./deliveries.ts";
import { attemptStore } from "./attempts.ts";
import { catalogStore } from "../shared/catalog.ts";
import { changeStore } from "../shared/changes.ts";
import { type Db, openDb } from "./db.ts";
import { healthStore } from "../shared/health.ts";
import { historyStore } from "../shared/history.ts";
import { incidentStore } from "../shared/incidents.ts";
import { keyStore } from "../shared/keys.ts";
import { migrate } from "./migrate.ts";
import { monitorStore } from "./monitors.ts";
import { oauthStore } from "../shared/oauth.ts";
import { sqliteEngine } from "./engine.ts";
import { pollStore } from "./polls.ts";
import { retentionStore } from "./retention.ts";
import { sessionStore } from "../shared/sessions.ts";
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
  const engine = sqliteEngine(db);
  return {
    engine: "sqlite",
    catalog: catalogStore(engine),
    polls: pollStore(db, feed, batch),
    incidents: incidentStore(engine),
    history: historyStore(engine),
    changes: changeStore(engine, feed),
    health: healthStore(engine),
    accounts: accountStore(engine),
    keys: keyStore(engine),
    sessions: sessionStore(engine),
    oauth: oauthStore(engine),
    retention: retentionStore(db),
    attempts: attemptStore(),
    monitors: monitorStore(db),
    groups: groupStore(engine),
    boards: boardStore(engine),
    alertRoutes: routeStore(docStore(engine, "route"), healthRows(engine)),
    alertRules: ruleStore(engine),
    escalations: docStore(engine, "escalation"),
    subscriptions: subscriptionStore(engine),
    deliveries: deliveryStore(db),
    idempotency: idempotencyStore(engine),
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
