/**
 * In-process fan-out of committed changes, shared by every engine: a store tells it what it
 * committed and it tells each subscriber. A subscriber that throws never breaks the writer nor
 * the other subscribers; `onListenerError` is told (main.ts logs it).
 * @module
 */
import type { Change, ChangeListener } from "../../domain/mod.ts";

/** Committed changes to subscribers. */
export interface ChangeFanOut {
  /** Tells every subscriber about changes that are already committed. */
  publish(changes: readonly Change[]): void;
  /** Calls `listener` for every later publish; returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void;
}

/**
 * How a shared algorithm appends to the change log: the statements each engine needs around the
 * insert (PostgreSQL: writers take turns until they commit, and NOTIFY the other instances), and
 * how this process's subscribers are told once the transaction committed.
 */
export interface ChangeLog {
  /** Run before the insert, in the writer's transaction; null when none is needed. */
  readonly lockSql: string | null;
  /** Run after the insert, in the writer's transaction; null when none is needed. */
  readonly notifySql: string | null;
  /** Tells this process's subscribers of `changes`, committed (with their ids). */
  published(changes: readonly Change[]): Promise<void>;
}

/** A new fan-out with no subscribers. */
export function createChangeFanOut(
  onListenerError: (err: unknown) => void = () => {},
): ChangeFanOut {
  const listeners = new Set<ChangeListener>();
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
