/**
 * Migration 15 over a version-14 SQLite database: what an installation already had keeps working.
 * The addresses of its email routes are confirmed (their owner entered them before consent
 * existed), a route's failures and pause move to its health row, and a private board's slug moves
 * within its account while a public one keeps its address.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { migrate, MIGRATIONS, openDb, openStoreWithDb, tempPath } from "./_sqlite.ts";

const T = Date.UTC(2026, 10, 1);

Deno.test("migration 15 keeps existing email routes sending, route health and board addresses", async () => {
  const { path, remove } = tempPath();
  try {
    const old = openDb(path);
    migrate(old, MIGRATIONS.filter((m) => m.version <= 14));
    old.exec(
      `INSERT INTO accounts (id, name, plan, sla_target, created_at)
         VALUES ('a1', 'A', 'PRO', 99.9, ${T})`,
    );
    const doc = (kind: string, id: string, slug: string | null, body: unknown) =>
      old.prepare(
        `INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at, updated_at, version)
         VALUES (?, ?, 'a1', ?, ?, ${T}, ${T}, 1)`,
      ).run(kind, id, slug, JSON.stringify(body));
    doc("route", "rt_mail", null, {
      name: "mail",
      settings: { kind: "email", to: ["Ops@Example.com", "lead@example.com"] },
      paused: { since: T, reason: "5 deliveries in a row failed" },
      failuresInARow: 5,
    });
    doc("board", "brd_private", "stack", { title: "private", public: false, items: [] });
    doc("board", "brd_public", "open", { title: "public", public: true, items: [] });
    old.close();

    const { db, store } = openStoreWithDb(path);
    try {
      deepStrictEqual(
        [...await store.mail.consents("a1", ["ops@example.com", "lead@example.com", "x@y.z"])],
        [["ops@example.com", "confirmed"], ["lead@example.com", "confirmed"]],
      );
      const route = (await store.alertRoutes.get("a1", "rt_mail"))!;
      deepStrictEqual(
        [route.failuresInARow, route.paused],
        [5, { since: T, reason: "5 deliveries in a row failed" }],
      );
      const slugs = db.prepare("SELECT id, slug FROM account_docs WHERE kind = 'board' ORDER BY id")
        .all() as { id: string; slug: string }[];
      deepStrictEqual(slugs.map((r) => [r.id, r.slug]), [
        ["brd_private", "a1~stack"],
        ["brd_public", "open"],
      ]);
      equal((await store.boards.bySlug("open"))!.id, "brd_public");
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});
