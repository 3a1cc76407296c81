/**
 * `statusd admin copy-to-postgres`: a SQLite installation with history, incidents, an account
 * and a key is copied into an empty PostgreSQL database; afterwards the same uptime figures,
 * the same incidents and the same key work there. A database that already has rows is refused.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  authenticate,
  createAppContext,
  createKey,
  listIncidents,
  serviceUptime,
} from "../../app/mod.ts";
import { type AdminIo, runAdmin } from "../../cli/admin/mod.ts";
import { DAY_MS, fixedClock, HOUR_MS, type Store } from "../../domain/mod.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { account as testAccount } from "../support/accounts.ts";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";
import { addIncident, addTransitions, addVendor } from "../support/seed.ts";

const T0 = Date.UTC(2026, 10, 20, 12);

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: AdminIo = {
    stdin: () => Promise.resolve(""),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  };
  return { io: value, out, err };
}

function ctxOver(store: Store) {
  return createAppContext({
    store,
    clock: fixedClock(T0),
    log: silentLogger,
    settings: { publicUrl: "http://localhost", pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
}

Deno.test({
  name:
    "copy-to-postgres keeps history, uptime figures, incidents and keys; a non-empty target is refused",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "statusd.db");
    const db = await freshDatabase();
    try {
      const sqlite = openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS });
      await addVendor(sqlite, { slug: "acme", status: "OPERATIONAL" }, T0 - 30 * DAY_MS);
      await addVendor(sqlite, { slug: "zeta", status: "OPERATIONAL" }, T0 - 30 * DAY_MS);
      await addTransitions(sqlite, "acme", [
        [T0 - 10 * DAY_MS, "MAJOR_OUTAGE"],
        [T0 - 10 * DAY_MS + 3 * HOUR_MS, "OPERATIONAL"],
        [T0 - 2 * DAY_MS, "DEGRADED_PERFORMANCE"],
      ]);
      await addIncident(sqlite, "acme", {
        externalId: "inc-1",
        title: "Elevated errors",
        status: "INVESTIGATING",
        impact: "MINOR",
        startedAt: T0 - 2 * DAY_MS,
      }, T0 - 2 * DAY_MS);
      const ctx = ctxOver(sqlite);
      const { account } = await testAccount(ctx, "ops@example.com", "PRO");
      const { secret } = await createKey(ctx, { kind: "admin", account }, {
        name: "ci",
        scopes: ["status:read"],
      });
      const anyone = { kind: "anonymous" } as const;
      const uptimeBefore = await serviceUptime(ctx, anyone, "acme");
      const incidentsBefore = await listIncidents(ctx, {}, { page: 0, limit: 50 });
      await sqlite.close();

      const run = io();
      equal(
        await runAdmin(["copy-to-postgres", "--to", db.url], { STATUSD_DB: path }, run.io),
        0,
        run.err.join("\n"),
      );
      ok(run.out.includes("vendors\t2"), run.out.join("\n"));
      ok(run.out.includes("api_keys\t1"), run.out.join("\n"));
      match(run.out.at(-1)!, /the counts of every table match/);

      const pg = await openPostgresStore(db.url);
      try {
        const pgCtx = ctxOver(pg);
        deepStrictEqual(await serviceUptime(pgCtx, anyone, "acme"), uptimeBefore);
        deepStrictEqual(await listIncidents(pgCtx, {}, { page: 0, limit: 50 }), incidentsBefore);
        const who = await authenticate(pgCtx, secret);
        equal(who.kind, "api_key");
        // New rows get new ids after the copied ones (sequences moved past them).
        await addVendor(pg, { slug: "newco", status: "OPERATIONAL" }, T0);
      } finally {
        await pg.close();
      }

      const again = io();
      equal(
        await runAdmin(["copy-to-postgres", "--to", db.url], { STATUSD_DB: path }, again.io),
        1,
      );
      match(again.err.join("\n"), /not empty \(table vendors has rows\)/);
      ok(!again.err.join("\n").includes("postgres@"), "the URL's user and password are not shown");
    } finally {
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "copy-to-postgres refuses a SQLite table or column it would leave behind, and keeps nothing",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "statusd.db");
    const db = await freshDatabase();
    try {
      const sqlite = openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS });
      await addVendor(sqlite, { slug: "acme", status: "OPERATIONAL" }, T0);
      await sqlite.close();
      // A file shaped by another build of statusd: a table and a column PostgreSQL lacks.
      const raw = new DatabaseSync(path);
      raw.exec("CREATE TABLE alert_rules (id INTEGER PRIMARY KEY, name TEXT)");
      raw.exec("INSERT INTO alert_rules (name) VALUES ('pager')");
      raw.close();
      const copy = async () => {
        const run = io();
        const code = await runAdmin(
          ["copy-to-postgres", "--to", db.url],
          { STATUSD_DB: path },
          run.io,
        );
        return { code, out: run.out.join("\n"), err: run.err.join("\n") };
      };

      const table = await copy();
      equal(table.code, 1, table.out);
      match(table.err, /cannot copy \(alert_rules\): nothing was copied$/);

      const alter = new DatabaseSync(path);
      alter.exec("DROP TABLE alert_rules");
      alter.exec("ALTER TABLE vendors ADD COLUMN tier TEXT");
      alter.close();
      const column = await copy();
      equal(column.code, 1, column.out);
      match(column.err, /the two schemas differ \(no vendors\.tier in PostgreSQL\)/i);

      // Nothing was kept: once the file matches again, the same target is still empty.
      const back = new DatabaseSync(path);
      back.exec("ALTER TABLE vendors DROP COLUMN tier");
      back.close();
      const fine = await copy();
      equal(fine.code, 0, fine.err);
      ok(fine.out.includes("vendors\t1"), fine.out);
    } finally {
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "copy-to-postgres says in one line why it cannot reach the target (refused, unknown host, no such database), never the password",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "statusd.db");
    try {
      const sqlite = openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS });
      await addVendor(sqlite, { slug: "acme", status: "OPERATIONAL" }, T0);
      await sqlite.close();
      const copy = async (to: string) => {
        const run = io();
        const code = await runAdmin(["copy-to-postgres", "--to", to], { STATUSD_DB: path }, run.io);
        equal(code, 1, run.out.join("\n"));
        equal(run.err.length, 1, run.err.join("\n"));
        const line = run.err[0]!;
        equal(line.split("\n").length, 1, line);
        ok(!line.includes("hunter2"), "the password is never shown");
        return line;
      };
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (listener.addr as Deno.NetAddr).port;
      listener.close();
      equal(
        await copy(`postgres://statusd:hunter2@127.0.0.1:${port}/statusd`),
        `Cannot copy into 127.0.0.1:${port}: connection refused (is PostgreSQL running and listening there?)`,
      );
      equal(
        await copy("postgres://statusd:hunter2@db.invalid:5432/statusd"),
        "Cannot copy into db.invalid:5432: host not found",
      );
      if (postgresAvailable()) {
        const db = await freshDatabase();
        try {
          const missing = new URL(db.url);
          missing.pathname = "/statusd_no_such_database";
          missing.password = "hunter2";
          equal(await copy(missing.href), `Cannot copy into ${missing.host}: no such database`);
        } finally {
          await db.drop();
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
