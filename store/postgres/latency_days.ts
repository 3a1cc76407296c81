/**
 * Counting latency on PostgreSQL inside the poll's one statement (the rest of the latency
 * summary is `store/shared/latency_days.ts`).
 * @module
 */
import { type EpochMs, latencyBucket, utcDayStart } from "../../domain/mod.ts";
import type { Fragment, Sql } from "./db.ts";

/**
 * The statement part counting one answered fetch, at `at` after `latencyMs`, for each vendor
 * whose `id` the query `source` (a `WITH` name of the enclosing statement) returns.
 */
export function countLatencyOf(
  sql: Sql,
  source: string,
  at: EpochMs,
  latencyMs: number,
): Fragment {
  return sql`INSERT INTO fetch_latency_days (vendor_id, day, bucket, count)
    SELECT id, ${utcDayStart(at)}::bigint, ${latencyBucket(latencyMs)}::integer, 1
    FROM ${sql(source)}
    ON CONFLICT (vendor_id, day, bucket) DO UPDATE SET count = fetch_latency_days.count + 1`;
}
