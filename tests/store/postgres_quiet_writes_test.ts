/**
 * Pulses and not-modified reads finishing together share one statement on PostgreSQL
 * (store/postgres/quiet_writes.ts): each vendor's row, fetch log and latency summary end up as
 * if each had been written alone, and one that cannot be written rejects alone.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import postgres from "postgres";
import { latencyBucket, utcDayStart } from "../../domain/mod.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { writeTogether } from "../../store/postgres/quiet_writes.ts";
import { freshMigratedDatabase, postgresAvailable } from "../support/postgres.ts";
import { syncVendors, vendorOf } from "../support/seed.ts";

const T = Date.UTC(2026, 10, 29, 12);

Deno.test({
  name:
    "pulses and not-modified reads written together land as if written alone; a bad one fails alone",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  async fn() {
    const db = await freshMigratedDatabase();
    const store = await openPostgresStore(db.url, { instance: "a", poolSize: 2 });
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const slugs = Array.from({ length: 40 }, (_, n) => `v${String(n).padStart(2, "0")}`);
      await syncVendors(store, slugs.map((slug) => vendorOf({ slug })), T - 60_000);
      const ids = new Map(
        (await sql`SELECT id, slug FROM vendors`).map((r) => [String(r.slug), Number(r.id)]),
      );
      // A failure first, so each row's failure columns must be cleared by the quiet record.
      await store.polls.recordFailure(ids.get("v00")!, {
        at: T - 1000,
        latencyMs: 1,
        httpStatus: 500,
        nextPollAt: T,
        deadlineAt: T + 1000,
        outcome: "http_status",
        detail: "500",
        stale: false,
        platformMiss: false,
      });
      const poll = (n: number) => ({
        at: T + n,
        latencyMs: 10 + n,
        httpStatus: 200,
        nextPollAt: T + 60_000 + n,
        deadlineAt: T + 90_000 + n,
      });
      // The shared statement itself (no fallback) for the first 30 vendors...
      const record = (slug: string, n: number) => ({
        id: ids.get(slug)!,
        poll: n % 2 === 0 ? poll(n) : { ...poll(n), pulseFingerprint: `fp${n}` },
        full: n % 2 === 1,
      });
      await writeTogether(sql, slugs.slice(0, 30).map(record));
      // ...then through the store, finishing together, with one that cannot be written.
      const settled = await Promise.allSettled(
        slugs.slice(30).map((slug, k) => {
          const n = k + 30;
          const { id, poll: p, full } = record(slug, n);
          if (slug === "v39") return store.polls.recordPulse(id, { ...p, nextPollAt: NaN });
          return full ? store.polls.recordNotModified(id, p) : store.polls.recordPulse(id, p);
        }),
      );
      deepStrictEqual(
        settled.flatMap((s, k) => s.status === "rejected" ? [slugs[k + 30]] : []),
        ["v39"],
        "only the unwritable one rejects",
      );
      const rows = await sql`SELECT slug, failures, error_kind, last_success_at, next_poll_at,
          deadline_at, last_checked_at, pulse_fingerprint, last_full_at, lease_owner
        FROM vendors ORDER BY slug`;
      for (const [n, r] of rows.entries()) {
        if (r.slug === "v39") {
          equal(r.last_success_at, null, "nothing of the failed one was written");
          continue;
        }
        const full = n % 2 === 1;
        deepStrictEqual(
          [
            r.failures,
            r.error_kind,
            Number(r.last_success_at),
            Number(r.next_poll_at),
            Number(r.deadline_at),
            Number(r.last_checked_at),
            r.pulse_fingerprint,
            r.last_full_at === null ? null : Number(r.last_full_at),
            r.lease_owner,
          ],
          [
            0,
            null,
            T + n,
            T + 60_000 + n,
            T + 90_000 + n,
            T + n,
            full ? `fp${n}` : null,
            full ? T + n : null,
            null,
          ],
          String(r.slug),
        );
      }
      // Not-modified reads are logged; pulses are not. Every answered one is counted once.
      const logged = await sql`SELECT v.slug, f.outcome, f.latency_ms, f.http_status
        FROM fetches f JOIN vendors v ON v.id = f.vendor_id WHERE f.outcome = 'not_modified'
        ORDER BY v.slug`;
      deepStrictEqual(
        logged.map((r) => [r.slug, r.outcome, Number(r.latency_ms), r.http_status]),
        slugs.flatMap((s, n) =>
          n % 2 === 1 && s !== "v39" ? [[s, "not_modified", 10 + n, 200]] : []
        ),
      );
      const counts = await sql`SELECT v.slug, l.day, l.bucket, l.count
        FROM fetch_latency_days l JOIN vendors v ON v.id = l.vendor_id
        WHERE v.slug <> 'v00' OR l.bucket <> ${latencyBucket(1)} ORDER BY v.slug`;
      deepStrictEqual(
        counts.map((r) => [r.slug, Number(r.day), Number(r.bucket), Number(r.count)]),
        slugs.flatMap((s, n) =>
          s === "v39" ? [] : [[s, utcDayStart(T + n), latencyBucket(10 + n), 1]]
        ),
      );
    } finally {
      await sql.end();
      await store.close();
      await db.drop();
    }
  },
});
