/**
 * The change feed on PostgreSQL: changes are written in the writer's transaction
 * (`recordChanges`) and told to this process's subscribers after the commit.
 * @module
 */
import type { Change, EpochMs, IncidentChange, StatusChange } from "../../domain/mod.ts";
import type { ChangeFanOut } from "../shared/change_feed.ts";
import { toChange } from "../shared/changes.ts";
import type { Sql } from "./db.ts";

/** The advisory lock key of the change log's writers. */
const CHANGE_LOG_LOCK = 7_355_002;
/** The statement taking it (for writers written once for both engines). */
export const CHANGE_LOG_LOCK_SQL = `SELECT pg_advisory_xact_lock(${CHANGE_LOG_LOCK})`;

/**
 * Inserts changes into the feed table (inside the writer's transaction); returns them with ids.
 *
 * Writers that log changes take turns until they commit (the advisory lock), so ids become
 * visible in id order and a reader resuming after id n (SSE Last-Event-ID, another instance)
 * never skips one that commits later with a smaller id. The turn is the scarce thing when many
 * vendors change at once (every first reading does), so it is taken by the same statement that
 * inserts, which also asks for the NOTIFY sent at commit: a writer holds it for that one round
 * trip and its COMMIT, after every other write of its transaction is done.
 */
export async function recordChanges(
  sql: Sql,
  at: EpochMs,
  changes: readonly (StatusChange | IncidentChange)[],
): Promise<Change[]> {
  if (changes.length === 0) return [];
  const out: Change[] = [];
  for (let i = 0; i < changes.length; i += 1000) {
    const chunk = changes.slice(i, i + 1000);
    const rows = chunk.map((c) => ({ kind: c.kind, slug: c.slug, data: JSON.stringify(c) }));
    // The Sort reads every joined row (so the lock is held) before the first id is drawn, and
    // draws them in the chunk's order.
    const inserted = await sql`WITH turn AS (
        SELECT pg_advisory_xact_lock(${CHANGE_LOG_LOCK}), pg_notify(${CHANGES_CHANNEL}, '')
      )
      INSERT INTO changes (at, kind, vendor_slug, data)
      SELECT ${at}::bigint, r.kind, r.slug, r.data
      FROM turn, ROWS FROM (json_to_recordset(${JSON.stringify(rows)}::text::json)
        AS (kind text, slug text, data text)) WITH ORDINALITY AS r(kind, slug, data, n)
      ORDER BY r.n
      RETURNING id`;
    const ids = inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
    ids.forEach((id, k) => out.push({ ...chunk[k]!, id, at }));
  }
  return out;
}

/** The NOTIFY channel instances listen on for committed changes. */
export const CHANGES_CHANNEL = "statusd_changes";

/**
 * Tells `feed` every change committed by any instance, once and in id order, from the newest
 * id at the time it starts: `pump()` reads what is new since its cursor (callers await it after
 * their own commit; a NOTIFY from any instance calls it too). One read runs at a time; a call
 * during a read makes it read again before settling.
 */
export function changeCursor(sql: Sql, feed: ChangeFanOut, from: number) {
  let cursor = from;
  let running: Promise<void> | null = null;
  let again = false;
  const drain = async () => {
    for (;;) {
      const rows = await sql`SELECT id, at, data FROM changes WHERE id > ${cursor}
        ORDER BY id LIMIT 1000`;
      if (rows.length === 0) return;
      const batch = rows.map(toChange);
      cursor = batch.at(-1)!.id;
      feed.publish(batch);
    }
  };
  return {
    pump(): Promise<void> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await drain();
          } while (again);
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
