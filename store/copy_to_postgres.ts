/**
 * Moving an installation from SQLite to PostgreSQL (`statusd admin copy-to-postgres`): every
 * table of the SQLite file is copied, as stored, into an empty PostgreSQL database in one
 * transaction, and the row counts of both sides are compared before it commits. The target is
 * migrated first; a target with rows in any of statusd's tables is refused.
 * @module
 */
import { connect, type Sql } from "./postgres/db.ts";
import { migrate as migratePostgres } from "./postgres/migrate.ts";
import { openDb } from "./sqlite/db.ts";
import { migrate as migrateSqlite } from "./sqlite/migrate.ts";

/** The tables copied, parents before children (foreign keys), with the order rows keep. */
const TABLES: readonly { readonly name: string; readonly order: string }[] = [
  { name: "vendors", order: "id" },
  { name: "components", order: "id" },
  { name: "incidents", order: "id" },
  { name: "incident_updates", order: "id" },
  { name: "transitions", order: "id" },
  { name: "fetches", order: "id" },
  { name: "fetch_latency_days", order: "vendor_id, day, bucket" },
  { name: "changes", order: "id" },
  { name: "accounts", order: "rowid" },
  { name: "members", order: "rowid" },
  { name: "sessions", order: "rowid" },
  { name: "api_keys", order: "rowid" },
  { name: "oauth_clients", order: "rowid" },
  { name: "oauth_grants", order: "rowid" },
  { name: "oauth_codes", order: "rowid" },
  { name: "oauth_tokens", order: "rowid" },
  { name: "monitors", order: "rowid" },
  { name: "account_docs", order: "rowid" },
  { name: "idempotency_keys", order: "rowid" },
];

/** Rows read from SQLite per batch. */
const BATCH_ROWS = 2_000;

/** Why a copy was refused or failed, in one line. */
export class CopyError extends Error {
  override readonly name = "CopyError";
}

/** Rows copied per table. */
export type CopyReport = readonly { readonly table: string; readonly rows: number }[];

/**
 * Copies the SQLite database at `sqlitePath` into the empty PostgreSQL database at `url`;
 * resolves with the rows copied per table once committed (nothing is kept when it throws).
 */
export async function copySqliteToPostgres(sqlitePath: string, url: string): Promise<CopyReport> {
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
    return await sql.begin(async (raw) => {
      const tx = raw as unknown as Sql;
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
        const columns = (await tx`SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table.name}
            AND column_name NOT IN ('seq', 'lease_owner', 'lease_until')
            ORDER BY ordinal_position`).map((r) => String(r.column_name));
        const list = columns.map((c) => `"${c}"`).join(", ");
        const select = db.prepare(
          `SELECT ${list} FROM ${table.name} ORDER BY ${table.order} LIMIT ? OFFSET ?`,
        );
        const perInsert = Math.max(1, Math.floor(60_000 / columns.length));
        let copied = 0;
        for (;;) {
          const rows = select.all(BATCH_ROWS, copied) as Record<string, unknown>[];
          if (rows.length === 0) break;
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
        if (columns.includes("id") && table.order === "id") {
          await tx`SELECT setval(pg_get_serial_sequence(${table.name}, 'id'),
            COALESCE((SELECT MAX(id) FROM ${tx(table.name)}), 1),
            (SELECT MAX(id) IS NOT NULL FROM ${tx(table.name)}))`;
        }
        report.push({ table: table.name, rows: source });
      }
      return report;
    }) as unknown as CopyReport;
  } finally {
    db.close();
    await sql.end({ timeout: 5 });
  }
}
