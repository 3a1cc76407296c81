/**
 * The change feed on SQLite: changes are written in the writer's transaction
 * (`recordChanges`) and told to subscribers after the commit (one process polls a SQLite
 * database, so its own fan-out reaches every reader of it).
 * @module
 */
import type {
  Change,
  ChangeStore,
  EpochMs,
  IncidentChange,
  StatusChange,
} from "../../domain/mod.ts";
import type { ChangeFanOut } from "../change_feed.ts";
import { type Db, statement } from "./db.ts";
import { promised } from "./promised.ts";

/** Inserts changes into the feed table (inside the writer's transaction); returns them with ids. */
export function recordChanges(
  db: Db,
  at: EpochMs,
  changes: readonly (StatusChange | IncidentChange)[],
): Change[] {
  if (changes.length === 0) return [];
  const insert = statement(
    db,
    "INSERT INTO changes (at, kind, vendor_slug, data) VALUES (?, ?, ?, ?) RETURNING id",
  );
  return changes.map((c) => {
    const { id } = insert.get(at, c.kind, c.slug, JSON.stringify(c)) as { id: number };
    return { ...c, id, at };
  });
}

/** The changes noun over `db`, publishing through `feed`. */
export function changeStore(db: Db, feed: ChangeFanOut): ChangeStore {
  return {
    ...promised<ChangeStore>({
      after(afterId, limit) {
        const rows = statement(
          db,
          "SELECT id, at, data FROM changes WHERE id > ? ORDER BY id LIMIT ?",
        ).all(afterId, limit) as { id: number; at: number; data: string }[];
        return rows.map((r) => ({ ...JSON.parse(r.data), id: r.id, at: r.at }) as Change);
      },
      oldestId() {
        return (statement(db, "SELECT COALESCE(MIN(id), 0) AS id FROM changes").get() as {
          id: number;
        }).id;
      },
      latestId() {
        return (statement(db, "SELECT COALESCE(MAX(id), 0) AS id FROM changes").get() as {
          id: number;
        }).id;
      },
    }),
    subscribe: (listener) => feed.subscribe(listener),
  };
}
