import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { migrate, MIGRATIONS, openDb, openStoreWithDb, tempPath } from "./_sqlite.ts";

Deno.test("migration 4 adds vendors.endpoint_url over a version-3 database, keeping its rows", async () => {
  const { path, remove } = tempPath();
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 3)), [1, 2, 3]);
    old.prepare(
      "INSERT INTO vendors (slug, name, status_page_url, platform, category, provider, current_status) VALUES ('gitlab', 'GitLab', 'https://status.gitlab.com', 'statusio', 'dev-tools', 'gitlab', 'OPERATIONAL')",
    ).run();
    old.close();

    const { db, store } = openStoreWithDb(path);
    try {
      const versions = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version")
        .all().map((r) => `${r.version} ${r.name}`);
      ok(versions.includes("4 vendor_endpoint"), versions.join(", "));
      const [due] = await store.polls.claimDue(Date.now(), 10);
      equal(due?.slug, "gitlab");
      equal(due?.currentStatus, "OPERATIONAL", "existing data kept");
      equal(due?.endpointUrl, null, "nothing discovered yet");
      await store.polls.setEndpoint(
        due!.id,
        "https://api.status.io/1.0/status/5b36dc6502d06804c08349f7",
      );
      equal(
        (await store.polls.claimDue(Date.now(), 10))[0]?.endpointUrl,
        "https://api.status.io/1.0/status/5b36dc6502d06804c08349f7",
      );
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});
