/**
 * Runs the shared store algorithms (`store/shared/`) on SQLite: synchronously, each statement
 * prepared once per connection, inside the transaction kinds of `db.ts`.
 * @module
 */
import type { Dialect, Engine, Query } from "../shared/query.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";

/** SQLite's answers to the dialect's questions. */
export const SQLITE_DIALECT: Dialect = {
  engine: "sqlite",
  insertionOrder: "rowid",
  jsonArray: (column, fromWhere, orderBy) =>
    `(SELECT json_group_array(${column}) FROM (SELECT ${column} FROM ${fromWhere} ORDER BY ${orderBy}))`,
  binary: (expr) => expr,
  forUpdate: "",
  inJson: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  serialize: () => null,
  caselessOrder: (expr) => `${expr} COLLATE NOCASE`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  componentNames: (i) =>
    // CROSS JOIN keeps json_each outside, so each lookup uses the (vendor, external id) index.
    `(SELECT json_group_array(c.name) FROM json_each(${i}.component_ids) j
       CROSS JOIN components c ON c.vendor_id = ${i}.vendor_id AND c.external_id = j.value)`,
  lockTable: () => null,
  offsetOnly: "LIMIT -1 OFFSET ?",
  caseless: (column) => `${column} = ?`,
};

/** Runs `query` to its end on `db` now; a failing statement is thrown into it. */
export function runNow<T>(db: Db, query: Query<T>): T {
  let step = query.next();
  while (!step.done) {
    const s = step.value;
    let result: unknown;
    try {
      const stmt = statement(db, s.sql);
      result = s.kind === "all" ? stmt.all(...s.params) : Number(stmt.run(...s.params).changes);
    } catch (err) {
      step = query.throw(err);
      continue;
    }
    step = query.next(result);
  }
  return step.value;
}

/** Settles with what `fn` returns, or rejects with what it throws. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The engine over `db`. */
export function sqliteEngine(db: Db): Engine {
  return {
    dialect: SQLITE_DIALECT,
    write: (query) => settled(() => transaction(db, () => runNow(db, query))),
    read: (query) => settled(() => readTransaction(db, () => runNow(db, query))),
    once: (query) => settled(() => runNow(db, query)),
  };
}
