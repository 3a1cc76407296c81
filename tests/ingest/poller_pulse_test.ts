/**
 * Pulses (issue #15): a calm vendor is watched by its platform's cheapest honest signal between
 * full reads, against the simulator with a fake clock.
 */
import { equal, notEqual, ok } from "node:assert/strict";
import { type Change, fixedClock, SECOND_MS, type Store } from "../../domain/mod.ts";
import { createPoller } from "../../ingest/mod.ts";
import { vendorState } from "../support/inspect.ts";
import { syncVendors } from "../support/seed.ts";
import {
  SIMULATED_PLATFORM_NAMES,
  SIMULATED_PLATFORMS,
  simulatedAdapters,
  type SimulatedPlatformName,
} from "../support/platform_docs.ts";
import {
  ALLOW_SIMULATOR,
  RATE_LIMIT_RETRY_AFTER_S,
  type Simulator,
  startSimulator,
} from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 10, 2, 12);
const CONFIG = {
  movingSeconds: 60,
  stableSeconds: 300,
  pulseSeconds: 60,
  concurrency: 8,
  timeoutMs: 2000,
  allowPrivate: ALLOW_SIMULATOR,
};

interface Rig {
  store: Store;
  sim: Simulator;
  clock: ReturnType<typeof fixedClock>;
  published: Change[];
  poller: ReturnType<typeof createPoller>;
  slugs: string[];
  /** Advances the clock by `seconds` and runs one round. */
  step(seconds: number): Promise<void>;
  /** Stops the poller, the simulator and the store (at the end of an `await using` scope). */
  [Symbol.asyncDispose](): Promise<void>;
}

async function rig(
  platforms: SimulatedPlatformName[],
  options: { listeners?: number; pulseSeconds?: number } = {},
): Promise<Rig> {
  const store = memoryStore();
  const sim = startSimulator({ listeners: options.listeners ?? 1 });
  const clock = fixedClock(T0);
  // One vendor per platform, named after it, spread over the listeners.
  const vendors = platforms.map((p, i) => sim.catalog(platforms.length, p, p)[i]!);
  await syncVendors(store, vendors, clock.now());
  const published: Change[] = [];
  store.changes.subscribe((c) => published.push(...c));
  const poller = pollerOver(store, clock, options.pulseSeconds);
  return {
    store,
    sim,
    clock,
    published,
    poller,
    slugs: vendors.map((v) => v.slug),
    async step(seconds) {
      clock.advance(seconds * SECOND_MS);
      await poller.runOnce();
    },
    async [Symbol.asyncDispose]() {
      await poller.stop();
      await sim.close();
      await store.close();
    },
  };
}

/** A poller over `store` with its own memory, as another instance or a restarted process has. */
function pollerOver(store: Store, clock: ReturnType<typeof fixedClock>, pulseSeconds?: number) {
  return createPoller(
    { ...CONFIG, pulseSeconds: pulseSeconds ?? CONFIG.pulseSeconds },
    testPollerDeps(store, clock, { adapters: simulatedAdapters() }),
  );
}

async function vendor(store: Store, slug: string) {
  const v = await vendorState(store, slug);
  return {
    current_status: v.currentStatus,
    failures: v.failures,
    error_kind: v.reading.error?.kind ?? null,
    error_http_status: v.reading.error?.httpStatus ?? null,
    error_message: v.reading.error?.message ?? null,
    last_checked_at: v.reading.lastAttemptAt!,
    next_poll_at: v.nextPollAt,
  };
}

const STATUS = "/api/v2/status.json";
/** What a failing server sends (a passing trouble, tried again next time). */
const UPSTREAM_ERROR = { body: "upstream error", contentType: "text/plain", status: 503 };
const SUMMARY = "/api/v2/summary.json";

Deno.test("a pulse that changes triggers a full read at once; an unchanged one is all that is read", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  equal((await vendor(r.store, slug)).current_status, "OPERATIONAL");
  equal(r.sim.requestsTo(slug, STATUS), 1, "the first poll reads the pulse too");
  equal(r.sim.requestsTo(slug, SUMMARY), 1);

  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 2);
  equal(r.sim.requestsTo(slug, SUMMARY), 1, "an unchanged pulse reads nothing else");
  equal(r.poller.stats().pulses, 2);
  equal(r.poller.stats().pulseChanges, 0);

  r.sim.setScenario(slug, "outage");
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 3);
  equal(r.sim.requestsTo(slug, SUMMARY), 2, "the changed pulse is followed by the full read");
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE");
  ok(r.published.some((c) => c.kind === "status" && c.to === "PARTIAL_OUTAGE"));
  equal(r.poller.stats().pulseChanges, 1);
});

Deno.test("a change behind an unchanged pulse is caught by the full read within the stable interval", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  // The pulse document is pinned to the calm page: it will not show what follows.
  r.sim.setDocument(slug, STATUS, {
    body: SIMULATED_PLATFORMS.statuspage.pulse!.calm,
    contentType: "application/json",
  });
  await r.poller.runOnce();
  r.sim.setScenario(slug, "outage");
  for (const at of [60, 120, 180]) {
    await r.step(60);
    equal(
      (await vendor(r.store, slug)).current_status,
      "OPERATIONAL",
      `pulses alone at +${at} s`,
    );
  }
  equal(r.sim.requestsTo(slug, SUMMARY), 1);
  await r.step(60); // +240 s: the next pulse would pass the 300 s stable interval
  equal(r.sim.requestsTo(slug, SUMMARY), 2, "the scheduled full read");
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE");
});

Deno.test("a pulse answered 304 counts as unchanged; the scheduled full read is conditional too, with no pulse before it", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  for (let i = 0; i < 4; i++) await r.step(60);
  // The fetch log keeps full reads: the first (200) and the one due at +240 s, conditional
  // (304); the three pulses between were answered 304 and only counted. The scheduled full
  // read goes without a pulse first (it tells by itself): 4 pulses in 5 polls.
  const codes = (await r.store.history.fetchLog(slug, 0)).map((f) => f.httpStatus);
  equal(codes.join(","), "200,304");
  equal(r.poller.stats().pulses, 4);
  equal(r.sim.requestsTo(slug, STATUS), 4);
  equal(r.sim.requestsTo(slug, SUMMARY), 2);
  equal((await vendor(r.store, slug)).current_status, "OPERATIONAL");
});

Deno.test("trouble that starts just before the scheduled full read is seen by it, with no pulse first", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  for (let i = 0; i < 3; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 4);
  r.sim.setScenario(slug, "outage");
  await r.step(60); // +240 s: the full read is due
  equal(r.sim.requestsTo(slug, STATUS), 4, "no pulse before a full read that is due");
  equal(r.sim.requestsTo(slug, SUMMARY), 2);
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE");
});

Deno.test("every platform: calm reads OPERATIONAL and trouble is seen within one pulse interval", async () => {
  await using r = await rig(SIMULATED_PLATFORM_NAMES);
  await r.poller.runOnce();
  for (const slug of r.slugs) {
    equal((await vendor(r.store, slug)).current_status, "OPERATIONAL", slug);
  }
  // One stable interval: every vendor has had a conditional full read answered (304 where
  // the platform honours validators), so every one is watched between full reads.
  await r.step(300);
  for (const slug of r.slugs) r.sim.setScenario(slug, "outage");
  await r.step(60);
  for (const slug of r.slugs) {
    notEqual(
      (await vendor(r.store, slug)).current_status,
      "OPERATIONAL",
      `${slug} seen within 60 s`,
    );
  }
});

Deno.test("a large document without a pulse that came with validators is watched every pulse interval from its first read", async () => {
  // Status.io, Better Stack and Google Cloud documents are tens of KB, answered 304 when asked
  // conditionally: cheap to ask every minute, and no 304 has to be seen first.
  await using r = await rig(["statusio", "betterstack", "google-cloud"]);
  await r.poller.runOnce();
  for (const slug of r.slugs) r.sim.setScenario(slug, "outage");
  await r.step(60);
  for (const slug of r.slugs) {
    notEqual((await vendor(r.store, slug)).current_status, "OPERATIONAL", `${slug} within 60 s`);
    equal(r.sim.requests(slug), 2, slug);
  }
});

Deno.test("a large document whose ETag is not honoured (the same document again) goes back to the stable interval", async () => {
  const body = SIMULATED_PLATFORMS.betterstack.calm;
  const seen: { conditional: boolean }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push({ conditional: req.headers.has("if-none-match") });
    return new Response(body, {
      headers: { "content-type": "application/json", etag: '"always-the-same"' },
    });
  });
  const store = memoryStore();
  const clock = fixedClock(T0);
  await syncVendors(store, [{
    name: "Deaf",
    slug: "deaf",
    statusPageUrl: `http://127.0.0.1:${server.addr.port}/v/deaf`,
    platform: "betterstack",
    category: "other",
    provider: "deaf",
    domains: [],
  }], clock.now());
  const poller = createPoller(
    CONFIG,
    testPollerDeps(store, clock, { adapters: simulatedAdapters() }),
  );
  try {
    ok(body.length > 8 * 1024, "a large document");
    await poller.runOnce();
    clock.advance(60 * SECOND_MS);
    await poller.runOnce(); // presumed to honour its ETag: asked again within a minute
    equal(seen.length, 2);
    equal(seen[1]!.conditional, true);
    for (let i = 0; i < 4; i++) {
      clock.advance(60 * SECOND_MS);
      await poller.runOnce();
    }
    equal(seen.length, 2, "the same document came whole: nothing more before the stable interval");
    clock.advance(60 * SECOND_MS);
    await poller.runOnce();
    equal(seen.length, 3, "one stable interval after the second read");
  } finally {
    await poller.stop();
    await server.shutdown();
    await store.close();
  }
});

Deno.test("incident.io (no validators): the small widget is the pulse, the full summary is read rarely", async () => {
  await using r = await rig(["incidentio"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  for (let i = 0; i < 3; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, "/api/v1/summary"), 4);
  equal(r.sim.requestsTo(slug, SUMMARY), 1);
  r.sim.setScenario(slug, "outage");
  await r.step(60);
  equal(r.sim.requestsTo(slug, SUMMARY), 2);
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE");
});

Deno.test("a missing pulse document is left alone for a day; the vendor is read in full instead", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  r.sim.setDocument(slug, STATUS, { body: "gone", contentType: "text/plain", status: 404 });
  await r.poller.runOnce();
  equal(
    (await vendor(r.store, slug)).current_status,
    "OPERATIONAL",
    "the pulse's 404 is not a failure",
  );
  equal((await vendor(r.store, slug)).failures, 0);
  for (let i = 0; i < 3; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 1, "not asked again");
  // The full document is small: a conditional read of it is the signal every pulse interval.
  equal(r.sim.requestsTo(slug, SUMMARY), 4);
});

Deno.test("a pulse document that keeps failing while the full one answers is left alone for a day", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  r.sim.setDocument(slug, STATUS, UPSTREAM_ERROR);
  await r.poller.runOnce();
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 2);
  equal(r.sim.requestsTo(slug, SUMMARY), 2, "each failed pulse is followed by the full read");
  // A pulse that answers again starts the count over.
  r.sim.setDocument(slug, STATUS, null);
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 3);
  r.sim.setDocument(slug, STATUS, UPSTREAM_ERROR);
  for (let i = 0; i < 3; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 6, "asked three more times after the good answer");
  for (let i = 0; i < 3; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 6, "not asked again after three failures in a row");
  // The full document is small and answers 304: read every pulse interval instead.
  equal(r.sim.requestsTo(slug, SUMMARY), 9);
  const v = await vendor(r.store, slug);
  equal(v.current_status, "OPERATIONAL");
  equal(v.failures, 0, "the pulse's failures are not the vendor's");
  r.sim.setScenario(slug, "outage");
  await r.step(60);
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE", "trouble still seen");
  // A day later, calm again (and past the 30 minutes a change keeps a vendor moving).
  r.sim.setDocument(slug, STATUS, null);
  r.sim.setScenario(slug, "calm");
  await r.step(24 * 3600);
  equal(r.sim.requestsTo(slug, STATUS), 6);
  await r.step(31 * 60);
  equal(r.sim.requestsTo(slug, STATUS), 7, "asked again a day later");
});

Deno.test("a vendor down altogether does not count against its pulse document", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  // Two pulses fail while the full document still answers.
  r.sim.setDocument(slug, STATUS, UPSTREAM_ERROR);
  for (let i = 0; i < 2; i++) await r.step(60);
  // Then the whole vendor fails, and recovers.
  r.sim.setDocument(slug, SUMMARY, UPSTREAM_ERROR);
  await r.step(60);
  equal((await vendor(r.store, slug)).failures, 1);
  r.sim.setDocument(slug, SUMMARY, null);
  await r.step(60);
  equal((await vendor(r.store, slug)).failures, 0);
  const asked = r.sim.requestsTo(slug, STATUS);
  await r.step(60);
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), asked + 2, "still asked: the count started over");
});

/** Pulses a minute apart, each `status.json` saying the page was updated that minute. */
async function restlessMinutes(r: Rig, slug: string, from: number, to: number) {
  for (let minute = from; minute <= to; minute++) {
    r.sim.setDocument(slug, STATUS, restlessStatus(minute));
    await r.step(60);
  }
}

/** A `status.json` that says the page was updated at minute `minute`, whatever happened. */
function restlessStatus(minute: number) {
  const body = JSON.stringify({
    page: { id: "p", name: "P", updated_at: new Date(T0 + minute * 60_000).toISOString() },
    status: { indicator: "none", description: "All Systems Operational" },
  });
  return { body, contentType: "application/json" };
}

Deno.test("a pulse document that changes every time while the page does not is left alone for a day", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  r.sim.setDocument(slug, STATUS, restlessStatus(0));
  await r.poller.runOnce();
  await restlessMinutes(r, slug, 1, 2);
  // The same document again: an unchanged pulse starts the count over.
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 4);
  equal(r.sim.requestsTo(slug, SUMMARY), 3, "the unchanged pulse reads nothing else");
  await restlessMinutes(r, slug, 4, 6);
  equal(r.sim.requestsTo(slug, STATUS), 7);
  equal(r.sim.requestsTo(slug, SUMMARY), 6, "each changed pulse was followed by a full read");
  await restlessMinutes(r, slug, 7, 9);
  equal(r.sim.requestsTo(slug, STATUS), 7, "not asked again after three changes for nothing");
  // The full document answers 304: it is the signal every pulse interval meanwhile.
  equal(r.sim.requestsTo(slug, SUMMARY), 9);
  r.sim.setScenario(slug, "outage");
  await r.step(60);
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE", "trouble still seen");
});

Deno.test("a pulse change the full read confirms starts the count of changes for nothing over", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  r.sim.setDocument(slug, STATUS, restlessStatus(0));
  await r.poller.runOnce();
  await restlessMinutes(r, slug, 1, 2);
  // Real trouble: the pulse changes and the full read records it.
  r.sim.setDocument(slug, STATUS, restlessStatus(3));
  r.sim.setScenario(slug, "outage");
  await r.step(60);
  equal((await vendor(r.store, slug)).current_status, "PARTIAL_OUTAGE");
  r.sim.setScenario(slug, "calm");
  await r.step(60);
  equal((await vendor(r.store, slug)).current_status, "OPERATIONAL");
  await r.step(31 * 60); // calm again after the moving window
  const asked = r.sim.requestsTo(slug, STATUS);
  await restlessMinutes(r, slug, 40, 41);
  equal(r.sim.requestsTo(slug, STATUS), asked + 2);
  await r.step(60);
  equal(
    r.sim.requestsTo(slug, STATUS),
    asked + 3,
    "still asked: two for nothing since the change",
  );
});

Deno.test("another instance, or a restarted process, goes on pulsing from what the last full read stored", async () => {
  await using r = await rig(["statuspage", "incidentio"]);
  const [sp, io] = r.slugs as [string, string];
  const other = pollerOver(r.store, r.clock);
  try {
    await r.poller.runOnce();
    equal(r.sim.requestsTo(sp, SUMMARY), 1);
    equal(r.sim.requestsTo(io, SUMMARY), 1);
    // The vendors go from one instance to the other at every pulse, as leases fall.
    for (let i = 0; i < 3; i++) {
      r.clock.advance(60 * SECOND_MS);
      await (i % 2 === 0 ? other : r.poller).runOnce();
    }
    equal(r.sim.requestsTo(sp, STATUS), 4, "a pulse each minute");
    equal(r.sim.requestsTo(sp, SUMMARY), 1, "no full read for want of the other's memory");
    equal(r.sim.requestsTo(io, "/api/v1/summary"), 4);
    equal(r.sim.requestsTo(io, SUMMARY), 1);
    equal(other.stats().pulses, 4);
    // The stable interval still brings a full read, and trouble is still seen on either.
    r.clock.advance(60 * SECOND_MS);
    await other.runOnce();
    equal(r.sim.requestsTo(sp, SUMMARY), 2, "the full read due after the stable interval");
    r.sim.setScenario(sp, "outage");
    r.clock.advance(60 * SECOND_MS);
    await r.poller.runOnce();
    equal((await vendor(r.store, sp)).current_status, "PARTIAL_OUTAGE");
    equal(r.sim.requestsTo(sp, SUMMARY), 3);
    // A process started afresh (its memory empty) pulses the calm vendor at once, no full read.
    await other.stop();
    const restarted = pollerOver(r.store, r.clock);
    const fullReads = r.sim.requestsTo(io, SUMMARY);
    const pulses = r.sim.requestsTo(io, "/api/v1/summary");
    try {
      r.clock.advance(60 * SECOND_MS);
      await restarted.runOnce();
      equal(r.sim.requestsTo(io, "/api/v1/summary"), pulses + 1);
      equal(r.sim.requestsTo(io, SUMMARY), fullReads, "no full read of the calm vendor");
    } finally {
      await restarted.stop();
    }
  } finally {
    await other.stop();
  }
});

Deno.test("a pulse fingerprint is stored bounded, whatever the vendor sends", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  const long = (tail: string) => ({
    body: JSON.stringify({
      page: { id: "p", updated_at: "2026-11-02T12:00:00Z".padEnd(20_000, "x") + tail },
      status: { indicator: "none" },
    }),
    contentType: "application/json",
  });
  r.sim.setDocument(slug, STATUS, long("a"));
  await r.poller.runOnce();
  const [v] = await r.store.polls.claimDue(T0 + 3_600_000, 1);
  ok(v!.pulseFingerprint !== null && v!.pulseFingerprint.length <= 129, "bounded");
  // Two long fingerprints that differ only at their end still differ.
  r.sim.setDocument(slug, STATUS, long("b"));
  await r.step(60);
  equal(r.poller.stats().pulseChanges, 1);
  equal(r.sim.requestsTo(slug, SUMMARY), 2);
});

Deno.test("pulses off: a calm vendor is read every stable interval, nothing in between", async () => {
  await using r = await rig(["statuspage"], { pulseSeconds: 0 });
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  const v = await vendor(r.store, slug);
  ok(v.next_poll_at - v.last_checked_at > 140 * SECOND_MS, "spread over the stable interval");
  for (let i = 0; i < 2; i++) await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 0);
  equal(r.sim.requests(slug), 1);
});

Deno.test("a vendor answering 429 with Retry-After is left alone as long as it asks, and says so", async () => {
  await using r = await rig(["statuspage", "statuspage"], { listeners: 2 });
  const [limited, other] = r.slugs as [string, string];
  r.sim.setScenario(limited, "rate_limited");
  await r.poller.runOnce();
  const v = await vendor(r.store, limited);
  equal(v.error_kind, "http_status");
  equal(v.error_http_status, 429);
  ok(v.error_message?.includes(`asked to wait ${RATE_LIMIT_RETRY_AFTER_S} s`), v.error_message!);
  equal(v.next_poll_at - v.last_checked_at, RATE_LIMIT_RETRY_AFTER_S * SECOND_MS);
  equal(
    (await vendor(r.store, other)).current_status,
    "OPERATIONAL",
    "another host is not held back",
  );
  const asked = r.sim.requests(limited);
  await r.step(60);
  await r.step(55);
  equal(r.sim.requests(limited), asked, "nothing before the wait is over");
  r.sim.setScenario(limited, "calm");
  await r.step(10);
  equal(r.sim.requests(limited), asked + 1, "then a full read (a failing vendor has no pulse)");
  equal((await vendor(r.store, limited)).failures, 0);
});

Deno.test("a pulse answered 429 ends the poll: no full read is sent to a vendor asking for fewer", async () => {
  await using r = await rig(["statuspage"]);
  const [slug] = r.slugs as [string];
  await r.poller.runOnce();
  r.sim.setScenario(slug, "rate_limited");
  await r.step(60);
  equal(r.sim.requestsTo(slug, STATUS), 2);
  equal(r.sim.requestsTo(slug, SUMMARY), 1);
  equal((await vendor(r.store, slug)).error_http_status, 429);
});
