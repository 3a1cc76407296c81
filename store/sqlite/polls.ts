/**
 * The poller's side of the SQLite store (domain `PollStore`): which vendors are due, and the
 * outcome of each poll (fetch log row, latency summary, validators, failures and backoff, next
 * poll time, staleness), each one atomic write, committed together with the writes of other
 * polls that finished within the same few milliseconds (write_batch.ts) and published after
 * the commit.
 * @module
 */
import type {
  Change,
  DueVendor,
  FullReadRecord,
  Platform,
  PollRecord,
  PollStore,
  StatusLevel,
} from "../../domain/mod.ts";
import { boundNotes, READING_MESSAGE_MAX } from "../../domain/mod.ts";
import type { ChangeFanOut } from "../shared/change_feed.ts";
import { recordChanges } from "./changes.ts";
import { type Db, statement } from "./db.ts";
import { countLatency } from "../shared/latency_days.ts";
import { runNow, SQLITE_DIALECT } from "./engine.ts";
import { promised } from "./promised.ts";
import { openIncidentsOf, writeReading, writeStale } from "../shared/readings.ts";
import { openSql } from "../shared/sql.ts";
import type { WriteBatch } from "./write_batch.ts";

interface DueRow {
  id: number;
  slug: string;
  status_page_url: string;
  platform: Platform;
  detected_platform: Platform | null;
  endpoint_url: string | null;
  current_status: StatusLevel;
  open_incidents: number;
  last_changed_at: number | null;
  last_success_at: number | null;
  failures: number;
  etag: string | null;
  last_modified: string | null;
  next_poll_at: number;
  deadline_at: number;
  platform_misses: number;
  redetected_at: number | null;
  pulse_fingerprint: string | null;
  last_full_at: number | null;
}

/** The poll records written through the batch (group commit). */
type BatchedWrites = "recordSuccess" | "recordNotModified" | "recordPulse" | "recordFailure";

/** Columns a success (or an unchanged document) resets: no error, no skip, no misses. */
const HEALTHY = `failures = 0, last_error = NULL, error_kind = NULL, error_http_status = NULL,
  error_message = NULL, error_since = NULL, unsupported_reason = NULL, platform_misses = 0`;

/**
 * The poller's store over `db`, writing through `batch` and publishing committed changes
 * through `feed`.
 */
export function pollStore(db: Db, feed: ChangeFanOut, batch: WriteBatch): PollStore {
  /**
   * One of the two due queues (literal, so the partial index of each applies): vendors a poll
   * promised a deadline to, or those without one.
   */
  const queue = (promised: boolean) => promised ? "deadline_at > 0" : "deadline_at = 0";
  /** Due vendors of one queue, most overdue first. */
  const dueOf = (promised: boolean) =>
    statement(
      db,
      `SELECT v.id, v.slug, v.status_page_url, v.platform, v.detected_platform, v.endpoint_url,
         v.current_status,
         v.last_changed_at, v.last_success_at, v.failures, v.etag, v.last_modified,
         v.next_poll_at, v.deadline_at, v.platform_misses, v.redetected_at, v.pulse_fingerprint,
         v.last_full_at,
         EXISTS (SELECT 1 FROM incidents i WHERE i.vendor_id = v.id
                 AND ${openSql("i")}) AS open_incidents
       FROM vendors v WHERE v.in_catalog = 1 AND v.${queue(promised)} AND v.next_poll_at <= ?
       ORDER BY v.next_poll_at, v.id LIMIT ?`,
    );
  const duePromised = dueOf(true);
  const dueFresh = dueOf(false);
  const countDue = statement(
    db,
    `SELECT (SELECT COUNT(*) FROM vendors
         WHERE in_catalog = 1 AND ${queue(true)} AND next_poll_at <= ?)
       + (SELECT COUNT(*) FROM vendors
         WHERE in_catalog = 1 AND ${queue(false)} AND next_poll_at <= ?) AS n`,
  );
  const nextPromised = statement(
    db,
    `SELECT next_poll_at AS t FROM vendors WHERE in_catalog = 1 AND ${queue(true)}
       ORDER BY next_poll_at LIMIT 1`,
  );
  const insertFetch = statement(
    db,
    "INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status) VALUES (?, ?, ?, ?, ?)",
  );
  const schedule = (id: number, p: PollRecord) =>
    statement(
      db,
      "UPDATE vendors SET next_poll_at = ?, deadline_at = ?, last_checked_at = ? WHERE id = ?",
    ).run(p.nextPollAt, p.deadlineAt, p.at, id);

  /**
   * The document did not change: the notes of the reading that produced it still hold. One
   * statement for health and schedule (a pulse is most of the poller's writes); a full
   * read (`full`) also stores what the next pulse compares with.
   */
  const unchanged = (vendorId: number, poll: FullReadRecord, full: boolean) => {
    const fullSet = full ? ", pulse_fingerprint = ?, last_full_at = ?" : "";
    statement(
      db,
      `UPDATE vendors SET ${HEALTHY}, last_success_at = ?, next_poll_at = ?, deadline_at = ?,
         last_checked_at = ?${fullSet} WHERE id = ?`,
    ).run(
      poll.at,
      poll.nextPollAt,
      poll.deadlineAt,
      poll.at,
      ...(full ? [poll.pulseFingerprint ?? null, poll.at] : []),
      vendorId,
    );
    runNow(db, countLatency(vendorId, poll.at, poll.latencyMs));
  };
  const publish = (changes: readonly Change[]) => feed.publish(changes);

  return {
    ...promised<Omit<PollStore, BatchedWrites>>({
      claimDue(now, limit) {
        const promised = duePromised.all(now, limit) as unknown as DueRow[];
        const fresh = promised.length < limit
          ? dueFresh.all(now, limit - promised.length) as unknown as DueRow[]
          : [];
        return [...promised, ...fresh].map(toDue);
      },
      countDue(now) {
        return (countDue.get(now, now) as { n: number }).n;
      },
      nextPromisedAt() {
        const row = nextPromised.get() as { t: number } | undefined;
        return row ? row.t : null;
      },
      recordSkipped(vendorId, nextPollAt, reason) {
        statement(
          db,
          `UPDATE vendors SET next_poll_at = ?, deadline_at = 0, last_error = ?,
             unsupported_reason = ?, error_kind = NULL, error_http_status = NULL,
             error_message = NULL, error_since = NULL WHERE id = ?`,
        )
          .run(nextPollAt, reason.slice(0, 500), reason.slice(0, READING_MESSAGE_MAX), vendorId);
      },
      recordRedetection(vendorId, r) {
        const changed = r.to !== "unknown" && r.to !== r.from;
        statement(
          db,
          `UPDATE vendors SET redetected_at = ?, redetected_from = ?, redetected_to = ?,
             platform_misses = 0,
             detected_platform = CASE WHEN ? THEN ? ELSE detected_platform END,
             endpoint_url = CASE WHEN ? THEN NULL ELSE endpoint_url END,
             etag = CASE WHEN ? THEN NULL ELSE etag END,
             last_modified = CASE WHEN ? THEN NULL ELSE last_modified END
           WHERE id = ?`,
        ).run(
          r.at,
          r.from,
          r.to,
          changed ? 1 : 0,
          r.to,
          changed ? 1 : 0,
          changed ? 1 : 0,
          changed ? 1 : 0,
          vendorId,
        );
      },
      setDetectedPlatform(vendorId, platform) {
        statement(db, "UPDATE vendors SET detected_platform = ? WHERE id = ?").run(
          platform,
          vendorId,
        );
      },
      setEndpoint(vendorId, endpointUrl) {
        statement(db, "UPDATE vendors SET endpoint_url = ? WHERE id = ?").run(
          endpointUrl,
          vendorId,
        );
      },
      openIncidents(vendorId) {
        return runNow(db, openIncidentsOf(vendorId));
      },
    }),
    recordSuccess(vendorId, snapshot, poll) {
      return batch.add(() => {
        const raw = runNow(db, writeReading(SQLITE_DIALECT, vendorId, snapshot, poll.at));
        statement(
          db,
          `UPDATE vendors SET ${HEALTHY}, etag = ?, last_modified = ?, reading_notes = ?,
             pulse_fingerprint = ?, last_full_at = ? WHERE id = ?`,
        ).run(
          poll.etag,
          poll.lastModified,
          JSON.stringify(boundNotes(poll.notes)),
          poll.pulseFingerprint ?? null,
          poll.at,
          vendorId,
        );
        schedule(vendorId, poll);
        insertFetch.run(vendorId, poll.at, poll.latencyMs, "ok", poll.httpStatus);
        runNow(db, countLatency(vendorId, poll.at, poll.latencyMs));
        return recordChanges(db, poll.at, raw);
      }, publish);
    },
    recordNotModified(vendorId, poll) {
      return batch.add(
        () => {
          unchanged(vendorId, poll, true);
          insertFetch.run(vendorId, poll.at, poll.latencyMs, "not_modified", poll.httpStatus);
        },
        undefined,
        true,
      );
    },
    recordPulse(vendorId, poll) {
      return batch.add(() => unchanged(vendorId, poll, false), undefined, true);
    },
    recordFailure(vendorId, poll) {
      return batch.add(() => {
        const message = poll.detail.slice(0, READING_MESSAGE_MAX);
        // A run of the same kind (and HTTP status) keeps its start; SET reads the old row.
        statement(
          db,
          `UPDATE vendors SET failures = failures + 1, last_error = ?, error_kind = ?,
             error_http_status = ?, error_message = ?,
             error_since = CASE WHEN failures > 0 AND error_kind IS ? AND error_http_status IS ?
               AND error_since IS NOT NULL THEN error_since ELSE ? END,
             unsupported_reason = NULL, platform_misses = platform_misses + ?
           WHERE id = ?`,
        ).run(
          `${poll.outcome}: ${poll.detail}`.slice(0, 500),
          poll.outcome,
          poll.httpStatus,
          message,
          poll.outcome,
          poll.httpStatus,
          poll.at,
          poll.platformMiss ? 1 : 0,
          vendorId,
        );
        schedule(vendorId, poll);
        insertFetch.run(vendorId, poll.at, poll.latencyMs, poll.outcome, poll.httpStatus);
        return poll.stale
          ? recordChanges(db, poll.at, runNow(db, writeStale(SQLITE_DIALECT, vendorId, poll.at)))
          : [];
      }, publish);
    },
  };
}

function toDue(r: DueRow): DueVendor {
  return {
    id: r.id,
    slug: r.slug,
    statusPageUrl: r.status_page_url,
    platform: r.platform,
    detectedPlatform: r.detected_platform,
    endpointUrl: r.endpoint_url,
    currentStatus: r.current_status,
    hasOpenIncident: r.open_incidents === 1,
    lastChangedAt: r.last_changed_at,
    lastSuccessAt: r.last_success_at,
    failures: r.failures,
    etag: r.etag,
    lastModified: r.last_modified,
    nextPollAt: r.next_poll_at,
    deadlineAt: r.deadline_at,
    platformMisses: r.platform_misses,
    redetectedAt: r.redetected_at,
    pulseFingerprint: r.pulse_fingerprint,
    lastFullAt: r.last_full_at,
  };
}
