/**
 * Moving an installation from SQLite to PostgreSQL (`statusd admin copy-to-postgres`): every
 * table of the SQLite file is copied, as stored, into an empty PostgreSQL database in one
 * transaction, and the row counts of both sides are compared before it commits. The target is
 * migrated first; a target with rows in any of statusd's tables is refused.
 * @module
 */
import { connect, type Sql } from "./postgres/db.ts";
import { migrate as migratePostgres } from "./postgres/migrate.ts";
import { type Db, openDb } from "./sqlite/db.ts";
import { migrate as migrateSqlite } from "./sqlite/migrate.ts";
import { reasonOf } from "./open_error.ts";
import type { SQLInputValue } from "node:sqlite";

/**
 * The tables copied, parents before children (foreign keys). Rows are read in the order of `key`
 * (SQLite's rowid, the `id` of tables that have one, or the primary key of a table without
 * rowids), a batch at a time from where the last one ended; `serial` tables have their id
 * sequence moved past the copied ids.
 */
const TABLES: readonly {
  readonly name: string;
  readonly key: readonly string[];
  readonly serial?: true;
}[] = [
  { name: "vendors", key: ["rowid"], serial: true },
  { name: "components", key: ["rowid"], serial: true },
  { name: "incidents", key: ["rowid"], serial: true },
  { name: "incident_updates", key: ["rowid"], serial: true },
  { name: "incident_revisions", key: ["rowid"], serial: true },
  { name: "transitions", key: ["rowid"], serial: true },
  { name: "fetches", key: ["rowid"], serial: true },
  { name: "fetch_latency_days", key: ["vendor_id", "day", "bucket"] },
  { name: "changes", key: ["rowid"], serial: true },
  { name: "accounts", key: ["rowid"] },
  { name: "members", key: ["rowid"] },
  { name: "sessions", key: ["rowid"] },
  { name: "api_keys", key: ["rowid"] },
  { name: "oauth_clients", key: ["rowid"] },
  { name: "oauth_grants", key: ["rowid"] },
  { name: "oauth_codes", key: ["rowid"] },
  { name: "oauth_tokens", key: ["rowid"] },
  { name: "monitors", key: ["rowid"] },
  { name: "account_docs", key: ["rowid"] },
  { name: "idempotency_keys", key: ["rowid"] },
  { name: "alert_deliveries", key: ["rowid"] },
  { name: "alert_attempts", key: ["rowid"] },
  { name: "alert_cursors", key: ["rowid"] },
  { name: "mail_consents", key: ["rowid"] },
  { name: "mail_suppressions", key: ["rowid"] },
  { name: "server_secrets", key: ["rowid"] },
  { name: "route_health", key: ["rowid"] },
  { name: "vendor_warnings", key: ["rowid"] },
  { name: "warning_episodes", key: ["rowid"], serial: true },
  { name: "member_reports", key: ["rowid"] },
  { name: "account_vendors", key: ["rowid"] },
];

/** Columns only PostgreSQL has (insertion order, poll leases): filled there, never copied. */
const POSTGRES_ONLY_COLUMNS: ReadonlySet<string> = new Set(["seq", "lease_owner", "lease_until"]);

/**
 * SQLite's own tables, the migration ledger and search's cache version (each engine keeps its
 * own): never copied.
 */
const NOT_COPIED = /^(sqlite_|schema_migrations$|catalog_version$)/;

/** Rows read from SQLite per batch. */
const BATCH_ROWS = 2_000;

/** Options of {@link copySqliteToPostgres}. */
export interface CopyOptions {
  /** Rows read from SQLite per batch (tests use tiny batches to cross their boundaries). */
  readonly batchRows?: number;
}

/** Why a copy was refused or failed, in one line. */
export class CopyError extends Error {
  override readonly name = "CopyError";
}

/** Rows copied per table. */
export type CopyReport = readonly { readonly table: string; readonly rows: number }[];

/**
 * Copies the SQLite database at `sqlitePath` into the empty PostgreSQL database at `url`;
 * resolves with the rows copied per table once committed (nothing is kept when it throws). Every
 * failure is a {@link CopyError} with one line saying why (an unreachable server, a refused
 * password and a missing database in words, as at start).
 */
export async function copySqliteToPostgres(
  sqlitePath: string,
  url: string,
  options: CopyOptions = {},
): Promise<CopyReport> {
  try {
    return await copy(sqlitePath, url, options);
  } catch (err) {
    throw err instanceof CopyError ? err : new CopyError(reasonOf(err));
  }
}

/** The copy itself; {@link copySqliteToPostgres} turns its failures into one line. */
async function copy(
  sqlitePath: string,
  url: string,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const batchRows = Math.max(1, Math.floor(options.batchRows ?? BATCH_ROWS));
  try {
    await Deno.stat(sqlitePath);
  } catch {
    throw new CopyError(`No SQLite database at ${sqlitePath} (STATUSD_DB)`);
  }
  const db = openDb(sqlitePath);
  const sql = connect(url, { max: 1 });
  try {
    migrateSqlite(db);
    await migratePostgres(sql);
    // One read snapshot of the SQLite file for the whole copy: a server still writing to it
    // cannot make the copy mix moments (or the counts disagree with the rows).
    db.exec("BEGIN");
    return await sql.begin(async (raw) => {
      const tx = raw as unknown as Sql;
      const plan = await planColumns(tx, db);
      for (const { name } of TABLES) {
        const [row] = await tx`SELECT EXISTS (SELECT 1 FROM ${tx(name)}) AS taken`;
        if (row!.taken) {
          throw new CopyError(
            `The target database is not empty (table ${name} has rows): copy into a new, empty database`,
          );
        }
      }
      const report: { table: string; rows: number }[] = [];
      for (const table of TABLES) {
        const columns = plan.get(table.name)!;
        const perInsert = Math.max(1, Math.floor(60_000 / columns.length));
        let copied = 0;
        for (const rows of batches(db, table.name, table.key, columns, batchRows)) {
          for (let i = 0; i < rows.length; i += perInsert) {
            const chunk = rows.slice(i, i + perInsert);
            await tx`INSERT INTO ${tx(table.name)} ${tx(chunk, ...columns)}`;
          }
          copied += rows.length;
        }
        const source = Number(
          (db.prepare(`SELECT COUNT(*) AS n FROM ${table.name}`).get() as { n: number }).n,
        );
        const [{ n }] = await tx`SELECT COUNT(*) AS n FROM ${tx(table.name)}`;
        if (Number(n) !== source || copied !== source) {
          throw new CopyError(
            `Row counts differ for ${table.name}: ${source} in SQLite, ${n} in PostgreSQL; nothing was kept`,
          );
        }
        if (table.serial) {
          await tx`SELECT setval(pg_get_serial_sequence(${table.name}, 'id'),
            COALESCE((SELECT MAX(id) FROM ${tx(table.name)}), 1),
            (SELECT MAX(id) IS NOT NULL FROM ${tx(table.name)}))`;
        }
        report.push({ table: table.name, rows: source });
      }
      return report;
    }) as unknown as CopyReport;
  } finally {
    if (db.isTransaction) db.exec("ROLLBACK");
    db.close();
    await sql.end({ timeout: 5 });
  }
}

/**
 * The rows of `table`, `size` at a time in `key` order, each batch read from where the
 * last one ended (an index seek, so the cost of a batch does not grow with the rows before it).
 */
function* batches(
  db: Db,
  table: string,
  key: readonly string[],
  columns: readonly string[],
  size: number,
): Generator<Record<string, unknown>[]> {
  const keys = key.map((k, i) => `${k} AS "__key${i}"`).join(", ");
  const list = columns.map((c) => `"${c}"`).join(", ");
  const order = key.join(", ");
  const head = `SELECT ${keys}, ${list} FROM "${table}"`;
  const first = db.prepare(`${head} ORDER BY ${order} LIMIT ?`);
  const next = db.prepare(
    `${head} WHERE (${order}) > (${key.map(() => "?").join(", ")}) ORDER BY ${order} LIMIT ?`,
  );
  let rows = first.all(size) as Record<string, unknown>[];
  while (rows.length > 0) {
    yield rows;
    if (rows.length < size) return;
    const last = rows.at(-1)!;
    const after = key.map((_, i) => last[`__key${i}`] as SQLInputValue);
    rows = next.all(...after, size) as Record<string, unknown>[];
  }
}

/**
 * The columns to copy per table, after checking that the two schemas agree: every SQLite table
 * is one the copy knows, and each copied table has the same columns on both sides (bar
 * PostgreSQL's own). A table or column that would be left behind stops the copy instead of
 * being dropped in silence.
 */
async function planColumns(
  tx: Sql,
  db: Db,
): Promise<Map<string, string[]>> {
  const known = new Set(TABLES.map((t) => t.name));
  const sqliteTables = (db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  ).all() as { name: string }[]).map((r) => r.name).filter((n) => !NOT_COPIED.test(n));
  const unknown = sqliteTables.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new CopyError(
      `The SQLite database has ${unknown.length === 1 ? "a table" : "tables"} this statusd ` +
        `cannot copy (${unknown.join(", ")}): nothing was copied`,
    );
  }
  const plan = new Map<string, string[]>();
  for (const { name } of TABLES) {
    const target = (await tx`SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${name}
      ORDER BY ordinal_position`).map((r) => String(r.column_name))
      .filter((c) => !POSTGRES_ONLY_COLUMNS.has(c));
    const source = (db.prepare("SELECT name FROM pragma_table_info(?)").all(name) as {
      name: string;
    }[]).map((r) => r.name);
    const missing = [
      ...source.filter((c) => !target.includes(c)).map((c) => `${name}.${c} in PostgreSQL`),
      ...target.filter((c) => !source.includes(c)).map((c) => `${name}.${c} in SQLite`),
    ];
    if (missing.length > 0) {
      throw new CopyError(
        `The two schemas differ (no ${missing.join(", no ")}): nothing was copied`,
      );
    }
    plan.set(name, target);
  }
  return plan;
}
