/**
 * Migration 9 (issue #15) over a version-8 SQLite database: the latency summary starts with the
 * answered fetches already logged, bucketed exactly as domain/latency.ts buckets them, so SLA
 * reports read the same latency figures before and after.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { DAY_MS, histogramOf, LATENCY_BUCKET_FLOORS, latencyBucket } from "../../../domain/mod.ts";
import { migrate, MIGRATIONS, openDb, openStoreWithDb, tempPath } from "./_sqlite.ts";

const T = Date.UTC(2026, 2, 1, 12);
const sorted = (h: ReadonlyMap<number, number>) => [...h].sort((x, y) => x[0] - y[0]);

Deno.test("migration 9 counts the logged answered fetches into the latency summary", async () => {
  const { path, remove } = tempPath();
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 8)), [1, 2, 3, 4, 5, 6, 8]);
    old.exec(
      `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider)
         VALUES ('acme', 'Acme', 'https://status.acme.test', 'statuspage', 'other', 'acme')`,
    );
    // Known latencies, on every bucket bound and beside it, over two days; failures too.
    const answered = [
      0,
      0.5,
      ...LATENCY_BUCKET_FLOORS.slice(1).flatMap((f) => [f, f * 0.999, f * 1.001]),
      250,
      250,
      99_999_999,
    ];
    const insert = old.prepare(
      "INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status) VALUES (1, ?, ?, ?, ?)",
    );
    answered.forEach((ms, i) =>
      insert.run(T - (i % 2) * DAY_MS, ms, i % 3 ? "ok" : "not_modified", 200)
    );
    insert.run(T, 10_000, "timeout", null);
    insert.run(T, 5, "http_status", 500);
    old.close();

    const { db, store } = openStoreWithDb(path);
    try {
      // Every row is in the bucket the running code gives it.
      const rows = db.prepare(
        "SELECT f.latency_ms AS ms, d.bucket FROM fetches f JOIN fetch_latency_days d ON " +
          "d.vendor_id = f.vendor_id AND d.day = f.at - (f.at % 86400000) " +
          "WHERE f.outcome IN ('ok', 'not_modified')",
      ).all() as { ms: number; bucket: number }[];
      const buckets = new Map<number, Set<number>>();
      for (const r of rows) buckets.set(r.ms, (buckets.get(r.ms) ?? new Set()).add(r.bucket));
      for (const ms of answered) ok(buckets.get(ms)?.has(latencyBucket(ms)), `${ms} ms`);
      const window = { start: T - DAY_MS, end: T };
      const sla = (await store.history.slaInputs("acme", window, window))!;
      deepStrictEqual(sorted(sla.latency), sorted(histogramOf(answered)));
      equal(
        [...sla.latency.values()].reduce((a, b) => a + b, 0),
        answered.length,
        "failures are not latencies",
      );
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});
