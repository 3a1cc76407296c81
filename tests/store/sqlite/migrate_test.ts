/**
 * The SQLite migration runner: every engine table on an empty file, nothing twice, any missing
 * version applied (not only versions above the highest), and processes starting at once
 * migrate the file once between them (BEGIN IMMEDIATE around the check and the work).
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  type Db,
  migrate,
  type Migration,
  MIGRATIONS,
  openDb,
  openStoreWithDb,
  tempPath,
} from "./_sqlite.ts";

const tables = (db: Db) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    .map((r) => r.name as string);
const versions = (db: Db) =>
  db.prepare("SELECT version FROM schema_migrations ORDER BY version").all().map((r) =>
    Number(r.version)
  );

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
        "accounts",
        "members",
        "sessions",
        "api_keys",
        "oauth_clients",
        "oauth_grants",
        "oauth_codes",
        "oauth_tokens",
      ]
    ) {
      equal(tables(db).includes(t), true, t);
    }
    deepStrictEqual(versions(db), MIGRATIONS.map((m) => m.version));
  } finally {
    db.close();
  }
});

Deno.test("migrations on an existing database apply nothing twice and keep its rows", async () => {
  const file = tempPath();
  try {
    const first = openStoreWithDb(file.path);
    await first.store.catalog.sync([{
      name: "Acme",
      slug: "acme",
      statusPageUrl: "https://status.acme.test",
      platform: "statuspage",
      category: "other",
      provider: "acme",
      domains: [],
    }], 1);
    await first.store.close();
    const again = openStoreWithDb(file.path);
    deepStrictEqual(migrate(again.db), []);
    equal((await again.store.catalog.service("acme"))?.name, "Acme");
    await again.store.close();
  } finally {
    file.remove();
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

Deno.test("a version missing below the highest applied is applied too", () => {
  const db = openDb(":memory:");
  try {
    const extra: Migration = {
      version: 7,
      name: "late_arrival",
      sql: "CREATE TABLE late_arrival (id INTEGER PRIMARY KEY);",
    };
    migrate(db);
    deepStrictEqual(migrate(db, [...MIGRATIONS, extra]), [7]);
    equal(tables(db).includes("late_arrival"), true);
    deepStrictEqual(versions(db), [...MIGRATIONS.map((m) => m.version), 7].sort((a, b) => a - b));
  } finally {
    db.close();
  }
});

Deno.test("a failing migration applies nothing of the run", () => {
  const db = openDb(":memory:");
  try {
    const broken: Migration = { version: 99, name: "broken", sql: "CREATE TABLE nope (;" };
    let failed = false;
    try {
      migrate(db, [...MIGRATIONS, broken]);
    } catch {
      failed = true;
    }
    equal(failed, true);
    deepStrictEqual(tables(db), [], "not even the version table");
  } finally {
    db.close();
  }
});

Deno.test("four processes opening a new database at the same moment migrate it once", async () => {
  const file = tempPath();
  try {
    const at = Date.now() + 1500;
    const children = Array.from({ length: 4 }, () =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("./_migrate_child.ts", import.meta.url).pathname,
          file.path,
          String(at),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output());
    const outputs = await Promise.all(children);
    for (const o of outputs) equal(o.code, 0, new TextDecoder().decode(o.stderr));
    const applied = outputs.map((o) => JSON.parse(new TextDecoder().decode(o.stdout)) as number[]);
    deepStrictEqual(
      applied.flat().sort((a, b) => a - b),
      MIGRATIONS.map((m) => m.version),
      "every version applied by exactly one of them",
    );
    const db = openDb(file.path);
    deepStrictEqual(versions(db), MIGRATIONS.map((m) => m.version));
    db.close();
  } finally {
    file.remove();
  }
});
