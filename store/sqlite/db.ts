/**
 * The SQLite connection (node:sqlite) with the pragmas statusd relies on, and the two kinds of
 * transaction the store's methods run in. Private to `store/sqlite/`.
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname } from "node:path";
import { mkdirSync } from "node:fs";

/** The raw database handle; never leaves `store/sqlite/`. */
export type Db = DatabaseSync;

/** How long a statement waits for another process's lock before failing (ms). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Runs `fn`, retrying while another process holds the lock it needs, for at most the busy
 * timeout. Switching a new file to WAL fails at once with "database is locked" while another
 * process is migrating it (SQLite does not wait there), so two processes starting on one new
 * file at the same moment need this; every other statement waits through `busy_timeout`.
 */
function whenNotBusy(fn: () => void): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!/database is locked|SQLITE_BUSY/i.test(String(err)) || Date.now() > deadline) throw err;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/** Opens (creating folders as needed) a database file, or `:memory:`; WAL, foreign keys on. */
export function openDb(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (path !== ":memory:") whenNotBusy(() => db.exec("PRAGMA journal_mode = WAL"));
  db.exec("PRAGMA synchronous = NORMAL");
  // A checkpoint copies each page once however often the WAL holds it: after 10,000 frames
  // rather than 1,000, the poller's hot rows are copied less often (bench/README.md).
  db.exec("PRAGMA wal_autocheckpoint = 10000");
  db.exec("PRAGMA foreign_keys = ON");
  return db;
}

/**
 * Runs `fn` inside one IMMEDIATE transaction (the write lock is taken at once, so another
 * process cannot slip a write between our read and our write); rolls back on any throw.
 */
export function transaction<T>(db: Db, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (err) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw err;
  }
}

/**
 * Runs the reads of `fn` in one read transaction: every statement sees the same snapshot of
 * the database, even while another process (the admin CLI, a second statusd) writes. Nested
 * in a running transaction, it simply joins it.
 */
export function readTransaction<T>(db: Db, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec("BEGIN");
  try {
    return fn();
  } finally {
    if (db.isTransaction) db.exec("COMMIT");
  }
}

const prepared = new WeakMap<Db, Map<string, StatementSync>>();

/**
 * The prepared statement for `sql` on `db`, prepared once per connection (hot write paths run
 * the same statements thousands of times per reading).
 */
export function statement(db: Db, sql: string): StatementSync {
  let cache = prepared.get(db);
  if (!cache) prepared.set(db, cache = new Map());
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, stmt = db.prepare(sql));
  return stmt;
}
