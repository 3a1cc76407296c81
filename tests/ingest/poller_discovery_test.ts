/**
 * Endpoint discovery end to end: a status.io vendor whose catalog URL carries no page id is
 * served by the simulator as a status page (HTML) that links to its API, and the recorded
 * status.io JSON at that API path.
 *
 * No real status.io page HTML is recorded (tests/fixtures, shared/fixtures): the pages below are
 * built for these tests from the documented embed (FORMATS.md §4,
 * `https://api.status.io/1.0/status/<id>`). They link to the API on the page's own origin
 * (the simulator on loopback) instead of api.status.io: discovery keeps a same-origin API URL
 * as written (custom domains serve the API themselves), which is what lets a test point it at
 * the simulator; any other host would only lend its id to api.status.io.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { type Change, fixedClock, type Vendor } from "../../domain/mod.ts";
import { statusio } from "../../ingest/adapters/statusio.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { createChangeFeed, type Db, pollStore, syncCatalog } from "../../store/mod.ts";
import { fixture } from "../support/adapters.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore, tempStore } from "../support/store.ts";

const T0 = Date.UTC(2026, 4, 21, 12);
const CONFIG = {
  enabled: true,
  movingSeconds: 60,
  stableSeconds: 300,
  concurrency: 4,
  timeoutMs: 1000,
  allowPrivate: ALLOW_SIMULATOR,
};
const ID = "566925105401bb333d000014";
const API_PATH = `/1.0/status/${ID}`;
const DISRUPTION = fixture("statusio", "nintex-status-service-disruption-no-incidents-key.json");

/** A status page that embeds its API URL in a script, as status.io pages do. */
const page = (apiUrl: string) =>
  `<!DOCTYPE html><html><head><title>Status</title>
<script src="${apiUrl}?callback=render"></script></head><body><div id="status"></div></body></html>`;
const html = (body: string) => ({ body, contentType: "text/html; charset=utf-8" });
const json = (body: string) => ({ body, contentType: "application/json" });

function poller(db: Db, clock: ReturnType<typeof fixedClock>, published: Change[] = []) {
  const changes = createChangeFeed();
  changes.subscribe((c) => published.push(...c));
  return createPoller(CONFIG, {
    store: pollStore(db),
    changes,
    clock,
    log: silentLogger,
    adapters: { statusio, statuspage },
    hostSpacingMs: 0,
    random: () => 0.5,
  });
}

/** A status.io catalog entry at the simulator, with no page id in its URL. */
function statusioVendor(sim: Simulator, slug: string): Vendor {
  const [entry] = sim.catalog(1, slug);
  return { ...entry!, slug, statusPageUrl: `${sim.origins[0]}/v/${slug}`, platform: "statusio" };
}

/** Serves a page linking to the API on the simulator, and the recorded API answer there. */
function serveStatusio(sim: Simulator, slug: string) {
  sim.setDocument(slug, "", html(page(`${sim.origins[0]}/v/${slug}${API_PATH}`)));
  sim.setDocument(slug, API_PATH, json(DISRUPTION));
}

function row(db: Db, slug: string) {
  return {
    ...db.prepare(
      "SELECT current_status, endpoint_url, failures, last_error, next_poll_at FROM vendors WHERE slug = ?",
    ).get(slug),
  } as {
    current_status: string;
    endpoint_url: string | null;
    failures: number;
    last_error: string | null;
    next_poll_at: number;
  };
}

const outcomes = (db: Db, slug: string) =>
  db.prepare(
    "SELECT f.outcome FROM fetches f JOIN vendors v ON v.id = f.vendor_id WHERE v.slug = ? ORDER BY f.id",
  ).all(slug).map((r) => r.outcome);

Deno.test("a status.io vendor without a page id: the page is read once, its API stored and polled", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const published: Change[] = [];
  const p = poller(db, clock, published);
  try {
    syncCatalog(db, [statusioVendor(sim, "gl")], clock.now());
    serveStatusio(sim, "gl");
    const report = await p.runOnce();
    deepStrictEqual(report, { polled: 1, failed: 0, changes: report.changes });
    const stored = row(db, "gl");
    equal(stored.current_status, "MAJOR_OUTAGE", "the data came from the discovered API");
    equal(stored.endpoint_url, `${sim.origins[0]}/v/gl${API_PATH}`);
    equal(sim.requests("gl"), 2, "the page, then the API, in the same round");
    ok(published.some((c) => c.kind === "status" && c.slug === "gl" && c.to === "MAJOR_OUTAGE"));
    const components = db.prepare(
      "SELECT COUNT(*) AS n FROM components c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = 'gl'",
    ).get() as { n: number };
    ok(components.n > 0);

    clock.set(stored.next_poll_at);
    await p.runOnce();
    equal(sim.requests("gl"), 3, "later polls go straight to the stored API");
    deepStrictEqual(outcomes(db, "gl"), ["ok", "not_modified"]);
  } finally {
    await p.stop();
    await sim.close();
    db.close();
  }
});

Deno.test("a page that names no endpoint, or does not load, fails with a clear reason and backs off alone", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const p = poller(db, clock);
  try {
    const healthy = sim.catalog(1, "healthy");
    syncCatalog(
      db,
      [...healthy, statusioVendor(sim, "noid"), statusioVendor(sim, "down")],
      clock.now(),
    );
    sim.setDocument("noid", "", html("<html><body>Welcome to our status page</body></html>"));
    sim.setScenario("down", "status_500");
    const report = await p.runOnce();
    equal(report.failed, 2);
    equal(row(db, healthy[0]!.slug).current_status, "OPERATIONAL", "the others are unaffected");

    const noid = row(db, "noid");
    equal(noid.failures, 1);
    equal(
      noid.last_error,
      `bad_payload: endpoint discovery: ${sim.origins[0]}/v/noid names no statusio data endpoint`,
    );
    equal(noid.endpoint_url, null);
    equal(noid.current_status, "UNKNOWN");
    ok(noid.next_poll_at > T0);
    const down = row(db, "down");
    ok(
      down.last_error?.startsWith("http_status: endpoint discovery: the status page did not load"),
    );
    deepStrictEqual(outcomes(db, "down"), ["http_status"]);

    // A second failure waits longer; once the page names its API, the vendor is read.
    const firstWait = noid.next_poll_at - T0;
    clock.set(noid.next_poll_at);
    await p.runOnce();
    ok(row(db, "noid").next_poll_at - clock.now() > firstWait, "backoff grows");
    serveStatusio(sim, "noid");
    clock.set(row(db, "noid").next_poll_at);
    await p.runOnce();
    equal(row(db, "noid").current_status, "MAJOR_OUTAGE");
    equal(row(db, "noid").failures, 0);
  } finally {
    await p.stop();
    await sim.close();
    db.close();
  }
});

Deno.test("a discovered API that is gone (404) is discovered again from the page", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const p = poller(db, clock);
  try {
    syncCatalog(db, [statusioVendor(sim, "moved")], clock.now());
    serveStatusio(sim, "moved");
    await p.runOnce();
    const movedId = "5f0c9a3b2e1d4c5b6a798877";
    const newApi = `${sim.origins[0]}/v/moved/1.0/status/${movedId}`;
    sim.setDocument("moved", API_PATH, { ...json("{}"), status: 404 });
    sim.setDocument("moved", "", html(page(newApi)));
    sim.setDocument("moved", `/1.0/status/${movedId}`, json(DISRUPTION));

    clock.set(row(db, "moved").next_poll_at);
    await p.runOnce();
    equal(row(db, "moved").endpoint_url, null, "forgotten after the 404");
    ok(row(db, "moved").last_error?.startsWith("http_status:"));
    clock.set(row(db, "moved").next_poll_at);
    await p.runOnce();
    equal(row(db, "moved").endpoint_url, newApi);
    equal(row(db, "moved").failures, 0);
  } finally {
    await p.stop();
    await sim.close();
    db.close();
  }
});

Deno.test("the discovered endpoint survives a restart; a catalog change of the page URL clears it", async () => {
  const store = tempStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  let db = store.db;
  try {
    const vendor = statusioVendor(sim, "kept");
    syncCatalog(db, [vendor], clock.now());
    serveStatusio(sim, "kept");
    const first = poller(db, clock);
    await first.runOnce();
    await first.stop();
    const endpoint = row(db, "kept").endpoint_url;
    ok(endpoint);
    db.close();

    db = store.reopen();
    syncCatalog(db, [vendor], clock.now());
    equal(row(db, "kept").endpoint_url, endpoint, "same catalog entry: kept");
    const before = sim.requests("kept");
    const second = poller(db, clock);
    clock.set(row(db, "kept").next_poll_at);
    await second.runOnce();
    await second.stop();
    equal(sim.requests("kept"), before + 1, "no second read of the page");

    syncCatalog(db, [{ ...vendor, statusPageUrl: `${vendor.statusPageUrl}/` }], clock.now());
    equal(row(db, "kept").endpoint_url, null, "a new page URL is discovered again");
    syncCatalog(db, [vendor], clock.now());
    db.prepare("UPDATE vendors SET endpoint_url = 'https://api.status.io/x' WHERE slug = 'kept'")
      .run();
    syncCatalog(db, [{ ...vendor, platform: "statuspage" }], clock.now());
    equal(row(db, "kept").endpoint_url, null, "a new platform too");
  } finally {
    db.close();
    await sim.close();
    store.remove();
  }
});
