/**
 * `status gate` against a real statusd whose poller read the vendor simulator, run as a
 * subprocess: exit codes and what it says. The server's clock is fixed at 2026-11-20 12:00 UTC;
 * the gate measures `--within` from it (the API does), never from the machine's clock.
 *
 * Vendors: `calm-cloud` (all operational), `outage-hub` (GitHub's recorded outage: an open
 * incident), `soon-db` (a maintenance planned 12:45–14:00), `later-db` (one planned tomorrow),
 * `busy-db` (one in progress since 11:00), `dark-vendor` (its page answers 500: UNKNOWN).
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { DAY_MS, fixedClock, HOUR_MS, MINUTE_MS, type Vendor } from "../../domain/mod.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { summaryWithMaintenances } from "../support/maintenance.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import { runStatus, serveApi } from "../support/status_cli.ts";

const T0 = Date.UTC(2026, 10, 20, 12, 0);

async function startStatusd() {
  const sim = startSimulator();
  const vendor = (slug: string): Vendor => ({
    name: slug.split("-").map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" "),
    slug,
    statusPageUrl: `${sim.origins[0]}/v/${slug}`,
    platform: "statuspage",
    category: "devtools",
    provider: slug,
    domains: [],
  });
  const slugs = [
    "calm-cloud",
    "outage-hub",
    "soon-db",
    "later-db",
    "busy-db",
    "stuck-db",
    "dark-vendor",
  ];
  sim.setScenario("outage-hub", "outage");
  sim.setScenario("dark-vendor", "status_500");
  const summary = (body: string) => ({ body, contentType: "application/json" });
  sim.setDocument(
    "soon-db",
    "/api/v2/summary.json",
    summary(summaryWithMaintenances([{
      id: "soon1",
      name: "Database failover test",
      status: "scheduled",
      startsAt: T0 + 45 * MINUTE_MS,
      endsAt: T0 + 2 * HOUR_MS,
    }])),
  );
  sim.setDocument(
    "later-db",
    "/api/v2/summary.json",
    summary(summaryWithMaintenances([{
      id: "later1",
      status: "scheduled",
      startsAt: T0 + DAY_MS,
      endsAt: T0 + DAY_MS + HOUR_MS,
    }])),
  );
  sim.setDocument(
    "busy-db",
    "/api/v2/summary.json",
    summary(summaryWithMaintenances([{
      id: "busy1",
      name: "Storage upgrade",
      status: "in_progress",
      startsAt: T0 - HOUR_MS,
      endsAt: T0 + HOUR_MS,
    }])),
  );
  // Announced to end 8 days ago and never closed by the vendor.
  sim.setDocument(
    "stuck-db",
    "/api/v2/summary.json",
    summary(summaryWithMaintenances([{
      id: "stuck1",
      name: "Network migration",
      status: "in_progress",
      startsAt: T0 - 8 * DAY_MS - 2 * HOUR_MS,
      endsAt: T0 - 8 * DAY_MS,
    }])),
  );
  const clock = fixedClock(T0);
  const store = openSqliteStore(":memory:", { commitWindows: TEST_COMMIT_WINDOWS });
  await store.catalog.sync(slugs.map(vendor), clock.now());
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 5000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    { store: store.polls, clock, log: silentLogger, hostSpacingMs: 0 },
  );
  await poller.runOnce();
  const served = serveApi(store, clock);
  return {
    api: served.api,
    async close() {
      await poller.stop();
      await served.close();
      await sim.close();
      await store.close();
    },
  };
}

const status = (args: string[]) => runStatus(args);

Deno.test({
  name: "status gate: exit codes for incidents, maintenance in and out of the window, UNKNOWN",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const srv = await startStatusd();
    const gate = (...args: string[]) => status(["gate", "--api", srv.api, ...args]);
    try {
      await t.step("a calm vendor passes (0)", async () => {
        const r = await gate("calm-cloud", "--within", "2h");
        equal(r.code, 0, r.stderr);
        match(r.stdout, /ok: no open incident or maintenance within 2h/);
      });

      await t.step("an open incident blocks (1)", async () => {
        const r = await gate("calm-cloud", "outage-hub");
        equal(r.code, 1, r.stderr);
        match(r.stdout, /outage-hub .*BLOCK .*incident INVESTIGATING: Incident with Packages/);
        match(r.stdout, /BLOCK: outage-hub \(within 1h\)/);
      });

      await t.step(
        "a maintenance starting within the window blocks; outside it does not",
        async () => {
          const inside = await gate("soon-db", "--within", "1h");
          equal(inside.code, 1, inside.stderr);
          match(
            inside.stdout,
            /maintenance SCHEDULED 2026-11-20 12:45 to 2026-11-20 14:00 UTC: Database failover test/,
          );
          equal((await gate("soon-db", "--within", "30m")).code, 0);
          equal((await gate("later-db", "--within", "2h")).code, 0, "tomorrow is not within 2h");
          equal((await gate("later-db", "--within", "2d")).code, 1, "but it is within 2 days");
        },
      );

      await t.step("a maintenance in progress blocks whatever the window (1)", async () => {
        const r = await gate("busy-db", "--within", "1m", "--json");
        equal(r.code, 1);
        const out = JSON.parse(r.stdout);
        deepStrictEqual(
          { ok: out.ok, within: out.within, blockers: out.services[0].blockers },
          {
            ok: false,
            within: "1m",
            blockers: [{
              kind: "maintenance",
              title: "Storage upgrade",
              status: "IN_PROGRESS",
              startsAt: "2026-11-20T11:00:00.000Z",
              endsAt: "2026-11-20T13:00:00.000Z",
              overrunSeconds: null,
            }],
          },
        );
      });

      await t.step(
        "a maintenance past its announced end says it overran, and blocks unless told to ignore old overruns",
        async () => {
          const r = await gate("stuck-db");
          equal(r.code, 1, r.stderr);
          match(
            r.stdout,
            /maintenance IN_PROGRESS 2026-11-12 10:00 to 2026-11-12 12:00 UTC, overran by 8 d: Network migration/,
          );
          const json = JSON.parse((await gate("stuck-db", "--json")).stdout);
          equal(json.services[0].blockers[0].overrunSeconds, 8 * 86_400);
          equal((await gate("stuck-db", "--ignore-overrun-older-than", "1d")).code, 0);
          equal((await gate("stuck-db", "--ignore-overrun-older-than", "9d")).code, 1);
          // The API and the service page say the same.
          const detail = await (await fetch(`${srv.api}/api/services/stuck-db`)).json();
          deepStrictEqual(detail.incidents[0].overrun, {
            since: "2026-11-12T12:00:00.000Z",
            seconds: 8 * 86_400,
          });
          const page = await (await fetch(`${srv.api}/services/stuck-db`)).text();
          match(
            page,
            /open for 8 d 2 h, overran its announced end \(2026-11-12 12:00:00 UTC\) by 8 d/,
          );
          const bad = await gate("stuck-db", "--ignore-overrun-older-than", "later");
          equal(bad.code, 2);
          match(bad.stderr, /--ignore-overrun-older-than: "later" is not a duration/);
        },
      );

      await t.step("UNKNOWN blocks unless --allow-unknown", async () => {
        equal((await gate("dark-vendor")).code, 1);
        equal((await gate("dark-vendor", "--allow-unknown")).code, 0);
      });

      await t.step(
        "usage errors and unknown vendors exit 2; an unreachable API exits 3",
        async () => {
          const bad = await gate("calm-cloud", "--within", "soon");
          equal(bad.code, 2);
          match(bad.stderr, /Cannot use --within: "soon" is not a duration/);
          equal((await status(["gate", "--api", srv.api])).code, 2, "no slug");
          const unknown = await gate("calm-clod");
          equal(unknown.code, 2);
          match(unknown.stderr, /Unknown vendor "calm-clod": did you mean "calm-cloud"\?/);
          const down = await status(["gate", "--api", "http://127.0.0.1:1", "calm-cloud"]);
          equal(down.code, 3);
          match(down.stderr, /Cannot reach the statusd API/);
        },
      );
    } finally {
      await srv.close();
    }
  },
});
