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
import { silentLogger } from "../../log.ts";
import { createChangeFeed, type Db, pollStore, syncCatalog } from "../../store/mod.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";

const T0 = Date.UTC(2026, 4, 21, 12);
const SECRET = "internal-secret-component";
/** A Statuspage document whose only component name is the secret. */
const INTERNAL_DOC = JSON.stringify({
  status: { indicator: "none" },
  components: [{ id: "secret", name: SECRET, status: "operational" }],
  incidents: [],
});

interface Rig {
  db: Db;
  sim: Simulator;
  internal: { url: string; hits: string[] };
  published: Change[];
  poll(): Promise<unknown>;
  close(): Promise<void>;
}

function rig(vendors: (sim: Simulator) => Vendor[]): Rig {
  const db = memoryStore();
  const sim = startSimulator();
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response(INTERNAL_DOC, { headers: { "content-type": "application/json" } });
  });
  const clock = fixedClock(T0);
  syncCatalog(db, vendors(sim), clock.now());
  const changes = createChangeFeed();
  const published: Change[] = [];
  changes.subscribe((c) => published.push(...c));
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    {
      store: pollStore(db),
      changes,
      clock,
      log: silentLogger,
      adapters: { statuspage, statusio },
      hostSpacingMs: 0,
      random: () => 0.5,
    },
  );
  return {
    db,
    sim,
    internal: { url: `http://127.0.0.2:${server.addr.port}/internal`, hits },
    published,
    poll: () => poller.runOnce(),
    close: async () => {
      await poller.stop();
      await sim.close();
      await server.shutdown();
      db.close();
    },
  };
}

function reading(db: Db, slug: string) {
  const v = db.prepare("SELECT id, last_error FROM vendors WHERE slug = ?").get(slug) as {
    id: number;
    last_error: string | null;
  };
  const outcomes = db.prepare("SELECT outcome FROM fetches WHERE vendor_id = ? ORDER BY id")
    .all(v.id).map((r) => r.outcome);
  const stored = JSON.stringify([
    db.prepare("SELECT * FROM components").all(),
    db.prepare("SELECT * FROM incidents").all(),
    db.prepare("SELECT * FROM changes").all(),
  ]);
  return { lastError: v.last_error, outcomes, stored };
}

const redirectTo = (location: string) => ({
  body: "",
  contentType: "text/plain",
  status: 302,
  headers: { location },
});

Deno.test("a vendor's 302 to another loopback address is refused; nothing internal is stored", async () => {
  const r = rig((sim) => sim.catalog(1, "redir"));
  try {
    r.sim.setDocument("redir-00001", "/api/v2/summary.json", redirectTo(r.internal.url));
    await r.poll();
    const got = reading(r.db, "redir-00001");
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
  const r = rig((sim) => [
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
    const detect = reading(r.db, "detect-00001");
    deepStrictEqual(detect.outcomes, ["refused_address"]);
    ok(detect.lastError?.startsWith("refused_address: platform detection: 127.0.0.2"));
    const linked = r.db.prepare("SELECT detected_platform FROM vendors WHERE slug = ?")
      .get("feedlink-00001") as { detected_platform: string };
    equal(linked.detected_platform, "unknown");
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
  const r = rig((sim) => [statusioAt(sim, "page-moved"), statusioAt(sim, "api-moved")]);
  try {
    r.sim.setDocument("page-moved", "", redirectTo(r.internal.url));
    const api = "/1.0/status/566925105401bb333d000014";
    const page = `<html><script src="${r.sim.origins[0]}/v/api-moved${api}"></script></html>`;
    r.sim.setDocument("api-moved", "", { body: page, contentType: "text/html" });
    r.sim.setDocument("api-moved", api, redirectTo(r.internal.url));
    await r.poll();
    const moved = reading(r.db, "page-moved");
    deepStrictEqual(moved.outcomes, ["refused_address"]);
    ok(moved.lastError?.includes("endpoint discovery: the status page did not load (127.0.0.2"));
    const discovered = reading(r.db, "api-moved");
    deepStrictEqual(discovered.outcomes, ["refused_address"]);
    ok(!discovered.stored.includes(SECRET));
    deepStrictEqual(r.internal.hits, []);
  } finally {
    await r.close();
  }
});
