import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { openDb } from "../../store/db.ts";
import { migrate, openStore, pollStore } from "../../store/mod.ts";
import { MIGRATIONS } from "../../store/migrations/mod.ts";

Deno.test("migration 4 adds vendors.endpoint_url over a version-3 database, keeping its rows", () => {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  const path = join(dir, "statusd.db");
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 3)), [1, 2, 3]);
    old.prepare(
      "INSERT INTO vendors (slug, name, status_page_url, platform, category, provider, current_status) VALUES ('gitlab', 'GitLab', 'https://status.gitlab.com', 'statusio', 'dev-tools', 'gitlab', 'OPERATIONAL')",
    ).run();
    old.close();

    const db = openStore(path);
    try {
      const versions = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version")
        .all().map((r) => `${r.version} ${r.name}`);
      ok(versions.includes("4 vendor_endpoint"), versions.join(", "));
      const [due] = pollStore(db).dueVendors(Date.now(), 10);
      equal(due?.slug, "gitlab");
      equal(due?.currentStatus, "OPERATIONAL", "existing data kept");
      equal(due?.endpointUrl, null, "nothing discovered yet");
      pollStore(db).setEndpoint(
        due!.id,
        "https://api.status.io/1.0/status/5b36dc6502d06804c08349f7",
      );
      equal(
        pollStore(db).dueVendors(Date.now(), 10)[0]?.endpointUrl,
        "https://api.status.io/1.0/status/5b36dc6502d06804c08349f7",
      );
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      db.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
