/**
 * Child process of crash_test.ts: polls the simulator (origin in argv) into the database file
 * (argv) in back-to-back rounds, printing the ids of committed changes as they are published.
 * The test kills it with SIGKILL mid-round.
 * @module
 */
import { fixedClock, MINUTE_MS } from "../../../domain/mod.ts";
import { statuspage } from "../../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../../ingest/mod.ts";
import { silentLogger } from "../../../log.ts";
import { openSqliteStore } from "../../../store/mod.ts";
import { ALLOW_SIMULATOR, simulatedCatalog } from "../../support/simulator.ts";

const [path, origin, count] = Deno.args;
const store = openSqliteStore(path!);
const clock = fixedClock(Date.UTC(2026, 0, 1));
await store.catalog.sync(simulatedCatalog([origin!], Number(count)), clock.now());
store.changes.subscribe((committed) => console.log(JSON.stringify(committed.map((c) => c.id))));
const poller = createPoller(
  {
    movingSeconds: 60,
    stableSeconds: 300,
    concurrency: 8,
    timeoutMs: 2000,
    allowPrivate: ALLOW_SIMULATOR,
  },
  {
    store: store.polls,
    clock,
    log: silentLogger,
    adapters: { statuspage },
    hostSpacingMs: 0,
  },
);
for (;;) {
  clock.advance(10 * MINUTE_MS);
  await poller.runOnce();
}
