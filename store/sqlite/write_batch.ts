/**
 * Group commit for the poller's writes on SQLite: the outcome of each poll is one
 * atomic write, but committing each on its own cost a transaction per request (BEGIN, WAL
 * frames, COMMIT: most of the store's share of a poll). Writes queued within {@link BATCH_WINDOW_MS} (or {@link BATCH_MAX} of them) run in one
 * transaction, each inside its own savepoint: one that throws is rolled back alone and rejects
 * its own promise; the others commit together. A write's promise settles only after the
 * commit, and `after` (publishing the committed changes) runs then, in order.
 * @module
 */
import type { Db } from "./db.ts";

/**
 * Longest a write waits for others to share its commit (ms): fewer commits (each writes the WAL
 * frames of the pages it touched), and what a poll publishes is delayed by at most this, nothing
 * next to a poll interval (the measurements behind the value: bench/README.md).
 */
export const BATCH_WINDOW_MS = 50;
/**
 * Longest a quiet write (one that can change nothing anyone reads as news: a pulse, an
 * unchanged document) waits (ms). Nothing waits on them but the poll that made them, so they
 * share fewer, larger commits: the pages a commit writes are mostly the vendor rows it touches,
 * and the fixed cost of each commit is spread over five times as many rows.
 */
export const QUIET_WINDOW_MS = 250;
/**
 * Queued writes past which a quiet write no longer waits for {@link QUIET_WINDOW_MS}: each poll
 * stays in the poller's in-flight set until its record commits, so a long wait at a high poll
 * rate would hold up the polls behind it.
 */
export const QUIET_MAX = 32;
/** Writes per transaction at most; a full batch commits at once. */
export const BATCH_MAX = 128;

/** Queued writes over one connection. */
export interface WriteBatch {
  /**
   * Queues `write` (synchronous, no transaction of its own); resolves once it is committed,
   * within {@link BATCH_WINDOW_MS}, or {@link QUIET_WINDOW_MS} when `quiet` and nothing else
   * queued is in a hurry.
   */
  add<T>(write: () => T, after?: (result: T) => void, quiet?: boolean): Promise<T>;
  /** Commits what is queued now (the store's close calls it). */
  flush(): void;
}

interface Queued {
  readonly write: () => unknown;
  readonly after?: (result: unknown) => void;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/** How long writes wait to share a commit (ms); production uses the constants above. */
export interface CommitWindows {
  readonly batchMs: number;
  readonly quietMs: number;
}

/** The windows statusd runs with. */
export const COMMIT_WINDOWS: CommitWindows = {
  batchMs: BATCH_WINDOW_MS,
  quietMs: QUIET_WINDOW_MS,
};

/**
 * A new batch over `db`. With windows of 0 (the test suite), writes still share a commit with
 * those queued in the same turn of the event loop, but nothing waits for a timer to pass.
 */
export function createWriteBatch(db: Db, windows: CommitWindows = COMMIT_WINDOWS): WriteBatch {
  let queue: Queued[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (performance.now()). */
  let timerAt = Infinity;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const done: { item: Queued; value: unknown }[] = [];
    const failed: { item: Queued; err: unknown }[] = [];
    try {
      db.exec("BEGIN IMMEDIATE");
      for (const item of batch) {
        db.exec("SAVEPOINT poll_write");
        try {
          done.push({ item, value: item.write() });
          db.exec("RELEASE poll_write");
        } catch (err) {
          db.exec("ROLLBACK TO poll_write");
          db.exec("RELEASE poll_write");
          failed.push({ item, err });
        }
      }
      db.exec("COMMIT");
    } catch (err) {
      if (db.isTransaction) db.exec("ROLLBACK");
      for (const item of batch) item.reject(err);
      return;
    }
    for (const { item, err } of failed) item.reject(err);
    for (const { item, value } of done) {
      try {
        item.after?.(value);
      } finally {
        item.resolve(value);
      }
    }
  };

  return {
    add<T>(write: () => T, after?: (result: T) => void, quiet = false): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          write,
          after: after as ((result: unknown) => void) | undefined,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        if (queue.length >= BATCH_MAX) return flush();
        const wait = quiet && queue.length < QUIET_MAX ? windows.quietMs : windows.batchMs;
        const at = performance.now() + wait;
        if (at >= timerAt) return;
        clearTimeout(timer);
        timer = setTimeout(flush, wait);
        timerAt = at;
      });
    },
    flush,
  };
}
