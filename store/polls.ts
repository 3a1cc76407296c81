/**
 * The poller's port into the store: which vendors are due, and the outcome of each poll
 * (fetch log row, validators, failures and backoff, next poll time, staleness), each written
 * in one transaction. `ingest/poller.ts` declares the interface; this satisfies it.
 * @module
 */
import type {
  DueVendor,
  EpochMs,
  Platform,
  PollRecord,
  PollStore,
  StatusLevel,
} from "../domain/mod.ts";
import { recordChanges } from "./changes.ts";
import { type Db, transaction } from "./db.ts";
import { writeSnapshot } from "./snapshots.ts";

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
}

/** The poller's store over `db`; statements are prepared once. */
export function pollStore(db: Db): PollStore {
  const due = db.prepare(
    `SELECT v.id, v.slug, v.status_page_url, v.platform, v.detected_platform, v.endpoint_url,
       v.current_status,
       v.last_changed_at, v.last_success_at, v.failures, v.etag, v.last_modified, v.next_poll_at,
       v.deadline_at,
       EXISTS (SELECT 1 FROM incidents i WHERE i.vendor_id = v.id
               AND i.status NOT IN ('RESOLVED', 'COMPLETED')) AS open_incidents
     FROM vendors v WHERE v.in_catalog = 1 AND v.next_poll_at <= ?
     ORDER BY v.next_poll_at, v.id LIMIT ?`,
  );
  const countDue = db.prepare(
    "SELECT COUNT(*) AS n FROM vendors WHERE in_catalog = 1 AND next_poll_at <= ?",
  );
  const insertFetch = db.prepare(
    "INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status) VALUES (?, ?, ?, ?, ?)",
  );
  const schedule = (id: number, p: PollRecord) =>
    db.prepare(
      "UPDATE vendors SET next_poll_at = ?, deadline_at = ?, last_checked_at = ? WHERE id = ?",
    ).run(p.nextPollAt, p.deadlineAt, p.at, id);

  return {
    dueVendors(now, limit) {
      return (due.all(now, limit) as unknown as DueRow[]).map(toDue);
    },
    countDue(now) {
      return (countDue.get(now) as { n: number }).n;
    },
    recordSuccess(vendorId, snapshot, poll) {
      return transaction(db, () => {
        const raw = writeSnapshot(db, vendorId, snapshot, poll.at);
        db.prepare(
          "UPDATE vendors SET failures = 0, last_error = NULL, etag = ?, last_modified = ? WHERE id = ?",
        ).run(poll.etag, poll.lastModified, vendorId);
        schedule(vendorId, poll);
        insertFetch.run(vendorId, poll.at, poll.latencyMs, "ok", poll.httpStatus);
        return recordChanges(db, poll.at, raw);
      });
    },
    recordNotModified(vendorId, poll) {
      transaction(db, () => {
        db.prepare(
          "UPDATE vendors SET failures = 0, last_error = NULL, last_success_at = ? WHERE id = ?",
        ).run(poll.at, vendorId);
        schedule(vendorId, poll);
        insertFetch.run(vendorId, poll.at, poll.latencyMs, "not_modified", poll.httpStatus);
      });
    },
    recordFailure(vendorId, poll) {
      return transaction(db, () => {
        db.prepare(
          "UPDATE vendors SET failures = failures + 1, last_error = ? WHERE id = ?",
        ).run(`${poll.outcome}: ${poll.detail}`.slice(0, 500), vendorId);
        schedule(vendorId, poll);
        insertFetch.run(vendorId, poll.at, poll.latencyMs, poll.outcome, poll.httpStatus);
        return poll.stale ? recordChanges(db, poll.at, markStale(db, vendorId, poll.at)) : [];
      });
    },
    recordSkipped(vendorId, nextPollAt, reason) {
      db.prepare(
        "UPDATE vendors SET next_poll_at = ?, deadline_at = 0, last_error = ? WHERE id = ?",
      )
        .run(nextPollAt, reason.slice(0, 500), vendorId);
    },
    setDetectedPlatform(vendorId, platform) {
      db.prepare("UPDATE vendors SET detected_platform = ? WHERE id = ?").run(platform, vendorId);
    },
    setEndpoint(vendorId, endpointUrl) {
      db.prepare("UPDATE vendors SET endpoint_url = ? WHERE id = ?").run(endpointUrl, vendorId);
    },
  };
}

/**
 * The service reads UNKNOWN from now on (one transition, once). Validators are cleared so the
 * next good fetch is a full one and restores the status even if the document did not change.
 */
function markStale(db: Db, vendorId: number, at: EpochMs) {
  const row = db.prepare("SELECT slug, current_status FROM vendors WHERE id = ?").get(vendorId) as {
    slug: string;
    current_status: StatusLevel;
  };
  db.prepare("UPDATE vendors SET etag = NULL, last_modified = NULL WHERE id = ?").run(vendorId);
  if (row.current_status === "UNKNOWN") return [];
  db.prepare(
    "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, NULL, ?, 'UNKNOWN', ?)",
  ).run(vendorId, row.current_status, at);
  db.prepare("UPDATE vendors SET current_status = 'UNKNOWN', last_changed_at = ? WHERE id = ?")
    .run(at, vendorId);
  return [{
    kind: "status" as const,
    slug: row.slug,
    component: null,
    from: row.current_status,
    to: "UNKNOWN" as const,
  }];
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
  };
}
