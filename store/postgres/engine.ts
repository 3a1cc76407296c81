/**
 * Runs the shared store algorithms (`store/shared/`) on PostgreSQL: one `await` per statement,
 * `?` placeholders numbered as `$1, $2, …`, inside the transaction kinds of `db.ts`.
 * @module
 */
import type { Dialect, Engine, Query } from "../shared/query.ts";
import { read, type Sql, write } from "./db.ts";

/** PostgreSQL's answers to the dialect's questions. */
export const POSTGRES_DIALECT: Dialect = {
  engine: "postgres",
  insertionOrder: "seq",
  jsonArray: (column, fromWhere, orderBy) =>
    `(SELECT COALESCE(json_agg(${column} ORDER BY ${orderBy})::text, '[]') FROM ${fromWhere})`,
  binary: (expr) => `${expr} COLLATE "C"`,
  forUpdate: " FOR UPDATE",
  inJson: (column, type = "text") =>
    `${column} IN (SELECT value::${type} FROM json_array_elements_text(?::text::json) AS value)`,
  serialize: (name) => `SELECT pg_advisory_xact_lock(hashtext('${name}'))`,
  caselessOrder: (expr) => `lower(${expr}) COLLATE "C"`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  componentNames: (i) =>
    `COALESCE((SELECT json_agg(c.name ORDER BY j.n)::text
       FROM jsonb_array_elements_text(${i}.component_ids::jsonb) WITH ORDINALITY j(value, n)
       JOIN components c ON c.vendor_id = ${i}.vendor_id AND c.external_id = j.value), '[]')`,
  lockTable: (table) => `LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`,
  offsetOnly: "OFFSET ?",
  caseless: (column) => `lower(${column}) = lower(?)`,
};

const numbered = new Map<string, string>();

/** `sql` with its `?` placeholders numbered (shared statements contain no other `?`). */
function numberPlaceholders(sql: string): string {
  let out = numbered.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, out);
  }
  return out;
}

/** Runs `query` to its end on `sql` (a pool or a transaction); a failing statement is thrown into it. */
export async function runOn<T>(sql: Sql, query: Query<T>): Promise<T> {
  let step = query.next();
  while (!step.done) {
    const s = step.value;
    let result: unknown;
    try {
      const rows = await sql.unsafe(numberPlaceholders(s.sql), s.params as (string | number)[]);
      result = s.kind === "all" ? rows : rows.count;
    } catch (err) {
      step = query.throw(err);
      continue;
    }
    step = query.next(result);
  }
  return step.value;
}

/** The engine over the pool `sql`. */
export function postgresEngine(sql: Sql): Engine {
  return {
    dialect: POSTGRES_DIALECT,
    write: (query) => write(sql, (tx) => runOn(tx, query)),
    read: (query) => read(sql, (tx) => runOn(tx, query)),
    once: (query) => runOn(sql, query),
  };
}
