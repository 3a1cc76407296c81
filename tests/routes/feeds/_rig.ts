/**
 * A statusd app (in process) whose store the real poller filled from the vendor simulator:
 * `outage-hub` (GitHub's recorded outage, an open incident), `calm-cloud`, and `db-host`
 * whose Statuspage summary carries a scheduled and an in-progress maintenance.
 * @module
 */
import { HOUR_MS, type Vendor } from "../../../domain/mod.ts";
import { createPoller } from "../../../ingest/mod.ts";
import { type ApiRig, apiRig, T0 } from "../../support/api.ts";
import { syncVendors } from "../../support/seed.ts";
import { type MaintenanceSpec, summaryWithMaintenances } from "../../support/maintenance.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../../support/simulator.ts";
import { testPollerDeps } from "../../support/poller.ts";

export { T0 };

/** The two maintenances `db-host` announces at first. */
export const DB_MAINTENANCES: MaintenanceSpec[] = [
  {
    id: "mnt-upgrade",
    name: "Database upgrade",
    status: "scheduled",
    startsAt: T0 + 2 * HOUR_MS,
    endsAt: T0 + 4 * HOUR_MS,
  },
  {
    id: "mnt-network",
    name: "Network maintenance",
    status: "in_progress",
    startsAt: T0 - HOUR_MS,
    endsAt: T0 + HOUR_MS,
  },
];

/** The rig: the app, the simulator and a way to poll again. */
export interface FeedRig extends ApiRig {
  readonly sim: Simulator;
  /** Serves these maintenances for `db-host` from now on. */
  setMaintenances(specs: readonly MaintenanceSpec[]): void;
  /** One more poll round. */
  poll(): Promise<void>;
}

/** Starts the rig (one poll round done). */
export async function feedRig(): Promise<FeedRig> {
  const base = apiRig();
  const sim = startSimulator();
  const vendor = (slug: string, name: string, provider = slug): Vendor => ({
    name,
    slug,
    statusPageUrl: `${sim.origins[0]}/v/${slug}`,
    platform: "statuspage",
    category: "devtools",
    provider,
    domains: [],
  });
  await syncVendors(base.store, [
    vendor("outage-hub", "Outage Hub"),
    vendor("calm-cloud", "Calm Cloud"),
    vendor("db-host", "DB Host", "dbco"),
  ], T0);
  sim.setScenario("outage-hub", "outage");
  const setMaintenances = (specs: readonly MaintenanceSpec[]) =>
    sim.setDocument("db-host", "/api/v2/summary.json", {
      body: summaryWithMaintenances(specs),
      contentType: "application/json",
    });
  setMaintenances(DB_MAINTENANCES);
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 5000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(base.store, base.clock),
  );
  await poller.runOnce();
  return {
    ...base,
    sim,
    setMaintenances,
    poll: async () => {
      base.clock.advance(10 * 60_000);
      await poller.runOnce();
    },
    close: async () => {
      await poller.stop();
      await sim.close();
      await base.store.close();
    },
  };
}
