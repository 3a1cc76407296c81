/**
 * The store conformance suite (tests/store/conformance/) on PostgreSQL: a fresh database per
 * case on the test rig's server (tests/support/postgres.ts). Where no PostgreSQL can be had the
 * cases are skipped with the reason printed, except in CI (`CI` set), where that is a failure.
 * @module
 */
import { openPostgresStore } from "../../store/postgres/mod.ts";
import {
  freshMigratedDatabase,
  postgresAvailable,
  type TestDatabase,
} from "../support/postgres.ts";
import { storeConformance } from "./conformance/mod.ts";

const available = postgresAvailable();
if (!available) {
  if (Deno.env.get("CI")) {
    Deno.test("store conformance (postgres): a PostgreSQL server for the suite", () => {
      throw new Error(
        "No PostgreSQL in CI: install Debian's postgresql (.ci/run does) or set STATUSD_TEST_DATABASE_URL",
      );
    });
  } else {
    console.warn(
      "store conformance (postgres) skipped: no initdb under /usr/lib/postgresql/*/bin and no STATUSD_TEST_DATABASE_URL",
    );
  }
}

storeConformance("postgres", async () => {
  const db: TestDatabase = await freshMigratedDatabase();
  const store = await openPostgresStore(db.url, { poolSize: 4 });
  return {
    ...store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}, { ignore: !available, pooled: true });
