/**
 * `deno task bench probes`: statusd's own probes at the size of a large team. `BENCH_VENDORS`
 * (default 2,000) monitored vendors with two probe URLs each on a loopback server, rounds driven
 * on a fake clock a minute apart:
 * - CPU per probe of the prober (claim, politeness, address guard, pinned connections, the
 *   warning step and its writes) against a bare `fetch` loop over the same URLs at the same
 *   concurrency, measured in the same run (the ratio);
 * - time from an endpoint's failure to `suspected`, p50/p95/max over vendors failing at random
 *   moments of the minute (goal p95 ≤ 150 s);
 * - false warnings while every endpoint fails at once, a local outage (goal 0).
 * @module
 */
import { cpuUsage } from "node:process";
import { fixedClock, MINUTE_MS, type Vendor } from "../domain/mod.ts";
import { createProber } from "../ingest/mod.ts";
import { silentLogger } from "../log.ts";
import { openSqliteStore } from "../store/mod.ts";
import { percentile } from "./_stats.ts";
import { parseAllowance } from "../lib/mod.ts";

/** Options of the bench. */
export interface ProbesBenchOptions {
  readonly vendors: number;
  /** Rounds timed for the CPU figure. */
  readonly rounds: number;
  /** Vendors whose endpoints fail at a random moment, for the time to `suspected`. */
  readonly failing: number;
}

/** Options from the environment. */
export function probesBenchOptions(): ProbesBenchOptions {
  return {
    vendors: Number(Deno.env.get("BENCH_VENDORS") ?? 2000),
    rounds: Number(Deno.env.get("BENCH_ROUNDS") ?? 3),
    failing: 100,
  };
}

const loopback = parseAllowance("127.0.0.1");
/** The endpoints listen on loopback: allowed as a self-hoster would allow them. */
const LOOPBACK = loopback.ok ? loopback.allowance : { all: false, ranges: [] };

const cpuMs = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs the bench and prints its report. */
export async function runProbesBench(o: ProbesBenchOptions): Promise<void> {
  const failingPaths = new Set<string>();
  let everythingFails = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    const down = everythingFails || failingPaths.has(path.split("/")[1]!);
    return new Response(down ? "down" : "ok", { status: down ? 502 : 200 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const urlsOf = (slug: string) => [`${origin}/${slug}/api`, `${origin}/${slug}/www`];
  const T0 = Date.UTC(2026, 10, 28, 0);
  const clock = fixedClock(T0);
  const store = openSqliteStore(":memory:", { commitWindows: { batchMs: 0, quietMs: 0 } });
  const vendors: Vendor[] = Array.from({ length: o.vendors }, (_, i) => ({
    name: `Vendor ${i}`,
    slug: `v${i}`,
    statusPageUrl: `https://status.v${i}.test`,
    platform: "statuspage",
    category: "other",
    provider: `v${i}`,
    domains: [],
  }));
  await store.catalog.sync(vendors, T0);
  const suspectedAt = new Map<string, number>();
  const prober = createProber({
    scope: "all",
    intervalMs: MINUTE_MS,
    timeoutMs: 5_000,
    allowPrivate: LOOPBACK,
  }, {
    store: store.warnings,
    clock,
    log: silentLogger,
    hostSpacingMs: 0,
    catalogProbes: urlsOf,
    onEvent: (slug, event) => {
      if (event === "suspected" && !suspectedAt.has(slug)) suspectedAt.set(slug, clock.now());
    },
  });
  /** Every due vendor's round at the clock's minute (claims come 500 at a time). */
  const minute = async () => {
    let probed = 0;
    for (;;) {
      const n = await prober.runOnce();
      probed += n;
      if (n === 0) return probed;
    }
  };
  try {
    // Warm-up: every target answers once, so it counts from now on.
    await minute();

    // CPU per probe: the prober's rounds against a bare fetch loop over the same URLs.
    let proberCpu = 0;
    let probes = 0;
    for (let r = 0; r < o.rounds; r++) {
      clock.set(clock.now() + MINUTE_MS);
      const before = cpuMs();
      probes += await minute() * 2;
      proberCpu += cpuMs() - before;
    }
    const urls = vendors.flatMap((v) => urlsOf(v.slug));
    let bareCpu = 0;
    for (let r = 0; r < o.rounds; r++) {
      const before = cpuMs();
      let next = 0;
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (next < urls.length) {
          const res = await fetch(urls[next++]!);
          await res.body?.cancel();
        }
      }));
      bareCpu += cpuMs() - before;
    }
    const perProbe = proberCpu / probes;
    const perBare = bareCpu / (urls.length * o.rounds);

    // Time to suspected: vendors fail at a random moment of the minute before the next round
    // (their endpoints answer 502 from then on; rounds only ever see them at the minute).
    const failAt = new Map<string, number>();
    const chosen = vendors.slice(0, o.failing).map((v) => v.slug);
    const start = clock.now();
    for (const slug of chosen) {
      failAt.set(slug, start + Math.floor(Math.random() * MINUTE_MS));
      failingPaths.add(slug);
    }
    for (let m = 1; m <= 4; m++) {
      clock.set(start + m * MINUTE_MS);
      await minute();
    }
    const delays = chosen.flatMap((s) =>
      suspectedAt.has(s) ? [(suspectedAt.get(s)! - failAt.get(s)!) / 1000] : []
    );
    const missed = chosen.length - delays.length;
    failingPaths.clear();
    for (let m = 0; m < 3; m++) {
      clock.set(clock.now() + MINUTE_MS);
      await minute();
    }

    // A local outage: every endpoint fails at once for five minutes.
    const warnedBefore = suspectedAt.size;
    everythingFails = true;
    for (let m = 0; m < 5; m++) {
      clock.set(clock.now() + MINUTE_MS);
      await minute();
    }
    const falseWarnings = suspectedAt.size - warnedBefore;
    const localSeen = prober.stats().localOutage !== null;
    everythingFails = false;

    console.log(`probes bench: ${o.vendors} vendors × 2 probe URLs on loopback`);
    console.log(
      `  CPU per probe: prober ${perProbe.toFixed(3)} ms, bare fetch loop ${
        perBare.toFixed(3)
      } ms (ratio ${(perProbe / perBare).toFixed(2)} × bare), over ${probes} probes`,
    );
    console.log(
      `  failure → suspected (rounds a minute apart, failures at random moments): p50 ${
        percentile(delays, 50).toFixed(0)
      } s, p95 ${percentile(delays, 95).toFixed(0)} s, max ${
        Math.max(...delays).toFixed(0)
      } s over ${delays.length} vendors (goal p95 ≤ 150 s)${
        missed ? `; ${missed} never suspected` : ""
      }`,
    );
    console.log(
      `  local outage (every endpoint failing for 5 min): ${falseWarnings} false warnings ` +
        `(goal 0); statusd said its own network was at fault: ${localSeen ? "yes" : "no"}`,
    );
  } finally {
    await prober.stop();
    await server.shutdown();
    await store.close();
  }
}
