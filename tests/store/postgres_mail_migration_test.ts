/**
 * PostgreSQL's migration 9 over a version-8 database, as SQLite's 15: existing email routes'
 * addresses are confirmed, a route's failures and pause move to its health row, and a private
 * board's slug moves within its account.
 */
import { deepStrictEqual } from "node:assert/strict";
import postgres from "postgres";
import { MIGRATIONS } from "../../store/postgres/migrations/mod.ts";
import { migrate } from "../../store/postgres/migrate.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";

const T = Date.UTC(2026, 10, 1);

Deno.test({
  name: "PostgreSQL migration 9 keeps existing email routes sending, route health and board slugs",
  ignore: !postgresAvailable(),
  async fn() {
    const db = await freshDatabase();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      await migrate(sql, MIGRATIONS.filter((m) => m.version <= 8));
      await sql`INSERT INTO accounts (id, name, plan, sla_target, created_at)
        VALUES ('a1', 'A', 'PRO', 99.9, ${T})`;
      const doc = (kind: string, id: string, slug: string | null, body: unknown) =>
        sql`INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at, updated_at,
            version) VALUES (${kind}, ${id}, 'a1', ${slug}, ${
          JSON.stringify(body)
        }, ${T}, ${T}, 1)`;
      await doc("route", "rt_mail", null, {
        name: "mail",
        settings: { kind: "email", to: ["Ops@Example.com"] },
        paused: { since: T, reason: "5 failed" },
        failuresInARow: 5,
      });
      await doc("board", "brd_private", "stack", { title: "p", public: false, items: [] });
      await sql.end();
      const store = await openPostgresStore(db.url, { poolSize: 2 });
      try {
        deepStrictEqual([...await store.mail.consents("a1", ["ops@example.com"])], [[
          "ops@example.com",
          "confirmed",
        ]]);
        const route = (await store.alertRoutes.get("a1", "rt_mail"))!;
        deepStrictEqual([route.failuresInARow, route.paused], [5, {
          since: T,
          reason: "5 failed",
        }]);
        deepStrictEqual((await store.boards.get("a1", "brd_private"))!.slug, "a1~stack");
      } finally {
        await store.close();
      }
    } finally {
      await sql.end().catch(() => {});
      await db.drop();
    }
  },
});
