/**
 * Re-detection: a vendor whose listed platform keeps missing (404 on the platform's endpoint,
 * a payload of another shape) five polls in a row is detected again, at most once a day; the
 * result is stored and the reading says so (REST `reading.redetection`).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  DAY_MS,
  fixedClock,
  REDETECT_AFTER_MISSES,
  REDETECT_EVERY_MS,
  type Store,
  type Vendor,
} from "../../domain/mod.ts";
import { ADAPTERS, createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { createAppContext } from "../../app/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { vendorState } from "../support/inspect.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const INSTATUS = Deno.readTextFileSync(
  new URL("../fixtures/instatus/recraft-summary-up-compact.json", import.meta.url),
);

async function setup(slug: string) {
  const sim = startSimulator();
  const db = memoryStore();
  const clock = fixedClock(T0);
  const vendor: Vendor = {
    name: "Mover",
    slug,
    statusPageUrl: `${sim.origins[0]}/v/${slug}`,
    platform: "statuspage",
    category: "devtools",
    provider: slug,
    domains: [],
  };
  await db.catalog.sync([vendor], T0);
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(db, clock, { adapters: ADAPTERS }),
  );
  /** Polls once when the vendor is next due (or now, if that is later). */
  const pollWhenDue = async () => {
    clock.set(Math.max(clock.now(), (await row(db, slug)).next_poll_at));
    await poller.runOnce();
  };
  /** `GET /api/services/{slug}` (a new app each time: no response cache between polls). */
  const service = async () => {
    const app = createServer({
      app: createAppContext({
        store: db,
        clock,
        log: silentLogger,
        settings: { publicUrl: "http://localhost", pollStableSeconds: 300, pollMovingSeconds: 60 },
      }),
    });
    return await (await app.request(`http://localhost/api/services/${slug}`)).json();
  };
  return {
    sim,
    db,
    clock,
    pollWhenDue,
    service,
    async close() {
      await poller.stop();
      await sim.close();
      await db.close();
    },
  };
}

/** What the store holds of a vendor's re-detection, as the old columns named it. */
async function row(db: Store, slug: string) {
  const v = await vendorState(db, slug);
  const r = v.reading.redetection;
  return {
    next_poll_at: v.nextPollAt,
    detected_platform: v.detectedPlatform,
    platform_misses: v.platformMisses,
    redetected_at: v.redetectedAt,
    redetected_from: r?.from ?? null,
    redetected_to: r?.to ?? null,
  };
}

function movedToInstatus(sim: Simulator, slug: string) {
  sim.setScenario(slug, "not_found");
  sim.setDocument(slug, "", {
    body:
      '<!doctype html><html><head><link rel="stylesheet" href="https://instatus-cdn.example/x.css">' +
      "</head><body>Status</body></html>",
    contentType: "text/html",
  });
  sim.setDocument(slug, "/summary.json", { body: INSTATUS, contentType: "application/json" });
}

Deno.test("a vendor whose listed platform keeps answering 404 is detected again and read", async () => {
  const r = await setup("mover");
  try {
    movedToInstatus(r.sim, "mover");
    for (let i = 1; i < REDETECT_AFTER_MISSES; i++) {
      await r.pollWhenDue();
      equal((await row(r.db, "mover")).platform_misses, i);
    }
    equal((await row(r.db, "mover")).detected_platform, null, "not before the fifth miss");
    equal((await r.service()).reading.redetection, null);

    await r.pollWhenDue();
    const after = await row(r.db, "mover");
    equal(after.detected_platform, "instatus");
    equal(after.redetected_from, "statuspage");
    equal(after.redetected_to, "instatus");
    equal(after.platform_misses, 0);
    const failing = await r.service();
    equal(failing.platform, "instatus");
    equal(failing.reading.state, "failing");
    equal(failing.reading.error.kind, "http_status");
    equal(failing.reading.error.httpStatus, 404);

    await r.pollWhenDue();
    const read = await r.service();
    equal(read.reading.state, "fresh");
    equal(read.currentStatus, "OPERATIONAL");
    deepStrictEqual(read.reading.redetection, {
      at: new Date(after.redetected_at!).toISOString(),
      from: "statuspage",
      to: "instatus",
    });
  } finally {
    await r.close();
  }
});

Deno.test("re-detection happens at most once a day", async () => {
  const r = await setup("gone");
  try {
    r.sim.setScenario("gone", "not_found"); // the page and every endpoint: 404
    for (let i = 0; i < REDETECT_AFTER_MISSES; i++) await r.pollWhenDue();
    const first = await row(r.db, "gone");
    ok(first.redetected_at !== null, "detected again after five misses");
    equal(first.redetected_to, "unknown", "nothing found");
    equal(first.detected_platform, null, "still read as its listed platform");
    equal((await r.service()).platform, "statuspage");

    // Many more misses the same day: one request per poll, no probing.
    const requests = r.sim.requests("gone");
    let polls = 0;
    while (r.clock.now() < first.redetected_at! + DAY_MS - 10 * 60_000) {
      await r.pollWhenDue();
      polls++;
    }
    ok(polls > 4 * REDETECT_AFTER_MISSES, `${polls} polls`);
    equal(r.sim.requests("gone"), requests + polls, "no detection probes within the day");
    equal((await row(r.db, "gone")).redetected_at, first.redetected_at);

    // A day later, the next miss detects again.
    r.clock.set(first.redetected_at! + REDETECT_EVERY_MS);
    await r.pollWhenDue();
    const second = await row(r.db, "gone");
    ok(second.redetected_at! >= first.redetected_at! + REDETECT_EVERY_MS, "detected again");
    ok(r.sim.requests("gone") > requests + polls + 1, "probes sent");
    equal(
      (await r.service()).reading.redetection.at,
      new Date(second.redetected_at!).toISOString(),
    );
  } finally {
    await r.close();
  }
});

Deno.test("other failures do not count toward re-detection", async () => {
  const r = await setup("flaky");
  try {
    r.sim.setScenario("flaky", "status_500");
    for (let i = 0; i < 2 * REDETECT_AFTER_MISSES; i++) await r.pollWhenDue();
    equal((await row(r.db, "flaky")).platform_misses, 0);
    equal((await row(r.db, "flaky")).redetected_at, null);
    r.sim.setScenario("flaky", "wrong_shape"); // a document of another shape: a miss
    await r.pollWhenDue();
    equal((await row(r.db, "flaky")).platform_misses, 1);
    r.sim.setScenario("flaky", "calm");
    await r.pollWhenDue();
    equal((await row(r.db, "flaky")).platform_misses, 0, "a success resets the count");
  } finally {
    await r.close();
  }
});
