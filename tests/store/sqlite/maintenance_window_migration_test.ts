/**
 * Migration 8 over a version-4 SQLite database keeps incidents, with no planned window (the
 * window itself is in the store conformance suite).
 */
import { deepStrictEqual } from "node:assert/strict";
import { migrate, MIGRATIONS, openDb, openStoreWithDb, tempPath } from "./_sqlite.ts";

const T = Date.UTC(2026, 2, 1, 12);

Deno.test("migration 8 adds the window columns over a version-4 database, keeping incidents", async () => {
  const { path, remove } = tempPath();
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 4)), [1, 2, 3, 4]);
    old.exec(
      `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider)
         VALUES ('acme', 'Acme', 'https://status.acme.test', 'statuspage', 'other', 'acme');
       INSERT INTO incidents (vendor_id, external_id, title, status, impact, started_at, updated_at)
         VALUES (1, 'm-0', 'Old maintenance', 'SCHEDULED', 'MAINTENANCE', ${T}, ${T});`,
    );
    old.close();
    const { db, store } = openStoreWithDb(path);
    try {
      const [m] = await store.incidents.maintenances({ limit: 10 });
      deepStrictEqual(
        [m!.title, m!.startedAt, m!.scheduledStartAt, m!.scheduledEndAt],
        ["Old maintenance", T, null, null],
      );
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});
