/**
 * Reading health in the store: an error keeps its start while the same kind repeats, a new
 * kind starts again, a success clears it; migration 5 over a version-4 database turns a failing
 * vendor's `last_error` into its error.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import type { ReadingErrorKind } from "../../domain/mod.ts";
import { openDb } from "../../store/db.ts";
import { migrate, openStore, pollStore, syncCatalog } from "../../store/mod.ts";
import { MIGRATIONS } from "../../store/migrations/mod.ts";
import { memoryStore } from "../support/store.ts";

const T0 = Date.UTC(2026, 10, 20, 12);

function errorOf(db: ReturnType<typeof memoryStore>) {
  return {
    ...db.prepare(
      "SELECT failures, error_kind, error_http_status, error_message, error_since FROM vendors",
    ).get(),
  };
}

Deno.test("an error keeps its start while its kind repeats; a success clears it", () => {
  const db = memoryStore();
  try {
    syncCatalog(db, [{
      name: "A",
      slug: "a",
      statusPageUrl: "https://a.test/",
      platform: "statuspage",
      category: "other",
      provider: "a",
      domains: [],
    }], T0);
    const store = pollStore(db);
    const fail = (at: number, outcome: ReadingErrorKind, httpStatus: number | null) =>
      store.recordFailure(1, {
        at,
        latencyMs: 1,
        httpStatus,
        nextPollAt: at + 60_000,
        deadlineAt: at + 60_000,
        outcome,
        detail: `${outcome} ${httpStatus ?? ""}`.trim(),
        stale: false,
        platformMiss: false,
      });
    fail(T0, "http_status", 503);
    fail(T0 + 60_000, "http_status", 503);
    deepStrictEqual(errorOf(db), {
      failures: 2,
      error_kind: "http_status",
      error_http_status: 503,
      error_message: "http_status 503",
      error_since: T0,
    });
    fail(T0 + 120_000, "http_status", 502);
    equal(errorOf(db).error_since, T0 + 120_000, "another status: a new error");
    fail(T0 + 180_000, "timeout", null);
    deepStrictEqual(errorOf(db), {
      failures: 4,
      error_kind: "timeout",
      error_http_status: null,
      error_message: "timeout",
      error_since: T0 + 180_000,
    });
    store.recordNotModified(1, {
      at: T0 + 240_000,
      latencyMs: 1,
      httpStatus: 304,
      nextPollAt: T0 + 540_000,
      deadlineAt: T0 + 540_000,
    });
    deepStrictEqual(errorOf(db), {
      failures: 0,
      error_kind: null,
      error_http_status: null,
      error_message: null,
      error_since: null,
    });
    fail(T0 + 300_000, "timeout", null);
    equal(errorOf(db).error_since, T0 + 300_000, "after a success, a new run");
  } finally {
    db.close();
  }
});

Deno.test("migration 5 over a version-4 database: a failing vendor keeps its error", () => {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  const path = join(dir, "statusd.db");
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 4)), [1, 2, 3, 4]);
    const insert = old.prepare(
      `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider,
         current_status, failures, last_error, last_checked_at)
       VALUES (?, ?, 'https://x.test', 'statuspage', 'other', ?, 'UNKNOWN', ?, ?, ?)`,
    );
    insert.run("down", "Down", "down", 3, "timeout: no complete answer in time", T0);
    insert.run("fine", "Fine", "fine", 0, null, T0);
    old.close();

    const db = openStore(path);
    try {
      const rows = db.prepare(
        `SELECT slug, error_kind, error_message, error_since, reading_notes, platform_misses
         FROM vendors ORDER BY slug`,
      ).all().map((r) => ({ ...r }));
      deepStrictEqual(rows, [
        {
          slug: "down",
          error_kind: "timeout",
          error_message: "no complete answer in time",
          error_since: T0,
          reading_notes: "[]",
          platform_misses: 0,
        },
        {
          slug: "fine",
          error_kind: null,
          error_message: null,
          error_since: null,
          reading_notes: "[]",
          platform_misses: 0,
        },
      ]);
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      db.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
