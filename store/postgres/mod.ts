/**
 * The store on PostgreSQL (npm `postgres`): a connection pool, numbered migrations applied at
 * start under an advisory lock, every noun of the port, each method one transaction or one
 * snapshot. Several statusd processes may share the database.
 * @module
 */
import type { Store } from "../../domain/mod.ts";
import { createChangeFanOut } from "../shared/change_feed.ts";
import { mailStore } from "./mail.ts";
import { deliveryStore } from "./deliveries.ts";
import { attemptStore } from "./attempts.ts";
import { CHANGE_LOG_LOCK_SQL, changeCursor, CHANGES_CHANNEL } from "./changes.ts";
import { connect, connectSession, type Sql } from "./db.ts";
import { migrate } from "./migrate.ts";
import { monitorStore } from "./monitors.ts";
import { postgresEngine } from "./engine.ts";
import { sharedNouns } from "../shared/nouns.ts";
import { pollStore } from "./polls.ts";
import { holdLiveness } from "./liveness.ts";
import { retentionStore } from "./retention.ts";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** Told when a change subscriber throws (the writer goes on). */
  readonly onListenerError?: (err: unknown) => void;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** This instance's name: the owner of the vendors it claims (default: host and pid). */
  readonly instance?: string;
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
  const session = connectSession(url);
  try {
    await migrate(sql);
    return await postgresStoreOver(sql, session, options);
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    await session.end({ timeout: 1 }).catch(() => {});
    throw err;
  }
}

/**
 * The store over an open, migrated pool and a connection of its own for this process's liveness
 * lock (closing the store ends both). Committed changes reach this process's subscribers from
 * the `changes` table, whoever wrote them: after each local commit, and on every NOTIFY another
 * instance sends.
 */
export async function postgresStoreOver(
  sql: Sql,
  session: Sql,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  const feed = createChangeFanOut(options.onListenerError);
  const [{ id }] = await sql`SELECT COALESCE(MAX(id), 0) AS id FROM changes`;
  const cursor = changeCursor(sql, feed, Number(id));
  let closing: Promise<void> | null = null;
  const pump = () =>
    closing !== null ? Promise.resolve() : cursor.pump().catch((err) => {
      if (closing === null) options.onListenerError?.(err);
    });
  // The listener's connection reconnects by itself; each (re)connection reads what it missed.
  await sql.listen(CHANGES_CHANNEL, () => void pump(), () => void pump());
  const owner = options.instance ?? `${Deno.hostname()}-${Deno.pid}`;
  // While this process lives its claims are its own; once its session ends they are free.
  const live = await holdLiveness(sql, session, owner, options.onListenerError);
  return {
    engine: "postgres",
    ...sharedNouns(postgresEngine(sql), feed, {
      lockSql: CHANGE_LOG_LOCK_SQL,
      notifySql: `SELECT pg_notify('${CHANGES_CHANNEL}', '')`,
      published: () => pump(),
    }),
    polls: pollStore(sql, owner, pump),
    retention: retentionStore(sql),
    attempts: attemptStore(sql),
    monitors: monitorStore(sql),
    deliveries: deliveryStore(sql),
    mail: mailStore(sql),
    close() {
      closing ??= live.release().then(() => sql.end({ timeout: 5 }));
      return closing;
    },
  };
}
