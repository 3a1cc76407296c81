/**
 * Fresh stores for tests: in memory (the usual case), or a SQLite file in a temp folder for the
 * tests that are about the file itself (restart, crash, legacy rows). With
 * `STATUSD_TEST_ENGINE=postgres`, {@link memoryStore} gives a fresh PostgreSQL database of the
 * test rig's server instead, so every suite built on it runs on the other engine too.
 * @module
 */
import { join } from "node:path";
import type { ChangeListener, PollerStats, Store } from "../../domain/mod.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { freshMigratedDatabase, type TestDatabase } from "./postgres.ts";

/** The engine test stores use: `STATUSD_TEST_ENGINE` (`sqlite`, the default, or `postgres`). */
export const TEST_ENGINE: "sqlite" | "postgres" = Deno.env.get("STATUSD_TEST_ENGINE") === "postgres"
  ? "postgres"
  : "sqlite";

/**
 * SQLite's group-commit windows in tests: none (writes of one turn still share a commit). With
 * production's windows each awaited poll write waits 50 ms and each pulse 250 ms, which is most
 * of the suite's time; `tests/store/sqlite/write_batch_test.ts` keeps the windows themselves
 * honest.
 */
export const TEST_COMMIT_WINDOWS = { batchMs: 0, quietMs: 0 } as const;

/** A new empty store with every migration applied (SQLite in memory, or see TEST_ENGINE). */
export function memoryStore(): Store {
  if (TEST_ENGINE === "postgres") return freshPostgresStore();
  return openSqliteStore(":memory:", { commitWindows: TEST_COMMIT_WINDOWS });
}

let nounMethods: Store | null = null;

/** The method names of one noun of the port (read off a SQLite store: both engines agree). */
function methodsOf(name: keyof Store): string[] {
  nounMethods ??= openSqliteStore(":memory:");
  return Object.keys(nounMethods[name] as object);
}

/**
 * A store on a fresh PostgreSQL database, usable at once: every call waits for the database to
 * be created and migrated; `close` drops it.
 */
function freshPostgresStore(): Store {
  // Opened on first use: a test that builds a context and never touches its store creates no
  // database (and leaves no promise behind when the server stops at the end of the file).
  let opening: Promise<{ db: TestDatabase; store: Store }> | null = null;
  const open = () =>
    opening ??= (async () => {
      const db = await freshMigratedDatabase();
      return { db, store: await openPostgresStore(db.url, { poolSize: 4 }) };
    })();
  const ready = () => open().then((o) => o.store);
  let closing: Promise<void> | null = null;
  // Real own methods (not a Proxy), so a test may spread a noun to wrap one of its methods.
  const noun = (name: keyof Store) =>
    Object.fromEntries(
      methodsOf(name).map((method) => {
        if (name === "changes" && method === "subscribe") {
          return [method, (listener: ChangeListener) => {
            let stop: (() => void) | null = null;
            let cancelled = false;
            ready().then((s) => {
              if (!cancelled) stop = s.changes.subscribe(listener);
            }, () => {/* the first call that awaits the store reports the failure */});
            return () => {
              cancelled = true;
              stop?.();
            };
          }];
        }
        return [method, async (...args: unknown[]) => {
          const s = await ready();
          const target = s[name] as unknown as Record<string, (...a: unknown[]) => unknown>;
          return await target[method]!(...args);
        }];
      }),
    );
  // Every noun of the port, read off a SQLite store (both engines have the same).
  nounMethods ??= openSqliteStore(":memory:");
  const nouns = Object.entries(nounMethods)
    .filter(([, v]) => v !== null && typeof v === "object")
    .map(([k]) => k as keyof Store);
  return {
    engine: "postgres",
    ...Object.fromEntries(nouns.map((n) => [n, noun(n)])),
    close() {
      // Once, however often it is called (a test may close what `await using` closes again).
      return closing ??= (async () => {
        if (opening === null) return;
        const { db, store } = await opening;
        await store.close();
        await db.drop();
      })();
    },
  } as unknown as Store;
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
    store: openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS }),
    path,
    reopen: () => openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS }),
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
    lastMissAt: null,
    lastMissByMs: null,
    inFlight: 0,
    queued: 0,
    dueBacklog: 0,
    lastRoundAt: null,
    lastAnswerAt: null,
    silentSince: null,
  };
}
