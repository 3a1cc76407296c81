/**
 * Reading the change feed, once for both engines. Each engine writes changes in its own way
 * (`recordChanges` of `store/sqlite/changes.ts` and `store/postgres/changes.ts`: on PostgreSQL
 * writers take turns and notify the other instances) and tells its subscribers after the commit.
 * @module
 */
import type { Change, ChangeStore } from "../../domain/mod.ts";
import type { ChangeFanOut } from "./change_feed.ts";
import { all, type Engine, first, type Query, type Row } from "./query.ts";

/** A changes row as the change it recorded. */
export function toChange(r: Row): Change {
  return { ...JSON.parse(String(r.data)), id: Number(r.id), at: Number(r.at) } as Change;
}

/** The changes after id `afterId`, oldest first, at most `limit`. */
export function* changesAfter(afterId: number, limit: number): Query<Change[]> {
  const rows = yield* all(
    "SELECT id, at, data FROM changes WHERE id > ? ORDER BY id LIMIT ?",
    afterId,
    limit,
  );
  return rows.map(toChange);
}

function* bound(fn: "MIN" | "MAX"): Query<number> {
  const r = yield* first(`SELECT COALESCE(${fn}(id), 0) AS id FROM changes`);
  return Number(r!.id);
}

/** The changes noun over `engine`, publishing through `feed`. */
export function changeStore(engine: Engine, feed: ChangeFanOut): ChangeStore {
  return {
    after: (afterId, limit) => engine.once(changesAfter(afterId, limit)),
    oldestId: () => engine.once(bound("MIN")),
    latestId: () => engine.once(bound("MAX")),
    subscribe: (listener) => feed.subscribe(listener),
  };
}
