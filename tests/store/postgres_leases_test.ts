/**
 * Poll leases between instances on one PostgreSQL (store/postgres/polls.ts `claimDue`): a due
 * vendor claimed by one instance is not claimed by another while the lease lasts; the holder
 * gets it back every round without its row being written again until half the lease is gone,
 * then the lease is renewed; once the holder stops renewing, another instance takes it.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import postgres from "postgres";
import { LEASE_MS } from "../../store/postgres/polls.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { freshMigratedDatabase, postgresAvailable } from "../support/postgres.ts";
import { syncVendors, vendorOf } from "../support/seed.ts";

const T = Date.UTC(2026, 10, 20, 12);

Deno.test({
  name:
    "a leased vendor stays with its instance, is renewed only past half its lease, then moves on",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  async fn() {
    const db = await freshMigratedDatabase();
    const a = await openPostgresStore(db.url, { instance: "a", poolSize: 2 });
    const b = await openPostgresStore(db.url, { instance: "b", poolSize: 2 });
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const leases = async () =>
      (await sql`SELECT slug, lease_owner, lease_until FROM vendors ORDER BY slug`).map((r) =>
        `${r.slug}:${r.lease_owner ?? "-"}:${Number(r.lease_until) - T}`
      );
    try {
      await syncVendors(a, ["x", "y", "z"].map((slug) => vendorOf({ slug })), T - 60_000);
      const slugs = (due: readonly { slug: string }[]) => due.map((v) => v.slug).sort();
      deepStrictEqual(slugs(await a.polls.claimDue(T, 10)), ["x", "y", "z"]);
      deepStrictEqual(await leases(), ["x:a:20000", "y:a:20000", "z:a:20000"]);
      equal((await b.polls.claimDue(T + 1_000, 10)).length, 0, "held by a");

      // a asks again within half a lease: the same vendors, rows untouched.
      deepStrictEqual(slugs(await a.polls.claimDue(T + 9_000, 10)), ["x", "y", "z"]);
      deepStrictEqual(await leases(), ["x:a:20000", "y:a:20000", "z:a:20000"]);
      // Past half of it: renewed from then.
      deepStrictEqual(slugs(await a.polls.claimDue(T + 11_000, 2)), ["x", "y"]);
      deepStrictEqual(await leases(), ["x:a:31000", "y:a:31000", "z:a:20000"]);

      // z's lease ran out: b takes it; x and y are still a's.
      deepStrictEqual(slugs(await b.polls.claimDue(T + 20_001, 10)), ["z"]);
      deepStrictEqual(await leases(), ["x:a:31000", "y:a:31000", `z:b:${20_001 + LEASE_MS}`]);
      // a stopped renewing: after its lease, b holds everything.
      deepStrictEqual(slugs(await b.polls.claimDue(T + 31_001, 10)), ["x", "y", "z"]);
      equal((await a.polls.claimDue(T + 31_002, 10)).length, 0);
    } finally {
      await sql.end();
      await a.close();
      await b.close();
      await db.drop();
    }
  },
});
