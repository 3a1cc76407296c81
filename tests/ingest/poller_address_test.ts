/**
 * The private-address guard through the poller: a vendor the self-hoster allowed by its exact
 * address (the simulator on 127.0.0.1) points the poller at another loopback address
 * (127.0.0.2, an "internal" service) by a redirect, through platform detection, or through
 * endpoint discovery. Each time the reading fails as `refused_address`, the internal service
 * gets no request, and nothing of it is stored or published.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { type Change, fixedClock, type Vendor } from "../../domain/mod.ts";
import { statusio } from "../../ingest/adapters/statusio.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import type { Store } from "../../domain/mod.ts";
import { everythingStored, fetchOutcomes, lastError, vendorState } from "../support/inspect.ts";
import { syncVendors } from "../support/seed.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 4, 21, 12);
const SECRET = "internal-secret-component";
/** A Statuspage document whose only component name is the secret. */
const INTERNAL_DOC = JSON.stringify({
  status: { indicator: "none" },
  components: [{ id: "secret", name: SECRET, status: "operational" }],
  incidents: [],
});

interface Rig {
  store: Store;
  sim: Simulator;
  internal: { url: string; hits: string[] };
  published: Change[];
  poll(): Promise<unknown>;
  close(): Promise<void>;
}

async function rig(vendors: (sim: Simulator) => Vendor[]): Promise<Rig> {
  const store = memoryStore();
  const sim = startSimulator();
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response(INTERNAL_DOC, { headers: { "content-type": "application/json" } });
  });
  const clock = fixedClock(T0);
  await syncVendors(store, vendors(sim), clock.now());
  const published: Change[] = [];
  store.changes.subscribe((c) => published.push(...c));
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(store, clock, { adapters: { statuspage, statusio } }),
  );
  return {
    store,
    sim,
    internal: { url: `http://127.0.0.2:${server.addr.port}/internal`, hits },
    published,
    poll: () => poller.runOnce(),
    close: async () => {
      await poller.stop();
      await sim.close();
      await server.shutdown();
      await store.close();
    },
  };
}

async function reading(store: Store, slug: string) {
  return {
    lastError: await lastError(store, slug),
    outcomes: await fetchOutcomes(store, slug),
    stored: await everythingStored(store),
  };
}

const redirectTo = (location: string) => ({
  body: "",
  contentType: "text/plain",
  status: 302,
  headers: { location },
});

Deno.test("a vendor's 302 to another loopback address is refused; nothing internal is stored", async () => {
  const r = await rig((sim) => sim.catalog(1, "redir"));
  try {
    r.sim.setDocument("redir-00001", "/api/v2/summary.json", redirectTo(r.internal.url));
    await r.poll();
    const got = await reading(r.store, "redir-00001");
    deepStrictEqual(got.outcomes, ["refused_address"]);
    ok(got.lastError?.startsWith("refused_address: 127.0.0.2 is not a public address"));
    ok(!got.stored.includes(SECRET));
    ok(!JSON.stringify(r.published).includes(SECRET));
    deepStrictEqual(r.internal.hits, []);
  } finally {
    await r.close();
  }
});

Deno.test("platform detection never probes a non-public address it is led to", async () => {
  const r = await rig((sim) => [
    { ...sim.catalog(1, "detect")[0]!, platform: "unknown" },
    { ...sim.catalog(1, "feedlink")[0]!, platform: "unknown" },
  ]);
  try {
    // The page itself redirects inside: the reading fails as refused_address.
    r.sim.setDocument("detect-00001", "", redirectTo(r.internal.url));
    // The page answers, names no platform and links its feed inside: that probe is refused.
    const html = `<html><head><link rel="alternate" type="application/rss+xml" href="${
      r.internal.url.replace("/internal", "/feed.xml")
    }"></head><body>status</body></html>`;
    r.sim.setDocument("feedlink-00001", "", { body: html, contentType: "text/html" });
    for (const path of ["/api/v2/summary.json", "/summary.json", "/index.json", "/api/v1/ping"]) {
      r.sim.setDocument("feedlink-00001", path, {
        body: "no",
        contentType: "text/plain",
        status: 404,
      });
    }
    await r.poll();
    const detect = await reading(r.store, "detect-00001");
    deepStrictEqual(detect.outcomes, ["refused_address"]);
    ok(detect.lastError?.startsWith("refused_address: platform detection: 127.0.0.2"));
    equal((await vendorState(r.store, "feedlink-00001")).detectedPlatform, "unknown");
    ok(!detect.stored.includes(SECRET));
    deepStrictEqual(r.internal.hits, []);
  } finally {
    await r.close();
  }
});

Deno.test("endpoint discovery never reads a page or an endpoint at a non-public address", async () => {
  const statusioAt = (sim: Simulator, slug: string): Vendor => ({
    ...sim.catalog(1, slug)[0]!,
    slug,
    statusPageUrl: `${sim.origins[0]}/v/${slug}`,
    platform: "statusio",
  });
  const r = await rig((sim) => [statusioAt(sim, "page-moved"), statusioAt(sim, "api-moved")]);
  try {
    r.sim.setDocument("page-moved", "", redirectTo(r.internal.url));
    const api = "/1.0/status/566925105401bb333d000014";
    const page = `<html><script src="${r.sim.origins[0]}/v/api-moved${api}"></script></html>`;
    r.sim.setDocument("api-moved", "", { body: page, contentType: "text/html" });
    r.sim.setDocument("api-moved", api, redirectTo(r.internal.url));
    await r.poll();
    const moved = await reading(r.store, "page-moved");
    deepStrictEqual(moved.outcomes, ["refused_address"]);
    ok(moved.lastError?.includes("endpoint discovery: the status page did not load (127.0.0.2"));
    const discovered = await reading(r.store, "api-moved");
    deepStrictEqual(discovered.outcomes, ["refused_address"]);
    ok(!discovered.stored.includes(SECRET));
    deepStrictEqual(r.internal.hits, []);
  } finally {
    await r.close();
  }
});
