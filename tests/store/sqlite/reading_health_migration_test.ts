/**
 * Migration 5 over a version-4 SQLite database turns a failing vendor's `last_error` into its
 * error (reading health itself is in the store conformance suite).
 */
import { deepStrictEqual } from "node:assert/strict";
import { migrate, MIGRATIONS, openDb, openStoreWithDb, tempPath } from "./_sqlite.ts";

const T0 = Date.UTC(2026, 10, 20, 12);

Deno.test("migration 5 over a version-4 database: a failing vendor keeps its error", async () => {
  const { path, remove } = tempPath();
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

    const { db, store } = openStoreWithDb(path);
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
      const down = (await store.catalog.service("down"))!.reading;
      deepStrictEqual(down.error, {
        kind: "timeout",
        httpStatus: null,
        message: "no complete answer in time",
        since: T0,
      });
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});
