/**
 * The latency summary, once for both engines: per vendor and UTC day, how many answered
 * fetches fell in each latency bucket (domain/latency.ts). Every answered poll counts one,
 * pulses included, in the same transaction as the rest of its record; SLA reports read the days
 * of their window from here, so the raw fetch log need only be kept for a short while.
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
import { all, type Query, run } from "./query.ts";

/** Counts one answered fetch of `vendorId` at `at` that took `latencyMs`. */
export function* countLatency(vendorId: number, at: EpochMs, latencyMs: number): Query<void> {
  yield* run(
    `INSERT INTO fetch_latency_days (vendor_id, day, bucket, count) VALUES (?, ?, ?, 1)
     ON CONFLICT (vendor_id, day, bucket) DO UPDATE SET count = fetch_latency_days.count + 1`,
    vendorId,
    utcDayStart(at),
    latencyBucket(latencyMs),
  );
}

/**
 * The latency histogram of `vendorId` over the UTC days `window` touches (from the day holding
 * its start to the day holding its end, whole days).
 */
export function* latencyHistogram(vendorId: number, window: TimeWindow): Query<LatencyHistogram> {
  const rows = yield* all(
    `SELECT bucket, SUM(count) AS n FROM fetch_latency_days
     WHERE vendor_id = ? AND day >= ? AND day < ? GROUP BY bucket`,
    vendorId,
    utcDayStart(window.start),
    utcDayStart(window.end) + DAY_MS,
  );
  return new Map(rows.map((r) => [Number(r.bucket), Number(r.n)]));
}

/** Deletes summary rows of UTC days that end by `before`'s day (at most `chunk`); how many went. */
export function pruneLatencyDays(before: EpochMs, chunk: number): Query<number> {
  return run(
    `DELETE FROM fetch_latency_days WHERE (vendor_id, day, bucket) IN
       (SELECT vendor_id, day, bucket FROM fetch_latency_days WHERE day < ? LIMIT ?)`,
    utcDayStart(before),
    chunk,
  );
}
