/**
 * Retention on SQLite: deletes rows older than the windows statusd reports (domain RETENTION).
 * Every function deletes at most one chunk per call and returns how many rows went (0 when
 * nothing older is left), so the job can yield to the event loop between chunks and
 * node:sqlite's synchronous writes never hold the request path for long.
 * @module
 */
import type { EpochMs, RetentionStore } from "../../domain/mod.ts";
import { changeFeedCutoff, keepsFromRecovery, PRUNE_CHUNK } from "../../domain/mod.ts";
import { deleteComponents, deleteIncidents } from "../shared/caps.ts";
import { type Db, statement, transaction } from "./db.ts";
import { pruneLatencyDays } from "../shared/latency_days.ts";
import { runNow, SQLITE_DIALECT } from "./engine.ts";
import { promised } from "./promised.ts";
import { closedSql, recoveredSql } from "../shared/sql.ts";

/** Deletes fetch-log rows older than `before`. */
function pruneFetchLog(db: Db, before: EpochMs, chunk = PRUNE_CHUNK): number {
  return Number(
    statement(db, "DELETE FROM fetches WHERE id IN (SELECT id FROM fetches WHERE at < ? LIMIT ?)")
      .run(before, chunk).changes,
  );
}

/**
 * Deletes change-feed rows older than `before`, and the oldest beyond the newest `keepRows`.
 * Ids grow with time, so the first id at or after `before` bounds what is expired (the scan
 * reads only expired rows).
 */
function pruneChangeFeed(
  db: Db,
  before: EpochMs,
  keepRows: number,
  chunk = PRUNE_CHUNK,
): number {
  const newest = (statement(db, "SELECT COALESCE(MAX(id), 0) AS id FROM changes").get() as {
    id: number;
  }).id;
  const firstFresh = (statement(db, "SELECT id FROM changes WHERE at >= ? ORDER BY id LIMIT 1")
    .get(before) as { id: number } | undefined)?.id ?? null;
  const cutoff = changeFeedCutoff(firstFresh, newest, keepRows);
  return Number(
    statement(
      db,
      "DELETE FROM changes WHERE id IN (SELECT id FROM changes WHERE id < ? ORDER BY id LIMIT ?)",
    ).run(cutoff, chunk).changes,
  );
}

/** Deletes component-level transitions older than `before` (reports read only service-level ones). */
function pruneComponentTransitions(db: Db, before: EpochMs, chunk = PRUNE_CHUNK): number {
  return Number(
    statement(
      db,
      `DELETE FROM transitions WHERE id IN (SELECT id FROM transitions
         WHERE component_id IS NOT NULL AND at < ? LIMIT ?)`,
    ).run(before, chunk).changes,
  );
}

/**
 * Deletes one vendor's service-level transitions that no report can need at `before`: those
 * older than the last recovery (to OPERATIONAL or UNDER_MAINTENANCE) at or before `before`, so
 * an outage spanning `before` keeps its start. Nothing is kept from before `hardBefore` but the
 * transition that gives the level held then (a vendor that never recovers cannot keep
 * everything).
 */
function pruneServiceTransitions(
  db: Db,
  vendorId: number,
  before: EpochMs,
  hardBefore: EpochMs,
  chunk = PRUNE_CHUNK,
): number {
  const last = (at: EpochMs, recovered: boolean) =>
    statement(
      db,
      `SELECT id, at FROM transitions WHERE vendor_id = ? AND component_id IS NULL AND at <= ?
       ${recovered ? `AND ${recoveredSql("transitions")}` : ""}
       ORDER BY at DESC, id DESC LIMIT 1`,
    ).get(vendorId, at) as { id: number; at: number } | undefined;
  const recovery = last(before, true);
  const anchor = keepsFromRecovery(recovery, hardBefore) ? recovery : last(hardBefore, false);
  if (!anchor) return 0;
  return Number(
    statement(
      db,
      `DELETE FROM transitions WHERE id IN (SELECT id FROM transitions
         WHERE vendor_id = ?1 AND component_id IS NULL AND (at < ?2 OR (at = ?2 AND id < ?3))
         LIMIT ?4)`,
    ).run(vendorId, anchor.at, anchor.id, chunk).changes,
  );
}

/** Ids of every vendor (catalog or not): retention visits each. */
function allVendorIds(db: Db): number[] {
  return statement(db, "SELECT id FROM vendors ORDER BY id").all().map((r) =>
    (r as { id: number }).id
  );
}

/** Deletes incidents closed before `before`, with their timelines. */
function pruneClosedIncidents(db: Db, before: EpochMs, chunk = PRUNE_CHUNK / 4): number {
  return transaction(db, () => {
    const ids = statement(
      db,
      `SELECT id FROM incidents WHERE ${closedSql()}
         AND COALESCE(resolved_at, updated_at) < ? LIMIT ?`,
    ).all(before, chunk).map((r) => (r as { id: number }).id);
    return runNow(db, deleteIncidents(SQLITE_DIALECT, ids));
  });
}

/** Deletes components removed from their page before `before`, with their transitions. */
function pruneRemovedComponents(db: Db, before: EpochMs, chunk = PRUNE_CHUNK / 4): number {
  return transaction(db, () => {
    const ids = statement(
      db,
      "SELECT id FROM components WHERE removed_at IS NOT NULL AND removed_at < ? LIMIT ?",
    ).all(before, chunk).map((r) => (r as { id: number }).id);
    return runNow(db, deleteComponents(SQLITE_DIALECT, ids));
  });
}

/** The retention noun over `db`. */
export function retentionStore(db: Db): RetentionStore {
  return promised<RetentionStore>({
    pruneFetchLog: (before, chunk) => pruneFetchLog(db, before, chunk),
    pruneLatencyDays: (before, chunk = PRUNE_CHUNK) => runNow(db, pruneLatencyDays(before, chunk)),
    pruneChangeFeed: (before, keepRows, chunk) => pruneChangeFeed(db, before, keepRows, chunk),
    pruneClosedIncidents: (before, chunk) => pruneClosedIncidents(db, before, chunk),
    pruneRemovedComponents: (before, chunk) => pruneRemovedComponents(db, before, chunk),
    pruneComponentTransitions: (before, chunk) => pruneComponentTransitions(db, before, chunk),
    vendorIds: () => allVendorIds(db),
    pruneServiceTransitions: (vendorId, before, hardBefore, chunk) =>
      pruneServiceTransitions(db, vendorId, before, hardBefore, chunk),
  });
}
