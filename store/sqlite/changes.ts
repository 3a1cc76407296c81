/**
 * Writing the change feed on SQLite: changes are written in the writer's transaction and told
 * to subscribers after the commit (one process polls a SQLite database, so its own fan-out
 * reaches every reader of it). Reading it is `store/shared/changes.ts`.
 * @module
 */
import type { Change, EpochMs, IncidentChange, StatusChange } from "../../domain/mod.ts";
import { type Db, statement } from "./db.ts";

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
