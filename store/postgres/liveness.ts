/**
 * Which instances sharing the database are alive, as PostgreSQL itself knows it: each holds a
 * session-level advisory lock on a connection of its own for as long as its process lives, and
 * names it in `live_instances`. When a process dies (kill -9, a crashed machine) its session
 * ends and the lock goes with it, so the claims it held (delivery leases, poll leases) are free
 * to the others at once instead of when their lease runs out. A holder never registered (a tool,
 * a test) is judged by its leases alone.
 * @module
 */
import type { Sql } from "./db.ts";

/** Registering instances one at a time (a transaction-level advisory lock). */
const REGISTRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('statusd_live_instances'))";
/** Registrations whose lock is gone and older than this are forgotten (claims last minutes). */
const FORGET_AFTER_MS = 24 * 3_600_000;
/** How often the lock's connection is checked (and the lock taken again if it was lost). */
const CHECK_EVERY_MS = 10_000;

/** SQL true when the advisory lock of `live_instances` row `l` is held now by some session. */
const HELD_SQL = `EXISTS (SELECT 1 FROM pg_locks k
  WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
    AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND k.classid::bigint = (l.lock_key >> 32) AND k.objid::bigint = (l.lock_key & 4294967295))`;

/**
 * The holders whose every registration's lock is gone: their process is dead, and every claim
 * they hold is free. A subquery for `IN (…)`.
 */
export const DEAD_HOLDERS_SQL = `SELECT l.holder FROM live_instances l GROUP BY l.holder
  HAVING NOT bool_or(${HELD_SQL})`;

/** The liveness DDL (PostgreSQL only; SQLite has one process per file). */
export const LIVE_INSTANCES_DDL = `CREATE TABLE live_instances (
  lock_key BIGINT PRIMARY KEY,
  holder TEXT NOT NULL,
  started_at BIGINT NOT NULL
);
CREATE INDEX live_instances_holder ON live_instances (holder);
`;

/** A held registration: ended with the store. */
export interface Liveness {
  release(): Promise<void>;
}

/** A random lock key below 2^52 (read back exactly as a JavaScript number). */
function randomKey(): number {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return (hi! & 0xfffff) * 2 ** 32 + lo!;
}

/**
 * Registers this process as `holder` on `pool` and holds its lock on `session` (a connection of
 * its own, store/postgres/db.ts `connectSession`) until {@link Liveness.release}. What a previous
 * process of the same name held (none of its registrations alive) is released at once. Every
 * few seconds the lock is checked: when its connection was lost (and the lock with it) it is
 * taken again and `onLost` told.
 */
export async function holdLiveness(
  pool: Sql,
  session: Sql,
  holder: string,
  onLost: (err: unknown) => void = () => {},
): Promise<Liveness> {
  const key = randomKey();
  const held = async () => {
    const [r] = await session`SELECT EXISTS (SELECT 1 FROM pg_locks k
      WHERE k.locktype = 'advisory' AND k.granted AND k.pid = pg_backend_pid()
        AND k.objsubid = 1 AND k.classid::bigint = (${key}::bigint >> 32)
        AND k.objid::bigint = (${key}::bigint & 4294967295)) AS held`;
    return r?.held === true;
  };
  await session`SELECT pg_advisory_lock(${key})`;
  await pool.begin(async (tx) => {
    await tx.unsafe(REGISTRATION_LOCK);
    const now = Date.now();
    await tx.unsafe(
      `DELETE FROM live_instances l WHERE l.started_at < $1 AND NOT ${HELD_SQL}`,
      [now - FORGET_AFTER_MS],
    );
    const [alive] = await tx.unsafe(
      `SELECT 1 FROM live_instances l WHERE l.holder = $1 AND ${HELD_SQL}`,
      [holder],
    );
    await tx`INSERT INTO live_instances (lock_key, holder, started_at)
      VALUES (${key}, ${holder}, ${now})`;
    if (!alive) {
      // A previous life of this name: nothing of what it held is in flight any more.
      await tx`UPDATE alert_deliveries SET claimed_by = NULL, claimed_until = NULL
        WHERE claimed_by = ${holder} AND state = 'pending'`;
      await tx`UPDATE vendors SET lease_owner = NULL, lease_until = 0
        WHERE lease_owner = ${holder}`;
    }
  });
  let stopped = false;
  let checking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    checking = checking.then(async () => {
      if (stopped || await held()) return;
      onLost(new Error(`the liveness lock of "${holder}" was lost with its connection`));
      await session`SELECT pg_advisory_lock(${key})`;
    }).catch((err) => {
      if (!stopped) onLost(err);
    });
  }, CHECK_EVERY_MS);
  return {
    async release() {
      stopped = true;
      clearInterval(timer);
      await checking;
      // The row stays, its lock gone: whatever this process still held is free at once.
      await session.end({ timeout: 1 }).catch(() => {});
    },
  };
}
