/**
 * Fresh stores for tests: in memory (the usual case), or a SQLite file in a temp folder for the
 * tests that are about the file itself (restart, crash, legacy rows).
 * @module
 */
import { join } from "node:path";
import type { PollerStats, Store } from "../../domain/mod.ts";
import { openSqliteStore } from "../../store/mod.ts";

/** A new in-memory store with every migration applied. */
export function memoryStore(): Store {
  return openSqliteStore(":memory:");
}

/** A SQLite store in a fresh temp folder; `reopen` opens the same file again, `remove` deletes it. */
export interface TempStore {
  readonly store: Store;
  readonly path: string;
  reopen(): Store;
  remove(): void;
}

/** A new migrated store in a temp file (WAL mode, as in production). */
export function tempStore(): TempStore {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  const path = join(dir, "statusd.db");
  return {
    store: openSqliteStore(path),
    path,
    reopen: () => openSqliteStore(path),
    remove: () => Deno.removeSync(dir, { recursive: true }),
  };
}

/** A poller's counters as `/healthz` shows them, for servers built without a poller. */
export function pollerStats(running = true): PollerStats {
  return {
    running,
    rounds: 0,
    polls: 0,
    ok: 0,
    notModified: 0,
    pulses: 0,
    pulseChanges: 0,
    bytesReceived: 0,
    offThreadParses: 0,
    failures: 0,
    failuresByReason: {},
    changes: 0,
    missedDeadlines: 0,
    inFlight: 0,
    queued: 0,
    dueBacklog: 0,
    lastRoundAt: null,
    lastAnswerAt: null,
    silentSince: null,
  };
}
