/**
 * A store algorithm written once for both engines. An algorithm is a generator that yields the
 * statements it needs and receives their results: `const rows = yield* all("SELECT …", id)`.
 * The SQLite engine runs it synchronously (inside one IMMEDIATE transaction, or inside the
 * poller's group commit, neither of which may span an `await`), the PostgreSQL engine with an
 * `await` per statement inside `sql.begin`. Statements use `?` placeholders and only SQL both
 * engines speak; where they differ, the algorithm asks its {@link Dialect}.
 * @module
 */

/** One statement an algorithm asks for: its rows (`all`) or the number of rows it touched. */
export interface Statement {
  readonly kind: "all" | "run";
  readonly sql: string;
  readonly params: readonly Param[];
}

/** A value a statement binds: what both drivers accept. */
export type Param = string | number | null;

/** One row as either driver returns it. */
export type Row = Record<string, unknown>;

/** An algorithm: yields statements, receives their results, returns `T`. */
export type Query<T> = Generator<Statement, T, unknown>;

/** The rows of `sql`. */
export function* all<R = Row>(sql: string, ...params: Param[]): Query<R[]> {
  return (yield { kind: "all", sql, params }) as R[];
}

/** The first row of `sql`, or undefined. */
export function* first<R = Row>(sql: string, ...params: Param[]): Query<R | undefined> {
  const rows = yield* all<R>(sql, ...params);
  return rows[0];
}

/** Runs `sql`; returns the number of rows it inserted, updated or deleted. */
export function* run(sql: string, ...params: Param[]): Query<number> {
  return Number(yield { kind: "run", sql, params });
}

/** The few places where the engines' SQL differs. */
export interface Dialect {
  readonly engine: "sqlite" | "postgres";
  /** The column giving a table's insertion order (`rowid` / `seq`), after `alias.`. */
  readonly insertionOrder: string;
  /** A JSON array (as text; `[]` when empty) of `column` from `fromWhere`, ordered by `orderBy`. */
  jsonArray(column: string, fromWhere: string, orderBy: string): string;
  /** `expr` compared byte by byte in ORDER BY (SQLite's default; PostgreSQL's `COLLATE "C"`). */
  binary(expr: string): string;
  /**
   * Appended to a SELECT whose rows the transaction will update: PostgreSQL's `FOR UPDATE`
   * (other instances wait); nothing on SQLite, whose IMMEDIATE transaction already holds the
   * only write lock.
   */
  readonly forUpdate: string;
  /**
   * `column` is one of a JSON array given as one `?` parameter (text values, or `bigint` ones):
   * `IN (SELECT value FROM json_each(?))` on SQLite.
   */
  inJson(column: string, type?: "text" | "bigint"): string;
  /**
   * A statement serialising the transactions that name `name` (PostgreSQL's transaction-level
   * advisory lock), or null on SQLite, whose IMMEDIATE transactions are serial already.
   */
  serialize(name: string): string | null;
  /** An ORDER BY term sorting `expr` ignoring ASCII case (SQLite's NOCASE). */
  caselessOrder(expr: string): string;
  /** The larger of two numbers (`MAX(a, b)` / `GREATEST(a, b)`). */
  greatest(a: string, b: string): string;
  /**
   * The JSON array (text) of the names of the components whose external ids the incident row
   * `alias` lists in `component_ids`, in that order.
   */
  componentNames(alias: string): string;
  /**
   * A statement taking `table`'s lock against concurrent writers until the transaction ends
   * (PostgreSQL), or null (SQLite: the IMMEDIATE transaction holds the only write lock).
   */
  lockTable(table: string): string | null;
  /** `OFFSET ?` with no limit (SQLite needs `LIMIT -1` before it). */
  readonly offsetOnly: string;
  /** `column = ?` ignoring case, the way the column's unique index compares (e-mail addresses). */
  caseless(column: string): string;
}

/**
 * How a store noun reaches its engine: each call runs one algorithm and settles with its
 * result; a statement that fails is thrown into the algorithm, then out of the call.
 */
export interface Engine {
  readonly dialect: Dialect;
  /** Runs `query` in one read-write transaction, rolled back when it throws. */
  write<T>(query: Query<T>): Promise<T>;
  /** Runs `query` in one read snapshot. */
  read<T>(query: Query<T>): Promise<T>;
  /** Runs `query` with no transaction of its own (one statement, or statements that need none). */
  once<T>(query: Query<T>): Promise<T>;
}

/** Serialises the rest of the transaction with every other naming `name` (see {@link Dialect}). */
export function* serialize(d: Dialect, name: string): Query<void> {
  const sql = d.serialize(name);
  if (sql !== null) yield* all(sql);
}

/** Takes `table`'s lock for the rest of the transaction (see {@link Dialect.lockTable}). */
export function* lockTable(d: Dialect, table: string): Query<void> {
  const sql = d.lockTable(table);
  if (sql !== null) yield* all(sql);
}

/** Rows per multi-row `INSERT`: few sizes, so each engine prepares few distinct statements. */
const CHUNK_SIZES = [256, 64, 16, 4, 1] as const;

/**
 * The multi-row `INSERT` statements (without their tail) that insert `rows` (each the values of
 * `columns`, in order) into `table`: far fewer round trips on PostgreSQL, within both engines'
 * parameter limits. Chunks take only the sizes of {@link CHUNK_SIZES}, so the statement caches
 * of both engines (keyed by text) hold at most five per table, however many rows come.
 */
function insertChunks(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Param[])[],
): { sql: string; params: Param[] }[] {
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const out: { sql: string; params: Param[] }[] = [];
  for (let i = 0; i < rows.length;) {
    const left = rows.length - i;
    const size = CHUNK_SIZES.find((n) => n <= left && n * columns.length <= 8000) ?? 1;
    const chunk = rows.slice(i, i + size);
    i += size;
    out.push({
      sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${
        chunk.map(() => tuple).join(", ")
      }`,
      params: chunk.flat(),
    });
  }
  return out;
}

/** Inserts `rows` into `table` (see `insertChunks`), each statement ending with `suffix`. */
export function* insertMany(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Param[])[],
  suffix = "",
): Query<void> {
  for (const c of insertChunks(table, columns, rows)) yield* run(c.sql + suffix, ...c.params);
}

/**
 * Like {@link insertMany}, returning `returning` of each inserted row (in no stated order:
 * match them by a column).
 */
export function* insertManyReturning(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Param[])[],
  returning: string,
): Query<Row[]> {
  const out: Row[] = [];
  for (const c of insertChunks(table, columns, rows)) {
    out.push(...yield* all(`${c.sql} RETURNING ${returning}`, ...c.params));
  }
  return out;
}

/** Parses a JSON text column. */
export const json = <T>(v: unknown): T => JSON.parse(String(v)) as T;
/** A nullable number column. */
export const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));
/** A nullable text column. */
export const strOrNull = (v: unknown): string | null => (v === null ? null : String(v));
