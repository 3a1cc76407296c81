/**
 * Attempt counters on PostgreSQL, shared by every instance: one row per (limit, key) holding
 * the current window's start and count, counted in one statement so concurrent attempts on
 * several instances cannot slip past the limit.
 * @module
 */
import type { AttemptStore } from "../../domain/mod.ts";
import type { Sql } from "./db.ts";

/** The attempts noun over the pool `sql`. */
export function attemptStore(sql: Sql): AttemptStore {
  return {
    async take(scope, key, rule, now) {
      // A refused attempt leaves the row as it was (count stays at the limit).
      const [row] = await sql`INSERT INTO attempts AS a (scope, key, window_start, count)
        VALUES (${scope}, ${key}, ${now}, 1)
        ON CONFLICT (scope, key) DO UPDATE SET
          window_start = CASE WHEN a.window_start + ${rule.windowMs} <= ${now} THEN ${now}::bigint
            ELSE a.window_start END,
          count = CASE WHEN a.window_start + ${rule.windowMs} <= ${now} THEN 1
            WHEN a.count >= ${rule.limit} THEN a.count + 1000000
            ELSE a.count + 1 END
        RETURNING window_start, count`;
      const count = Number(row!.count);
      if (count <= rule.limit) return 0;
      // Undo the marker: the refused attempt is not counted.
      await sql`UPDATE attempts SET count = count - 1000000
        WHERE scope = ${scope} AND key = ${key} AND count > 1000000`;
      return Math.max(1, Number(row!.window_start) + rule.windowMs - now);
    },
    async refund(scope, key, rule, now) {
      await sql`UPDATE attempts SET count = count - 1
        WHERE scope = ${scope} AND key = ${key} AND count > 0
          AND window_start + ${rule.windowMs} > ${now}`;
    },
    async prune(before) {
      return (await sql`DELETE FROM attempts WHERE window_start < ${before}`).count;
    },
  };
}
