/**
 * A restart of the SQLite file keeps every stored row, and polling resumes with the stored
 * validators. Engine-specific: compares the tables row by row.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { fixedClock, MINUTE_MS, type Store } from "../../../domain/mod.ts";
import { statuspage } from "../../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../../ingest/mod.ts";
import { silentLogger } from "../../../log.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../../support/simulator.ts";
import { type Db, openStoreWithDb, rowsOf, tempPath } from "./_sqlite.ts";

const TABLES = [
  "vendors",
  "components",
  "incidents",
  "incident_updates",
  "transitions",
  "fetches",
  "changes",
];
const dump = (db: Db) => Object.fromEntries(TABLES.map((t) => [t, rowsOf(db, t)]));

Deno.test("a restart keeps every stored row, and polling resumes with the stored validators", async () => {
  const file = tempPath();
  const sim = startSimulator();
  const clock = fixedClock(Date.UTC(2026, 0, 1));
  const catalog = sim.catalog(3);
  const poller = (store: Store) =>
    createPoller({
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    }, {
      store: store.polls,
      clock,
      log: silentLogger,
      adapters: { statuspage },
      hostSpacingMs: 0,
    });
  try {
    const first = openStoreWithDb(file.path);
    await first.store.catalog.sync(catalog, clock.now());
    sim.setScenario(catalog[1]!.slug, "outage");
    await poller(first.store).runOnce();
    const before = dump(first.db);
    await first.store.close();

    const { db, store } = openStoreWithDb(file.path);
    try {
      await store.catalog.sync(catalog, clock.now());
      deepStrictEqual(dump(db), before);
      clock.advance(10 * MINUTE_MS);
      await poller(store).runOnce();
      const outcomes = await Promise.all(
        catalog.map(async (v) => (await store.history.fetchLog(v.slug, clock.now()))[0]?.outcome),
      );
      deepStrictEqual(outcomes, ["not_modified", "not_modified", "not_modified"]);
      equal(dump(db).transitions.length, before.transitions.length);
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
    file.remove();
  }
});
