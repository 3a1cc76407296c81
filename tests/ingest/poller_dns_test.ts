import { deepStrictEqual, equal } from "node:assert/strict";
import { fixedClock, MINUTE_MS } from "../../domain/mod.ts";
import { parseAllowance } from "../../lib/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { VENDOR_CONNECTION_IDLE_MS } from "../../ingest/poller.ts";
import { fetchOutcomes, vendorState } from "../support/inspect.ts";
import { syncVendors } from "../support/seed.ts";
import { startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { makeTestCertificate, type TestCertificate } from "../support/tls.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 0, 1, 12);
const loopback = parseAllowance("127.0.0.0/8");

/**
 * `count` Statuspage vendors on the simulator, each reached through the name
 * `vendor-<n>.statuspage.invalid`, which only `resolve` can look up (over https with `tls`); a
 * poller over them.
 */
async function namedRig(
  count: number,
  resolve: (name: string) => Promise<readonly string[]>,
  tls?: TestCertificate,
) {
  if (!loopback.ok) throw new Error("allowance");
  const store = memoryStore();
  const sim = startSimulator(tls ? { tls } : {});
  const clock = fixedClock(T0);
  const vendors = sim.catalog(count).map((v, i) => {
    const url = new URL(v.statusPageUrl);
    if (tls) {
      const secure = new URL(sim.secureOrigins[sim.origins.indexOf(url.origin)]!);
      url.protocol = "https:";
      url.port = secure.port;
    }
    url.hostname = `vendor-${i + 1}.statuspage.invalid`;
    return { ...v, statusPageUrl: url.href };
  });
  await syncVendors(store, vendors, clock.now());
  const poller = createPoller({
    movingSeconds: 60,
    stableSeconds: 300,
    pulseSeconds: 60,
    concurrency: 4,
    timeoutMs: 2000,
    allowPrivate: loopback.allowance,
    ...(tls ? { caCerts: [tls.caPem] } : {}),
  }, testPollerDeps(store, clock, { adapters: { statuspage }, resolve }));
  return {
    store,
    sim,
    clock,
    poller,
    slugs: vendors.map((v) => v.slug),
    close: async () => {
      await poller.stop();
      await sim.close();
      await store.close();
    },
  };
}

Deno.test("the poller looks a vendor's name up once per five minutes, and again at once when its address stops answering", async () => {
  // Vendor 1's name first points at an address where nothing listens.
  const answers: Record<string, string> = {
    "vendor-1.statuspage.invalid": "127.0.0.2",
    "vendor-2.statuspage.invalid": "127.0.0.1",
  };
  const lookups: string[] = [];
  const { store, clock, poller, slugs, close } = await namedRig(2, (name) => {
    lookups.push(name);
    return Promise.resolve([answers[name]!]);
  });
  const count = (name: string) => lookups.filter((n) => n === name).length;
  const [one, two] = slugs as [string, string];
  try {
    await poller.runOnce();
    deepStrictEqual(await fetchOutcomes(store, one), ["network"]);
    // Its pulse failed, so the full read followed: each failed connection forgot the answer.
    equal(count("vendor-1.statuspage.invalid"), 2);
    equal((await vendorState(store, two)).currentStatus, "OPERATIONAL");
    equal(count("vendor-2.statuspage.invalid"), 1, "its pulse and its full read: one lookup");

    // The vendor moved: the failed connection made the poller forget the old address.
    answers["vendor-1.statuspage.invalid"] = "127.0.0.1";
    clock.advance(2 * MINUTE_MS);
    await poller.runOnce();
    equal(count("vendor-1.statuspage.invalid"), 3);
    equal((await vendorState(store, one)).currentStatus, "OPERATIONAL");
    equal(count("vendor-2.statuspage.invalid"), 1, "its pulse used the answer it had");

    clock.advance(6 * MINUTE_MS);
    await poller.runOnce();
    equal(count("vendor-2.statuspage.invalid"), 2, "looked up again after five minutes");
    equal(count("vendor-1.statuspage.invalid"), 4);
  } finally {
    await close();
  }
});

Deno.test("the reads of one poll share a connection; an idle one is closed before the next poll", async () => {
  const { sim, clock, poller, close } = await namedRig(1, () => Promise.resolve(["127.0.0.1"]));
  try {
    await poller.runOnce();
    equal(sim.totalRequests, 2, "the first poll reads the pulse, then the full document");
    equal(sim.connections, 1, "over one connection");
    // A vendor's next poll comes a minute later: its connection is not kept that long.
    await new Promise((r) => setTimeout(r, VENDOR_CONNECTION_IDLE_MS + 500));
    clock.advance(2 * MINUTE_MS);
    await poller.runOnce();
    equal(sim.totalRequests, 3);
    equal(sim.connections, 2, "the pulse went over a new connection");
  } finally {
    await close();
  }
});

Deno.test("over https, the reads of one poll share a connection, closed as soon as the poll is over", async () => {
  const tls = await makeTestCertificate(["*.statuspage.invalid"]);
  const { sim, clock, poller, close } = await namedRig(
    1,
    () => Promise.resolve(["127.0.0.1"]),
    tls,
  );
  try {
    await poller.runOnce();
    equal(sim.totalRequests, 2, "the first poll reads the pulse, then the full document");
    equal(sim.connections, 1, "over one TLS connection");
    // The next poll, well within the idle time: the connection was closed when the poll ended.
    clock.advance(2 * MINUTE_MS);
    await poller.runOnce();
    equal(sim.totalRequests, 3);
    equal(sim.connections, 2, "the next pulse went over a new connection");
  } finally {
    await close();
  }
});
