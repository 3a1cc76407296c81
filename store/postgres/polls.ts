/**
 * The poller's side of the PostgreSQL store (domain `PollStore`): which vendors are due, and the
 * outcome of each poll, each one transaction, published after the commit.
 * @module
 */
import type {
  Change,
  DueVendor,
  Platform,
  PollRecord,
  PollStore,
  StatusLevel,
} from "../../domain/mod.ts";
import { boundNotes, READING_MESSAGE_MAX } from "../../domain/mod.ts";
import { recordChanges } from "./changes.ts";
import { type Fragment, type Row, type Sql, write } from "./db.ts";
import { countLatencyOf } from "./latency_days.ts";
import { healthy, type QuietRecord, quietWriter } from "./quiet_writes.ts";
import { openIncidentsOf, writeReading, writeStale } from "../shared/readings.ts";
import { POSTGRES_DIALECT, runOn } from "./engine.ts";
import { DEAD_HOLDERS_SQL } from "./liveness.ts";
import { openSql } from "../shared/sql.ts";
import { numOrNull, strOrNull } from "../shared/query.ts";

/**
 * How long an instance holds the due vendors it read (ms). The poller reads its due vendors
 * again every round, in-flight ones included, which renews their leases; a dead instance's
 * vendors are taken over by the others at most this long after its last round.
 */
export const LEASE_MS = 20_000;

/**
 * The poller's store over the pool `sql`, for the instance `owner`; `published` resolves once
 * committed changes have been told to this process's subscribers.
 */
export function pollStore(
  sql: Sql,
  owner: string,
  published: () => Promise<void>,
): PollStore {
  /**
   * The end of every poll record as ONE statement (one round trip, atomic on its own): the
   * vendor's columns `set`, its next poll and the end of this instance's lease (the vendor is
   * free for whoever finds it due), a fetch-log row unless `outcome` is null, and the latency
   * summary when `latency`. Pulses and 304s are nothing else (most of the poller's writes).
   */
  const finish = (
    tx: Sql,
    id: number,
    p: PollRecord,
    set: Fragment,
    outcome: string | null,
    latency: boolean,
  ) =>
    tx`WITH touched AS (UPDATE vendors SET ${set}, next_poll_at = ${p.nextPollAt},
        deadline_at = ${p.deadlineAt}, last_checked_at = ${p.at}, lease_owner = NULL,
        lease_until = 0 WHERE id = ${id} RETURNING id)
      ${
      outcome === null ? tx`` : tx`, logged AS (INSERT INTO fetches
          (vendor_id, at, latency_ms, outcome, http_status)
        SELECT id, ${p.at}::bigint, ${p.latencyMs}::double precision, ${outcome}::text,
          ${p.httpStatus}::integer FROM touched)`
    }
      ${latency ? countLatencyOf(tx, "touched", p.at, p.latencyMs) : tx`SELECT 1`}`;
  const publishing = async (changes: Promise<readonly Change[]>) => {
    const committed = await changes;
    if (committed.length > 0) await published();
    return committed;
  };
  /** A pulse or a not-modified read alone: the vendor's columns, the log row, the latency. */
  const alone = async ({ id, poll, full }: QuietRecord) => {
    const set = full
      ? sql`${healthy(sql)}, last_success_at = ${poll.at},
        pulse_fingerprint = ${poll.pulseFingerprint ?? null}, last_full_at = ${poll.at}`
      : sql`${healthy(sql)}, last_success_at = ${poll.at}`;
    await finish(sql, id, poll, set, full ? "not_modified" : null, true);
  };
  const quiet = quietWriter(sql, alone);
  /**
   * Free for `owner` at `now`: nobody's, its own, a lease that ended, or one held by an instance
   * whose process died (its database session ended: store/postgres/liveness.ts).
   */
  const claimable = (tx: Sql, now: number) =>
    tx`(lease_owner IS NULL OR lease_owner = ${owner} OR lease_until < ${now}
      OR lease_owner IN (${tx.unsafe(DEAD_HOLDERS_SQL)}))`;

  /** One of the two due queues: vendors a poll promised a deadline to, or those without one. */
  const queue = (tx: Sql, promised: boolean) =>
    promised ? tx`deadline_at > 0` : tx`deadline_at = 0`;
  /** Claims up to `limit` due vendors of one queue, most overdue first. */
  const claimQueue = async (now: number, limit: number, promised: boolean) => {
    const rows = await sql`WITH picked AS (
        SELECT id,
          (lease_owner IS NOT DISTINCT FROM ${owner} AND lease_until > ${now + LEASE_MS / 2})
            AS held
        FROM vendors
        WHERE in_catalog = 1 AND ${queue(sql, promised)} AND next_poll_at <= ${now}
          AND ${claimable(sql, now)}
        ORDER BY next_poll_at, id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED),
      leased AS (UPDATE vendors v SET lease_owner = ${owner}, lease_until = ${now + LEASE_MS}
        FROM picked WHERE v.id = picked.id AND NOT picked.held RETURNING v.id)
      SELECT v.id, v.slug, v.status_page_url, v.platform,
        v.detected_platform, v.endpoint_url, v.current_status, v.last_changed_at,
        v.last_success_at, v.failures, v.etag, v.last_modified, v.next_poll_at, v.deadline_at,
        v.platform_misses, v.redetected_at, v.pulse_fingerprint, v.last_full_at,
        EXISTS (SELECT 1 FROM incidents i WHERE i.vendor_id = v.id
                AND ${sql.unsafe(openSql("i"))}) AS open_incidents
      FROM vendors v JOIN picked ON v.id = picked.id`;
    return rows.map(toDue).sort((a, b) => a.nextPollAt - b.nextPollAt || a.id - b.id);
  };

  return {
    /**
     * Claims the due vendors no other instance holds (rows another instance is claiming at
     * this moment are skipped, not waited for) and returns them: those promised a deadline
     * first, then those without one, each most overdue first. A vendor this instance already
     * holds for more than half a lease is returned without writing its row again: the poller
     * asks every round for its whole read-ahead, and rewriting every buffered row each second
     * was most of what PostgreSQL wrote at 50,000 vendors.
     */
    async claimDue(now, limit) {
      const promised = await claimQueue(now, limit, true);
      const fresh = promised.length < limit
        ? await claimQueue(now, limit - promised.length, false)
        : [];
      return [...promised, ...fresh];
    },
    /** How many catalog vendors are due at `now` that this instance may claim. */
    async countDue(now) {
      const count = (promised: boolean) =>
        sql`(SELECT COUNT(*) FROM vendors WHERE in_catalog = 1 AND ${queue(sql, promised)}
          AND next_poll_at <= ${now} AND ${claimable(sql, now)})`;
      const [{ n }] = await sql`SELECT ${count(true)} + ${count(false)} AS n`;
      return Number(n);
    },
    async nextPromisedAt() {
      const [row] = await sql`SELECT next_poll_at AS t FROM vendors
        WHERE in_catalog = 1 AND ${queue(sql, true)} ORDER BY next_poll_at LIMIT 1`;
      return row ? Number(row.t) : null;
    },
    async recordSkipped(vendorId, nextPollAt, reason) {
      await sql`UPDATE vendors SET next_poll_at = ${nextPollAt}, deadline_at = 0,
        lease_owner = NULL, lease_until = 0, last_error = ${reason.slice(0, 500)},
        unsupported_reason = ${reason.slice(0, READING_MESSAGE_MAX)}, error_kind = NULL,
        error_http_status = NULL, error_message = NULL, error_since = NULL
        WHERE id = ${vendorId}`;
    },
    async recordRedetection(vendorId, r) {
      const changed = r.to !== "unknown" && r.to !== r.from;
      await sql`UPDATE vendors SET redetected_at = ${r.at}, redetected_from = ${r.from},
        redetected_to = ${r.to}, platform_misses = 0
        ${
        changed
          ? sql`, detected_platform = ${r.to}, endpoint_url = NULL, etag = NULL,
              last_modified = NULL`
          : sql``
      }
        WHERE id = ${vendorId}`;
    },
    async setDetectedPlatform(vendorId, platform) {
      await sql`UPDATE vendors SET detected_platform = ${platform} WHERE id = ${vendorId}`;
    },
    async setEndpoint(vendorId, endpointUrl) {
      await sql`UPDATE vendors SET endpoint_url = ${endpointUrl} WHERE id = ${vendorId}`;
    },
    openIncidents(vendorId) {
      return runOn(sql, openIncidentsOf(vendorId));
    },
    recordSuccess(vendorId, snapshot, poll) {
      return publishing(write(sql, async (tx) => {
        const raw = await runOn(tx, writeReading(POSTGRES_DIALECT, vendorId, snapshot, poll.at));
        const set = tx`${healthy(tx)}, etag = ${poll.etag}, last_modified = ${poll.lastModified},
          reading_notes = ${JSON.stringify(boundNotes(poll.notes))},
          pulse_fingerprint = ${poll.pulseFingerprint ?? null}, last_full_at = ${poll.at}`;
        await finish(tx, vendorId, poll, set, "ok", true);
        return recordChanges(tx, poll.at, raw);
      }));
    },
    recordNotModified(vendorId, poll) {
      return quiet({ id: vendorId, poll, full: true });
    },
    recordPulse(vendorId, poll) {
      return quiet({ id: vendorId, poll, full: false });
    },
    recordFailure(vendorId, poll) {
      const message = poll.detail.slice(0, READING_MESSAGE_MAX);
      // A run of the same kind (and HTTP status) keeps its start; SET reads the old row.
      const set = (tx: Sql) =>
        tx`failures = failures + 1,
          last_error = ${`${poll.outcome}: ${poll.detail}`.slice(0, 500)},
          error_kind = ${poll.outcome}, error_http_status = ${poll.httpStatus},
          error_message = ${message},
          error_since = CASE WHEN failures > 0 AND error_kind IS NOT DISTINCT FROM ${poll.outcome}
            AND error_http_status IS NOT DISTINCT FROM ${poll.httpStatus}::integer
            AND error_since IS NOT NULL THEN error_since ELSE ${poll.at}::bigint END,
          unsupported_reason = NULL,
          platform_misses = platform_misses + ${poll.platformMiss ? 1 : 0}`;
      if (!poll.stale) {
        return finish(sql, vendorId, poll, set(sql), poll.outcome, false).then(() => []);
      }
      return publishing(write(sql, async (tx) => {
        await finish(tx, vendorId, poll, set(tx), poll.outcome, false);
        return recordChanges(
          tx,
          poll.at,
          await runOn(tx, writeStale(POSTGRES_DIALECT, vendorId, poll.at)),
        );
      }));
    },
  };
}

function toDue(r: Row): DueVendor {
  return {
    id: Number(r.id),
    slug: String(r.slug),
    statusPageUrl: String(r.status_page_url),
    platform: r.platform as Platform,
    detectedPlatform: (r.detected_platform as Platform | null) ?? null,
    endpointUrl: strOrNull(r.endpoint_url),
    currentStatus: r.current_status as StatusLevel,
    hasOpenIncident: r.open_incidents === true,
    lastChangedAt: numOrNull(r.last_changed_at),
    lastSuccessAt: numOrNull(r.last_success_at),
    failures: Number(r.failures),
    etag: strOrNull(r.etag),
    lastModified: strOrNull(r.last_modified),
    nextPollAt: Number(r.next_poll_at),
    deadlineAt: Number(r.deadline_at),
    platformMisses: Number(r.platform_misses),
    redetectedAt: numOrNull(r.redetected_at),
    pulseFingerprint: strOrNull(r.pulse_fingerprint),
    lastFullAt: numOrNull(r.last_full_at),
  };
}
