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
