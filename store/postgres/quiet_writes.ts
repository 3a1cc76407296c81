/**
 * Pulses and not-modified reads on PostgreSQL, written together: at 50,000 vendors they are
 * most of the poller's writes (a calm vendor is pulsed about once a minute), and one statement
 * and one commit each was most of what PostgreSQL spent. Those finishing within
 * {@link QUIET_WAIT_MS} of each other (at most {@link QUIET_BATCH_MAX}) share one statement,
 * which writes exactly what each would have written alone (`pollStore`'s `finish`). When that
 * statement fails, each is written again on its own, so one that cannot be written rejects alone.
 * @module
 */
import { type EpochMs, type FullReadRecord, latencyBucket, utcDayStart } from "../../domain/mod.ts";
import type { Fragment, Sql } from "./db.ts";

/** How long a quiet record waits for others to share its statement (ms). */
export const QUIET_WAIT_MS = 20;
/** The most quiet records one statement writes. */
export const QUIET_BATCH_MAX = 250;

/** The vendor columns every successful poll resets (no failure, no error, no platform miss). */
export const healthy = (tx: Sql): Fragment =>
  tx`failures = 0, last_error = NULL, error_kind = NULL, error_http_status = NULL,
    error_message = NULL, error_since = NULL, unsupported_reason = NULL, platform_misses = 0`;

/** A pulse (`full` false) or a not-modified full read (`full` true) of vendor `id`. */
export interface QuietRecord {
  readonly id: number;
  readonly poll: FullReadRecord;
  readonly full: boolean;
}

/** Writes quiet records in shared statements; `single` writes one alone (the fallback). */
export function quietWriter(
  sql: Sql,
  single: (r: QuietRecord) => Promise<void>,
): (r: QuietRecord) => Promise<void> {
  let pending: { r: QuietRecord; done: () => void; failed: (e: unknown) => void }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      if (batch.length === 1) await single(batch[0]!.r);
      else await writeTogether(sql, batch.map((b) => b.r));
      for (const b of batch) b.done();
    } catch {
      for (const b of batch) single(b.r).then(b.done, b.failed);
    }
  };
  return (r) =>
    new Promise<void>((done, failed) => {
      pending.push({ r, done, failed });
      if (pending.length >= QUIET_BATCH_MAX) void flush();
      else timer ??= setTimeout(() => void flush(), QUIET_WAIT_MS);
    });
}

/**
 * One statement for every record of `records` (distinct vendors: a vendor polls once at a time).
 * Exported for its test; the store writes through {@link quietWriter}.
 */
export async function writeTogether(sql: Sql, records: readonly QuietRecord[]): Promise<void> {
  const rows = records.map(({ id, poll, full }) => ({
    id,
    at: poll.at,
    next: poll.nextPollAt,
    deadline: poll.deadlineAt,
    full,
    fp: full ? poll.pulseFingerprint ?? null : null,
    latency: poll.latencyMs,
    status: poll.httpStatus,
  }));
  await sql`WITH b AS (SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::text::json)
        AS b(id bigint, at bigint, next bigint, deadline bigint, "full" boolean, fp text,
          latency double precision, status integer)),
      touched AS (UPDATE vendors v SET ${healthy(sql)}, last_success_at = b.at,
          pulse_fingerprint = CASE WHEN b."full" THEN b.fp ELSE v.pulse_fingerprint END,
          last_full_at = CASE WHEN b."full" THEN b.at ELSE v.last_full_at END,
          next_poll_at = b.next, deadline_at = b.deadline, last_checked_at = b.at,
          lease_owner = NULL, lease_until = 0
        FROM b WHERE v.id = b.id RETURNING v.id),
      logged AS (INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status)
        SELECT b.id, b.at, b.latency, 'not_modified', b.status
        FROM b JOIN touched t ON t.id = b.id WHERE b."full")
    INSERT INTO fetch_latency_days (vendor_id, day, bucket, count)
      SELECT l.id, l.day, l.bucket, l.n
      FROM json_to_recordset(${JSON.stringify(latencyCounts(records))}::text::json)
        AS l(id bigint, day bigint, bucket integer, n integer)
      JOIN touched t ON t.id = l.id
    ON CONFLICT (vendor_id, day, bucket) DO UPDATE SET count = fetch_latency_days.count + EXCLUDED.count`;
}

/** The latency summary's counts of `records`, one row per vendor, day and bucket. */
function latencyCounts(records: readonly QuietRecord[]) {
  const counts = new Map<string, { id: number; day: EpochMs; bucket: number; n: number }>();
  for (const { id, poll } of records) {
    const day = utcDayStart(poll.at);
    const bucket = latencyBucket(poll.latencyMs);
    const key = `${id}|${day}|${bucket}`;
    const row = counts.get(key);
    if (row) row.n++;
    else counts.set(key, { id, day, bucket, n: 1 });
  }
  return [...counts.values()];
}
