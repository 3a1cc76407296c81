/**
 * The PostgreSQL connection pool (npm `postgres`) with the types statusd relies on, and the two
 * kinds of transaction the store's methods run in. Private to `store/postgres/`.
 * @module
 */
import postgres from "postgres";

/** A connection pool or a transaction: both run the same tagged-template queries. */
export type Sql = postgres.Sql;

/** A piece of SQL with its parameters, spliced into a tagged template. */
export type Fragment = postgres.Fragment;

/** One row as the driver returns it. */
export type Row = Record<string, unknown>;

/** Options of {@link connect}. */
export interface ConnectOptions {
  /** Connections in the pool. */
  readonly max?: number;
  /** Seconds to wait for a connection before failing. */
  readonly connectTimeoutSeconds?: number;
}

/**
 * A pool on `url`. `bigint` columns (ids, epoch milliseconds, counts) are read as JavaScript
 * numbers: every value statusd stores in them is below 2^53.
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres<Record<string, postgres.PostgresType>>(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: "statusd" },
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
  });
}

/**
 * One connection of its own on `url`, never closed for being idle or old (the pool's are): a
 * session-level lock held on it lasts as long as the process (store/postgres/liveness.ts).
 */
export function connectSession(url: string): Sql {
  return postgres(url, {
    max: 1,
    idle_timeout: null as unknown as number,
    max_lifetime: null,
    connect_timeout: 10,
    onnotice: () => {},
    fetch_types: false,
    connection: { application_name: "statusd liveness" },
  }) as unknown as Sql;
}

/** Runs `fn` in one read-write transaction; rolled back when it throws. */
export function write<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return sql.begin((tx) => fn(tx as unknown as Sql)) as Promise<T>;
}

/**
 * Runs the reads of `fn` in one snapshot (REPEATABLE READ, read only): every statement sees the
 * same committed state, even while other instances write.
 */
export function read<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return sql.begin(
    "ISOLATION LEVEL REPEATABLE READ READ ONLY",
    (tx) => fn(tx as unknown as Sql),
  ) as Promise<T>;
}

/** Number of rows a write statement touched. */
export function affected(result: { count: number }): number {
  return result.count;
}
