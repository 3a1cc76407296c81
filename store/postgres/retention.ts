/**
 * Retention on PostgreSQL: deletes rows older than the windows statusd reports (domain
 * RETENTION), at most one chunk per call, as on SQLite (store/sqlite/retention.ts).
 * @module
 */
import type { EpochMs, RetentionStore } from "../../domain/mod.ts";
import { changeFeedCutoff, keepsFromRecovery, PRUNE_CHUNK } from "../../domain/mod.ts";
import { deleteComponents, deleteIncidents } from "../shared/caps.ts";
import { type Sql, write } from "./db.ts";
import { pruneLatencyDays } from "../shared/latency_days.ts";
import { POSTGRES_DIALECT, runOn } from "./engine.ts";
import { closedSql, recoveredSql } from "../shared/sql.ts";

async function pruneChangeFeed(
  sql: Sql,
  before: EpochMs,
  keepRows: number,
  chunk = PRUNE_CHUNK,
): Promise<number> {
  const [{ newest }] = await sql`SELECT COALESCE(MAX(id), 0) AS newest FROM changes`;
  const [fresh] = await sql`SELECT id FROM changes WHERE at >= ${before} ORDER BY id LIMIT 1`;
  const cutoff = changeFeedCutoff(fresh ? Number(fresh.id) : null, Number(newest), keepRows);
  return (await sql`DELETE FROM changes WHERE id IN
    (SELECT id FROM changes WHERE id < ${cutoff} ORDER BY id LIMIT ${chunk})`).count;
}

async function pruneServiceTransitions(
  sql: Sql,
  vendorId: number,
  before: EpochMs,
  hardBefore: EpochMs,
  chunk = PRUNE_CHUNK,
): Promise<number> {
  const last = async (at: EpochMs, recovered: boolean) => {
    const [r] = await sql`SELECT id, at FROM transitions t WHERE vendor_id = ${vendorId}
      AND component_id IS NULL AND at <= ${at}
      ${recovered ? sql`AND ${sql.unsafe(recoveredSql("t"))}` : sql``}
      ORDER BY at DESC, id DESC LIMIT 1`;
    return r ? { id: Number(r.id), at: Number(r.at) } : undefined;
  };
  const recovery = await last(before, true);
  const anchor = keepsFromRecovery(recovery, hardBefore) ? recovery : await last(hardBefore, false);
  if (!anchor) return 0;
  return (await sql`DELETE FROM transitions WHERE id IN (SELECT id FROM transitions
    WHERE vendor_id = ${vendorId} AND component_id IS NULL
      AND (at < ${anchor.at} OR (at = ${anchor.at} AND id < ${anchor.id}))
    LIMIT ${chunk})`).count;
}

/** The retention noun over the pool `sql`. */
export function retentionStore(sql: Sql): RetentionStore {
  return {
    async pruneFetchLog(before, chunk = PRUNE_CHUNK) {
      return (await sql`DELETE FROM fetches WHERE id IN
        (SELECT id FROM fetches WHERE at < ${before} LIMIT ${chunk})`).count;
    },
    pruneLatencyDays: (before, chunk = PRUNE_CHUNK) => runOn(sql, pruneLatencyDays(before, chunk)),
    pruneChangeFeed: (before, keepRows, chunk) => pruneChangeFeed(sql, before, keepRows, chunk),
    pruneClosedIncidents(before, chunk = PRUNE_CHUNK / 4) {
      return write(sql, async (tx) => {
        const ids = await tx`SELECT id FROM incidents WHERE ${tx.unsafe(closedSql())}
          AND COALESCE(resolved_at, updated_at) < ${before} LIMIT ${chunk}`;
        return runOn(tx, deleteIncidents(POSTGRES_DIALECT, ids.map((r) => Number(r.id))));
      });
    },
    pruneRemovedComponents(before, chunk = PRUNE_CHUNK / 4) {
      return write(sql, async (tx) => {
        const ids = await tx`SELECT id FROM components WHERE removed_at IS NOT NULL
          AND removed_at < ${before} LIMIT ${chunk}`;
        return runOn(tx, deleteComponents(POSTGRES_DIALECT, ids.map((r) => Number(r.id))));
      });
    },
    async pruneComponentTransitions(before, chunk = PRUNE_CHUNK) {
      return (await sql`DELETE FROM transitions WHERE id IN (SELECT id FROM transitions
        WHERE component_id IS NOT NULL AND at < ${before} LIMIT ${chunk})`).count;
    },
    async vendorIds() {
      return (await sql`SELECT id FROM vendors ORDER BY id`).map((r) => Number(r.id));
    },
    pruneServiceTransitions: (vendorId, before, hardBefore, chunk) =>
      pruneServiceTransitions(sql, vendorId, before, hardBefore, chunk),
  };
}
