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
import { type Change, fixedClock, type Store, type Vendor } from "../../domain/mod.ts";
import { statusio } from "../../ingest/adapters/statusio.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { fixture } from "../support/adapters.ts";
import { fetchOutcomes, lastError, vendorState } from "../support/inspect.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore, tempStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

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

function poller(db: Store, clock: ReturnType<typeof fixedClock>, published: Change[] = []) {
  db.changes.subscribe((c) => published.push(...c));
  return createPoller(CONFIG, testPollerDeps(db, clock, { adapters: { statusio, statuspage } }));
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

/** What the store holds of a vendor, as the old columns named it. */
async function row(db: Store, slug: string) {
  const v = await vendorState(db, slug);
  return {
    current_status: v.currentStatus,
    endpoint_url: v.endpointUrl,
    failures: v.failures,
    last_error: await lastError(db, slug),
    next_poll_at: v.nextPollAt,
  };
}

const outcomes = fetchOutcomes;

Deno.test("a status.io vendor without a page id: the page is read once, its API stored and polled", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const published: Change[] = [];
  const p = poller(db, clock, published);
  try {
    await db.catalog.sync([statusioVendor(sim, "gl")], clock.now());
    serveStatusio(sim, "gl");
    const report = await p.runOnce();
    deepStrictEqual(report, { polled: 1, failed: 0, changes: report.changes });
    const stored = await row(db, "gl");
    equal(stored.current_status, "MAJOR_OUTAGE", "the data came from the discovered API");
    equal(stored.endpoint_url, `${sim.origins[0]}/v/gl${API_PATH}`);
    equal(sim.requests("gl"), 2, "the page, then the API, in the same round");
    ok(published.some((c) => c.kind === "status" && c.slug === "gl" && c.to === "MAJOR_OUTAGE"));
    ok((await db.catalog.detail("gl", { start: T0, end: T0 + 1 }, 0))!.components.length > 0);

    clock.set(stored.next_poll_at);
    await p.runOnce();
    equal(sim.requests("gl"), 3, "later polls go straight to the stored API");
    deepStrictEqual(await outcomes(db, "gl"), ["ok", "not_modified"]);
  } finally {
    await p.stop();
    await sim.close();
    await db.close();
  }
});

Deno.test("a page that names no endpoint, or does not load, fails with a clear reason and backs off alone", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const p = poller(db, clock);
  try {
    const healthy = sim.catalog(1, "healthy");
    await db.catalog.sync(
      [...healthy, statusioVendor(sim, "noid"), statusioVendor(sim, "down")],
      clock.now(),
    );
    sim.setDocument("noid", "", html("<html><body>Welcome to our status page</body></html>"));
    sim.setScenario("down", "status_500");
    const report = await p.runOnce();
    equal(report.failed, 2);
    equal(
      (await row(db, healthy[0]!.slug)).current_status,
      "OPERATIONAL",
      "the others are unaffected",
    );

    const noid = await row(db, "noid");
    equal(noid.failures, 1);
    equal(
      noid.last_error,
      `bad_payload: endpoint discovery: ${sim.origins[0]}/v/noid names no statusio data endpoint`,
    );
    equal(noid.endpoint_url, null);
    equal(noid.current_status, "UNKNOWN");
    ok(noid.next_poll_at > T0);
    const down = await row(db, "down");
    ok(
      down.last_error?.startsWith("http_status: endpoint discovery: the status page did not load"),
    );
    deepStrictEqual(await outcomes(db, "down"), ["http_status"]);

    // A second failure waits longer; once the page names its API, the vendor is read.
    const firstWait = noid.next_poll_at - T0;
    clock.set(noid.next_poll_at);
    await p.runOnce();
    ok((await row(db, "noid")).next_poll_at - clock.now() > firstWait, "backoff grows");
    serveStatusio(sim, "noid");
    clock.set((await row(db, "noid")).next_poll_at);
    await p.runOnce();
    equal((await row(db, "noid")).current_status, "MAJOR_OUTAGE");
    equal((await row(db, "noid")).failures, 0);
  } finally {
    await p.stop();
    await sim.close();
    await db.close();
  }
});

Deno.test("a discovered API that is gone (404) is discovered again from the page", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const p = poller(db, clock);
  try {
    await db.catalog.sync([statusioVendor(sim, "moved")], clock.now());
    serveStatusio(sim, "moved");
    await p.runOnce();
    const movedId = "5f0c9a3b2e1d4c5b6a798877";
    const newApi = `${sim.origins[0]}/v/moved/1.0/status/${movedId}`;
    sim.setDocument("moved", API_PATH, { ...json("{}"), status: 404 });
    sim.setDocument("moved", "", html(page(newApi)));
    sim.setDocument("moved", `/1.0/status/${movedId}`, json(DISRUPTION));

    clock.set((await row(db, "moved")).next_poll_at);
    await p.runOnce();
    equal((await row(db, "moved")).endpoint_url, null, "forgotten after the 404");
    ok((await row(db, "moved")).last_error?.startsWith("http_status:"));
    clock.set((await row(db, "moved")).next_poll_at);
    await p.runOnce();
    equal((await row(db, "moved")).endpoint_url, newApi);
    equal((await row(db, "moved")).failures, 0);
  } finally {
    await p.stop();
    await sim.close();
    await db.close();
  }
});

Deno.test("the discovered endpoint survives a restart; a catalog change of the page URL clears it", async () => {
  const file = tempStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  let db = file.store;
  try {
    const vendor = statusioVendor(sim, "kept");
    await db.catalog.sync([vendor], clock.now());
    serveStatusio(sim, "kept");
    const first = poller(db, clock);
    await first.runOnce();
    await first.stop();
    const endpoint = (await row(db, "kept")).endpoint_url;
    ok(endpoint);
    await db.close();

    db = file.reopen();
    await db.catalog.sync([vendor], clock.now());
    equal((await row(db, "kept")).endpoint_url, endpoint, "same catalog entry: kept");
    const before = sim.requests("kept");
    const second = poller(db, clock);
    clock.set((await row(db, "kept")).next_poll_at);
    await second.runOnce();
    await second.stop();
    equal(sim.requests("kept"), before + 1, "no second read of the page");

    await db.catalog.sync([{ ...vendor, statusPageUrl: `${vendor.statusPageUrl}/` }], clock.now());
    equal((await row(db, "kept")).endpoint_url, null, "a new page URL is discovered again");
    await db.catalog.sync([vendor], clock.now());
    await db.polls.setEndpoint((await vendorState(db, "kept")).id, "https://api.status.io/x");
    await db.catalog.sync([{ ...vendor, platform: "statuspage" }], clock.now());
    equal((await row(db, "kept")).endpoint_url, null, "a new platform too");
  } finally {
    await db.close();
    await sim.close();
    file.remove();
  }
});
