import { deepStrictEqual, equal } from "node:assert/strict";
import { migrate, openStore } from "../../store/mod.ts";
import { openDb } from "../../store/db.ts";
import { MIGRATIONS } from "../../store/migrations/mod.ts";
import { tempStore } from "../support/store.ts";

const tables = (db: ReturnType<typeof openDb>) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    .map((r) => r.name as string);

Deno.test("migrations on an empty database create every engine table and record each version", () => {
  const db = openDb(":memory:");
  try {
    deepStrictEqual(migrate(db), MIGRATIONS.map((m) => m.version));
    for (
      const t of [
        "vendors",
        "components",
        "incidents",
        "incident_updates",
        "transitions",
        "fetches",
        "changes",
      ]
    ) {
      equal(tables(db).includes(t), true, t);
    }
    const versions = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all()
      .map((r) => r.version);
    deepStrictEqual(versions, MIGRATIONS.map((m) => m.version));
  } finally {
    db.close();
  }
});

Deno.test("migrations on an existing database apply nothing twice and keep its rows", () => {
  const store = tempStore();
  try {
    store.db.prepare(
      "INSERT INTO vendors (slug, name, status_page_url, platform, category, provider) VALUES ('acme', 'Acme', 'https://status.acme.test', 'statuspage', 'other', 'acme')",
    ).run();
    store.db.close();
    const again = openStore(store.path);
    deepStrictEqual(migrate(again), []);
    equal((again.prepare("SELECT COUNT(*) AS n FROM vendors").get() as { n: number }).n, 1);
    again.close();
  } finally {
    store.remove();
  }
});

Deno.test("a database at an older version gets only the newer migrations", () => {
  const db = openDb(":memory:");
  try {
    deepStrictEqual(migrate(db, MIGRATIONS.slice(0, 1)), [1]);
    deepStrictEqual(migrate(db), MIGRATIONS.slice(1).map((m) => m.version));
  } finally {
    db.close();
  }
});
