/**
 * The change feed: changes are written in the same transaction as the data they describe
 * (`recordChanges`), then published to in-process subscribers only after the commit.
 * @module
 */
import type { Change, EpochMs, IncidentChange, StatusChange } from "../domain/mod.ts";
import { type Db, statement } from "./db.ts";

/** Inserts changes into the feed table (call inside the writer's transaction). */
export function recordChanges(
  db: Db,
  at: EpochMs,
  changes: readonly (StatusChange | IncidentChange)[],
): Change[] {
  const insert = statement(
    db,
    "INSERT INTO changes (at, kind, vendor_slug, data) VALUES (?, ?, ?, ?) RETURNING id",
  );
  return changes.map((c) => {
    const { id } = insert.get(at, c.kind, c.slug, JSON.stringify(c)) as { id: number };
    return { ...c, id, at };
  });
}

/** Changes with an id greater than `afterId`, oldest first (SSE resume), at most `limit`. */
export function changesAfter(db: Db, afterId: number, limit = 1000): Change[] {
  const rows = db.prepare(
    "SELECT id, at, data FROM changes WHERE id > ? ORDER BY id LIMIT ?",
  ).all(afterId, limit) as { id: number; at: number; data: string }[];
  return rows.map((r) => ({ ...JSON.parse(r.data), id: r.id, at: r.at }));
}

/** Id of the newest change, 0 when none. */
export function lastChangeId(db: Db): number {
  return (db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM changes").get() as { id: number }).id;
}

/** In-process fan-out of committed changes. */
export interface ChangeFeed {
  /** Publishes changes that are already committed. */
  publish(changes: readonly Change[]): void;
  /** Calls `listener` for every later publish; returns the unsubscribe function. */
  subscribe(listener: (changes: readonly Change[]) => void): () => void;
}

/**
 * A new, empty feed. A listener that throws never breaks the writer (or the other listeners);
 * `onListenerError` is told (main.ts logs it), so a failure is never silent.
 */
export function createChangeFeed(
  onListenerError: (err: unknown) => void = () => {},
): ChangeFeed {
  const listeners = new Set<(changes: readonly Change[]) => void>();
  return {
    publish(changes) {
      if (changes.length === 0) return;
      for (const l of listeners) {
        try {
          l(changes);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
