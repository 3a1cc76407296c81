/**
 * Shared polling on PostgreSQL (issue #11): N simulated Statuspage vendors, every one due each
 * 60 s (moving interval; pulses off), polled for BENCH_CLUSTER_SECONDS first by one poller on
 * SQLite, then by two pollers (two stores with their own instance names, as two statusd
 * processes would be) sharing one fresh PostgreSQL database, against the simulator running in
 * its own process. Prints, from one run: polls, missed deadlines, the most fetches any vendor got
 * (counted at the simulator) against the most one interval allows, CPU per 1,000 polls of this
 * process (both pollers) against the single SQLite instance; then stops one of the two and
 * prints how long until every vendor it held was polled by the other (failover). Last, the same
 * vendors calm at the default intervals (300 s, pulses every 60 s) on two pollers sharing a fresh
 * PostgreSQL: pulses and full reads after the first readings, against one full read per vendor per
 * stable interval (issue #15: a pulse compares with what the last full read stored, whichever
 * instance made it).
 * @module
 */
import type { Vendor } from "../domain/mod.ts";
import { systemClock } from "../clock.ts";
import { createPoller, type Poller } from "../ingest/mod.ts";
import { silentLogger } from "../log.ts";
import { openSqliteStore } from "../store/mod.ts";
import { openPostgresStore } from "../store/postgres/mod.ts";
import type { Store } from "../domain/mod.ts";
import { freshDatabase } from "../tests/support/postgres.ts";
import { simulatedAdapters } from "../tests/support/platform_docs.ts";
import { ALLOW_SIMULATOR, simulatedCatalog } from "../tests/support/simulator.ts";
import { cpuSeconds, simStats, startSimulatorProcess } from "./poller_bench.ts";
import postgres from "postgres";

/** Options of {@link runClusterBench}. */
export interface ClusterBenchOptions {
  readonly vendors: number;
  readonly seconds: number;
  readonly concurrency: number;
}

const INTERVAL_S = 60;

/** One vendor per simulator group (`v<n>-00001`), so the simulator counts fetches per vendor. */
function catalog(origins: readonly string[], n: number): Vendor[] {
  return Array.from(
    { length: n },
    (_, i) => simulatedCatalog([origins[i % origins.length]!], 1, `v${i}`)[0]!,
  );
}

/** statusd's default intervals: calm vendors read every 300 s and pulsed every 60 s. */
const PULSED = { stableSeconds: 300, movingSeconds: 60, pulseSeconds: 60 } as const;

function poller(
  store: Store,
  o: ClusterBenchOptions,
  intervals: { stableSeconds: number; movingSeconds: number; pulseSeconds: number } = {
    stableSeconds: INTERVAL_S,
    movingSeconds: INTERVAL_S,
    pulseSeconds: 0,
  },
): Poller {
  return createPoller(
    {
      ...intervals,
      concurrency: o.concurrency,
      timeoutMs: 10_000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    { store: store.polls, clock: systemClock, log: silentLogger, adapters: simulatedAdapters() },
  );
}

async function fetchesPerVendor(origin: string, vendors: readonly Vendor[]) {
  const { groups } = await simStats(origin);
  return vendors.map((v) => groups[v.slug.split("-")[0]!]?.requests ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the benchmark and prints its report. */
export async function runClusterBench(o: ClusterBenchOptions): Promise<void> {
  const sim = await startSimulatorProcess(250);
  const origin = sim.origins[0]!;
  const vendors = catalog(sim.origins, o.vendors);
  const dir = await Deno.makeTempDir({ prefix: "statusd-cluster-" });
  const db = await freshDatabase();
  console.log(
    `cluster: ${o.vendors} vendors due every ${INTERVAL_S} s, ${o.seconds} s per phase, ` +
      `concurrency ${o.concurrency} per poller, simulator in its own process`,
  );
  try {
    // Phase 1: one instance on SQLite.
    const sqlite = openSqliteStore(`${dir}/bench.db`);
    await sqlite.catalog.sync(vendors, systemClock.now());
    const single = poller(sqlite, o);
    let cpu0 = cpuSeconds();
    single.start();
    await sleep(o.seconds * 1000);
    await single.stop();
    const singleCpu = cpuSeconds() - cpu0;
    const s = single.stats();
    await sqlite.close();
    const perK = (cpu: number, polls: number) => (1000 * cpu / Math.max(1, polls)).toFixed(3);
    console.log(
      `  one instance, SQLite:      ${s.polls} polls, missed deadlines ${s.missedDeadlines}, ` +
        `${perK(singleCpu, s.polls)} CPU s per 1,000 polls`,
    );

    // Phase 2: two instances sharing PostgreSQL.
    const [a, b] = await Promise.all([
      openPostgresStore(db.url, { instance: "bench-a" }),
      openPostgresStore(db.url, { instance: "bench-b" }),
    ]);
    await a!.catalog.sync(vendors, systemClock.now());
    const before = await fetchesPerVendor(origin, vendors);
    const pa = poller(a!, o);
    const pb = poller(b!, o);
    cpu0 = cpuSeconds();
    pa.start();
    pb.start();
    await sleep(o.seconds * 1000);
    const twoCpu = cpuSeconds() - cpu0;
    const after = await fetchesPerVendor(origin, vendors);
    const sa = pa.stats();
    const sb = pb.stats();
    const polls = sa.polls + sb.polls;
    const fetched = after.map((n, i) => n - before[i]!);
    const allowed = Math.ceil(o.seconds / INTERVAL_S) + 1;
    console.log(
      `  two instances, PostgreSQL: ${polls} polls (a ${sa.polls}, b ${sb.polls}), missed deadlines ` +
        `${sa.missedDeadlines + sb.missedDeadlines}, ${
          perK(twoCpu, polls)
        } CPU s per 1,000 polls ` +
        `(ratio to one SQLite instance ${
          ((twoCpu / Math.max(1, polls)) / (singleCpu / Math.max(1, s.polls))).toFixed(2)
        }; PostgreSQL's own CPU not counted)`,
    );
    console.log(
      `  fetches per vendor in ${o.seconds} s: max ${Math.max(...fetched)}, min ${
        Math.min(...fetched)
      } (one per ${INTERVAL_S} s interval allows at most ${allowed}); vendors over: ${
        fetched.filter((n) => n > allowed).length
      }`,
    );

    // Failover: b stops polling; its leases are left to run out, as when a process dies.
    const watch = postgres(db.url, { max: 1, onnotice: () => {} });
    await pb.stop();
    const stoppedAt = Date.now();
    const held = (await watch`SELECT id FROM vendors WHERE lease_owner = 'bench-b'`)
      .map((r) => Number(r.id));
    // Every vendor is due again within an interval: b's share must now be polled by a.
    const waitFor = (await watch`SELECT id FROM vendors`).map((r) => Number(r.id));
    let tookOver = NaN;
    while (Date.now() - stoppedAt < 5 * 60_000) {
      const [{ n }] = await watch`SELECT COUNT(*)::int AS n FROM vendors
        WHERE id = ANY(${watch.array(waitFor)}::bigint[]) AND last_checked_at < ${stoppedAt}`;
      if (n === 0) {
        tookOver = (Date.now() - stoppedAt) / 1000;
        break;
      }
      await sleep(250);
    }
    console.log(
      `  failover: b stopped (holding ${held.length} leased vendors); a alone had polled all ` +
        `${waitFor.length} vendors again ${
          tookOver.toFixed(1)
        } s later (interval ${INTERVAL_S} s, ` +
        "lease 20 s)",
    );
    await pa.stop();
    await watch.end();
    await a!.close();
    await b!.close();
    await pulsedOnTwo(o, vendors, origin);
  } finally {
    sim.stop();
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Calm vendors at the default intervals on two pollers sharing a fresh PostgreSQL: requests at
 * the simulator and pulses after the first readings; every other request is a full read.
 */
async function pulsedOnTwo(o: ClusterBenchOptions, vendors: readonly Vendor[], origin: string) {
  const db = await freshDatabase();
  const [c, d] = await Promise.all([
    openPostgresStore(db.url, { instance: "bench-c" }),
    openPostgresStore(db.url, { instance: "bench-d" }),
  ]);
  try {
    await c!.catalog.sync(vendors, systemClock.now());
    const pollers = [poller(c!, o, PULSED), poller(d!, o, PULSED)];
    const pulses = () => pollers.reduce((n, p) => n + p.stats().pulses, 0);
    const requests = async () => (await fetchesPerVendor(origin, vendors)).reduce((a, n) => a + n);
    for (const p of pollers) p.start();
    const warm = Math.min(60, o.seconds * 0.4);
    await sleep(warm * 1000);
    const [r0, p0] = [await requests(), pulses()];
    await sleep((o.seconds - warm) * 1000);
    const [r1, p1] = [await requests(), pulses()];
    for (const p of pollers) await p.stop();
    const window = o.seconds - warm;
    const full = r1 - r0 - (p1 - p0);
    console.log(
      `  calm, pulses every ${PULSED.pulseSeconds} s, two instances on PostgreSQL, last ${window} s: ` +
        `${p1 - p0} pulses, ${full} full reads (${(full / Math.max(1, p1 - p0)).toFixed(2)} per ` +
        `pulse; one instance reads a calm vendor in full once per ${PULSED.stableSeconds} s: at ` +
        `most one per ${PULSED.stableSeconds / PULSED.pulseSeconds - 1} pulses, none within ` +
        `${PULSED.stableSeconds - PULSED.pulseSeconds} s of its first reading)`,
    );
  } finally {
    await c!.close();
    await d!.close();
    await db.drop();
  }
}

/** Options from the environment (BENCH_CLUSTER_VENDORS, BENCH_CLUSTER_SECONDS). */
export function clusterBenchOptions(): ClusterBenchOptions {
  return {
    vendors: Number(Deno.env.get("BENCH_CLUSTER_VENDORS") ?? 10_000),
    seconds: Number(Deno.env.get("BENCH_CLUSTER_SECONDS") ?? 150),
    concurrency: 32,
  };
}

if (import.meta.main) await runClusterBench(clusterBenchOptions());
