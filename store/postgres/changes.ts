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

/** Inserts changes into the feed table (inside the writer's transaction); returns them with ids. */
export async function recordChanges(
  sql: Sql,
  at: EpochMs,
  changes: readonly (StatusChange | IncidentChange)[],
): Promise<Change[]> {
  if (changes.length === 0) return [];
  // Writers that log changes take turns until they commit, so ids become visible in id order
  // and a reader resuming after id n (SSE Last-Event-ID, another instance) never skips one
  // that commits later with a smaller id.
  await sql`SELECT pg_advisory_xact_lock(${CHANGE_LOG_LOCK})`;
  const out: Change[] = [];
  for (let i = 0; i < changes.length; i += 1000) {
    const chunk = changes.slice(i, i + 1000);
    const rows = await sql`INSERT INTO changes ${
      sql(
        chunk.map((c) => ({ at, kind: c.kind, vendor_slug: c.slug, data: JSON.stringify(c) })),
        "at",
        "kind",
        "vendor_slug",
        "data",
      )
    } RETURNING id`;
    // The sequence numbers the VALUES rows in order: the smallest id is the first row's.
    // Every instance listening is told once this commits (NOTIFY is sent at commit).
    const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    ids.forEach((id, k) => out.push({ ...chunk[k]!, id, at }));
  }
  await sql`SELECT pg_notify(${CHANGES_CHANNEL}, '')`;
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
