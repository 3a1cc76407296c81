import { deepStrictEqual, equal } from "node:assert/strict";
import { fixedClock, MINUTE_MS } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { createChangeFeed, type Db, pollStore, syncCatalog } from "../../store/mod.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import { tempStore } from "../support/store.ts";

const TABLES = [
  "vendors",
  "components",
  "incidents",
  "incident_updates",
  "transitions",
  "fetches",
  "changes",
];
const dump = (db: Db) =>
  Object.fromEntries(
    TABLES.map((
      t,
    ) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all().map((r) => ({ ...r }))]),
  );

Deno.test("a restart keeps every stored row, and polling resumes with the stored validators", async () => {
  const store = tempStore();
  const sim = startSimulator();
  const clock = fixedClock(Date.UTC(2026, 0, 1));
  const catalog = sim.catalog(3);
  const poller = (db: Db) =>
    createPoller({
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    }, {
      store: pollStore(db),
      changes: createChangeFeed(),
      clock,
      log: silentLogger,
      adapters: { statuspage },
      hostSpacingMs: 0,
    });
  try {
    syncCatalog(store.db, catalog, clock.now());
    sim.setScenario(catalog[1]!.slug, "outage");
    await poller(store.db).runOnce();
    const before = dump(store.db);
    store.db.close();

    const db = store.reopen();
    syncCatalog(db, catalog, clock.now());
    deepStrictEqual(dump(db), before);
    clock.advance(10 * MINUTE_MS);
    await poller(db).runOnce();
    const outcomes = db.prepare("SELECT outcome FROM fetches WHERE at = ?").all(clock.now())
      .map((r) => r.outcome);
    deepStrictEqual(outcomes, ["not_modified", "not_modified", "not_modified"]);
    equal(dump(db).transitions.length, before.transitions.length);
    db.close();
  } finally {
    await sim.close();
    store.remove();
  }
});
