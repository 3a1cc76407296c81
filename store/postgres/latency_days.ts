/**
 * The latency summary on PostgreSQL: per vendor and UTC day, how many answered
 * fetches fell in each latency bucket (domain/latency.ts), as on SQLite.
 * @module
 */
import {
  DAY_MS,
  type EpochMs,
  latencyBucket,
  type LatencyHistogram,
  type TimeWindow,
  utcDayStart,
} from "../../domain/mod.ts";
import type { Fragment, Sql } from "./db.ts";

/** Counts one answered fetch of `vendorId` at `at` that took `latencyMs`. */
export async function countLatency(
  sql: Sql,
  vendorId: number,
  at: EpochMs,
  latencyMs: number,
): Promise<void> {
  await sql`INSERT INTO fetch_latency_days (vendor_id, day, bucket, count)
    VALUES (${vendorId}, ${utcDayStart(at)}, ${latencyBucket(latencyMs)}, 1)
    ON CONFLICT (vendor_id, day, bucket) DO UPDATE SET count = fetch_latency_days.count + 1`;
}

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

/** The latency histogram of `vendorId` over the whole UTC days `window` touches. */
export async function latencyHistogram(
  sql: Sql,
  vendorId: number,
  window: TimeWindow,
): Promise<LatencyHistogram> {
  const rows = await sql`SELECT bucket, SUM(count)::bigint AS n FROM fetch_latency_days
    WHERE vendor_id = ${vendorId} AND day >= ${utcDayStart(window.start)}
      AND day < ${utcDayStart(window.end) + DAY_MS}
    GROUP BY bucket`;
  return new Map(rows.map((r) => [Number(r.bucket), Number(r.n)]));
}

/** Deletes summary rows of UTC days before `before`'s day (at most `chunk`); how many went. */
export async function pruneLatencyDays(sql: Sql, before: EpochMs, chunk: number): Promise<number> {
  return (await sql`DELETE FROM fetch_latency_days WHERE (vendor_id, day, bucket) IN
    (SELECT vendor_id, day, bucket FROM fetch_latency_days
     WHERE day < ${utcDayStart(before)} LIMIT ${chunk})`).count;
}
