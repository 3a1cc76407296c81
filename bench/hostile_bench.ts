/**
 * Hostile-vendor benchmark (issue #9): the same statusd (poller + store + HTTP app, in its own
 * process) is run twice for BENCH_HOSTILE_SECONDS each: once polling only healthy vendors (the
 * simulator), once polling the same healthy vendors plus every hostile vendor of
 * tests/support/hostile.ts (several copies of each behaviour), while this process keeps GET
 * requests going against it. Prints, for the healthy vendors, the worst gap between two polls
 * against their interval; GET p50/p99 with hostile vendors against the run without; and each
 * run's peak RSS.
 * @module
 */
import { parseAllowance } from "../lib/mod.ts";
import { systemClock } from "../clock.ts";
import { createPoller } from "../ingest/mod.ts";
import { silentLogger } from "../log.ts";
import { createServer } from "../routes/mod.ts";
import { createAppContext } from "../app/mod.ts";
import { account, key } from "../tests/support/accounts.ts";
import { WORST_CASE_FILES, worstCaseBodies } from "../tests/support/hostile_uploads.ts";
import { openSqliteStore } from "../store/mod.ts";
import { TextLineStream } from "../tests/support/lines.ts";
import { simulatedCatalog } from "../tests/support/simulator.ts";
import type { Vendor } from "../domain/mod.ts";
import { percentile } from "./_stats.ts";

/** Options of {@link runHostileBench}. */
export interface HostileBenchOptions {
  /** Seconds per run. */
  readonly seconds: number;
  /** Healthy simulated vendors. */
  readonly healthy: number;
  /** Vendors per hostile behaviour. */
  readonly copies: number;
  /** Poll interval of every vendor (s), moving and calm alike. */
  readonly intervalSeconds: number;
  /** GET requests in flight at once. */
  readonly clients: number;
}

/** What the statusd process reports at the end of a run. */
interface RunReport {
  readonly worstGapMs: number;
  readonly healthyPolls: number;
  readonly peakRssMb: number;
  readonly polls: number;
  readonly failures: number;
}

const HEALTHY_PREFIX = "healthy";
/** Pause of each GET client between two requests (ms). */
const PAUSE_MS = 20;
const PATHS = [
  "/api/services?limit=50",
  "/api/incidents?limit=50",
  `/api/services/${HEALTHY_PREFIX}-00001`,
  "/api/status/providers-overview",
];

/** Spawns `deno run -A <script> …args` and returns its first stdout line (JSON) and the rest. */
async function spawn(script: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(script, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TextLineStream(),
  ).getReader();
  const first = JSON.parse((await lines.read()).value ?? "{}");
  return {
    first,
    next: async () => JSON.parse((await lines.read()).value ?? "{}"),
    kill: () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    },
    status: child.status,
  };
}

/**
 * GET load against `base` until `until` resolves; latencies in ms. Each client pauses between
 * requests, so latency shows how responsive statusd is, not how long a saturated queue is.
 */
async function load(base: string, clients: number, until: Promise<unknown>) {
  let done = false;
  until.finally(() => (done = true));
  const latencies: number[] = [];
  let errors = 0;
  const client = async (k: number) => {
    for (let i = k; !done; i++) {
      const t0 = performance.now();
      try {
        const res = await fetch(base + PATHS[i % PATHS.length], {
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - t0);
        else errors++;
      } catch {
        if (!done) errors++;
      }
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, k) => client(k)));
  return { latencies, errors };
}

/** One run: statusd in its own process over `catalog`, GET load from here. */
async function run(catalog: Vendor[], o: HostileBenchOptions) {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(file, JSON.stringify(catalog));
  const statusd = await spawn("./hostile_bench.ts", [
    "--statusd",
    file,
    String(o.seconds),
    String(o.intervalSeconds),
  ]);
  try {
    const base = `http://127.0.0.1:${statusd.first.port}`;
    const report = statusd.next() as Promise<RunReport>;
    const get = await load(base, o.clients, report);
    return { ...(await report), ...get };
  } finally {
    statusd.kill();
    await statusd.status;
    await Deno.remove(file);
  }
}

/** `/healthz` latencies (ms) from one client for `ms`, one request at a time with a pause. */
async function healthLatencies(base: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  return out;
}

/**
 * Worst-case dependency-file uploads (issue #27): `/healthz` p99 of statusd (its own process)
 * alone, then while `uploads` requests of two worst-case files each run at once, over and over.
 */
async function runUploadsBench(seconds: number, uploads: number): Promise<void> {
  const statusd = await spawn("./hostile_bench.ts", ["--uploads"]);
  try {
    const { port, key: secret } = statusd.first as { port: number; key: string };
    const base = `http://127.0.0.1:${port}`;
    const alone = await healthLatencies(base, seconds * 500);
    const bodies = worstCaseBodies(uploads);
    let stop = false;
    let answered = 0;
    const statuses = new Map<number, number>();
    const sender = async (body: string) => {
      while (!stop) {
        const res = await fetch(`${base}/api/user/monitors/suggestions`, {
          method: "POST",
          headers: { "x-api-key": secret, "content-type": "application/json" },
          body,
        });
        await res.arrayBuffer();
        answered++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const senders = bodies.map(sender);
    await new Promise((r) => setTimeout(r, 500));
    const during = await healthLatencies(base, seconds * 1000);
    stop = true;
    await Promise.all(senders);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log([
      `worst-case uploads: ${uploads} requests at once, each two files of about ${
        (WORST_CASE_FILES[0]!.content.length / 1e6).toFixed(1)
      } M characters built to backtrack (${
        (bodies[0]!.length / 1e6).toFixed(1)
      } MB of JSON), sent again as soon as answered`,
      `  /healthz p50            alone ${fmt(percentile(alone, 50))} | during ${
        fmt(percentile(during, 50))
      }`,
      `  /healthz p99            alone ${fmt(percentile(alone, 99))} | during ${
        fmt(percentile(during, 99))
      } (goal < 50 ms) | ratio ${(percentile(during, 99) / percentile(alone, 99)).toFixed(2)}`,
      `  /healthz max            during ${fmt(percentile(during, 100))} (${during.length} asked)`,
      `  uploads answered        ${answered} (${
        [...statuses].map(([s, n]) => `${n} × ${s}`).join(", ")
      })`,
    ].join("\n"));
  } finally {
    statusd.kill();
    await statusd.status;
  }
}

/** The statusd side of the uploads bench: an empty store, one key, no polling. */
async function uploadsProcess() {
  const dir = await Deno.makeTempDir({ prefix: "statusd-uploads-bench-" });
  const db = openSqliteStore(`${dir}/bench.db`);
  const ctx = createAppContext({
    store: db,
    clock: systemClock,
    log: silentLogger,
    settings: { publicUrl: "http://127.0.0.1", pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
  const who = await account(ctx, "bench@example.com");
  const secret = await key(ctx, who, "bench", ["monitors:read"]);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createServer({ app: ctx }).fetch,
  );
  console.log(JSON.stringify({ port: server.addr.port, key: secret }));
  await new Promise(() => {});
}

/** Runs both scenarios and prints the report. */
export async function runHostileBench(o: HostileBenchOptions): Promise<void> {
  await runUploadsBench(Math.max(5, Math.min(o.seconds, 20)), 20);
  if (Deno.env.get("BENCH_HOSTILE_ONLY") === "uploads") return;
  const sim = await spawn("../tests/support/simulator.ts", ["--listeners", "8"]);
  const hostile = await spawn("../tests/support/hostile.ts", ["--copies", String(o.copies)]);
  try {
    const healthy = simulatedCatalog(sim.first.origins, o.healthy, HEALTHY_PREFIX);
    const hostileCatalog = hostile.first.catalog as Vendor[];
    const calm = await run(healthy, o);
    const rough = await run([...healthy, ...hostileCatalog], o);
    const interval = o.intervalSeconds * 1000;
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const p = (r: typeof calm, q: number) => percentile(r.latencies, q);
    console.log([
      `hostile bench: ${o.healthy} healthy vendors every ${o.intervalSeconds} s, ` +
      `${hostileCatalog.length} hostile vendors (${o.copies} per behaviour), ${o.seconds} s per run, ` +
      `${o.clients} GET clients pausing ${PAUSE_MS} ms (statusd in its own process)`,
      `  healthy worst poll gap   without hostile ${(calm.worstGapMs / 1000).toFixed(1)} s ` +
      `(ratio to interval ${(calm.worstGapMs / interval).toFixed(2)}) | with hostile ` +
      `${(rough.worstGapMs / 1000).toFixed(1)} s (ratio to interval ${
        (rough.worstGapMs / interval).toFixed(2)
      })`,
      `  healthy polls            without ${calm.healthyPolls} | with ${rough.healthyPolls}`,
      `  GET p50                  without ${fmt(p(calm, 50))} | with ${fmt(p(rough, 50))} | ratio ${
        (p(rough, 50) / p(calm, 50)).toFixed(2)
      }`,
      `  GET p99                  without ${fmt(p(calm, 99))} | with ${fmt(p(rough, 99))} | ratio ${
        (p(rough, 99) / p(calm, 99)).toFixed(2)
      }`,
      `  GET max                  without ${fmt(percentile(calm.latencies, 100))} | with ${
        fmt(percentile(rough.latencies, 100))
      }`,
      `  GETs answered (errors)   without ${calm.latencies.length} (${calm.errors}) | with ${rough.latencies.length} (${rough.errors})`,
      `  peak RSS of statusd      without ${calm.peakRssMb.toFixed(0)} MB | with ${
        rough.peakRssMb.toFixed(0)
      } MB | ratio ${(rough.peakRssMb / calm.peakRssMb).toFixed(2)}`,
    ].join("\n"));
  } finally {
    sim.kill();
    hostile.kill();
    await Promise.allSettled([sim.status, hostile.status]);
  }
}

/** Peak resident set size (MB), from /proc/self/status. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The statusd side of a run: poller, store (temp file) and HTTP app for `seconds`. */
async function statusdProcess(catalogFile: string, seconds: number, intervalSeconds: number) {
  const catalog = JSON.parse(await Deno.readTextFile(catalogFile)) as Vendor[];
  const dir = await Deno.makeTempDir({ prefix: "statusd-hostile-bench-" });
  const db = openSqliteStore(`${dir}/bench.db`);
  await db.catalog.sync(catalog, systemClock.now());
  const loopback = parseAllowance("127.0.0.1");
  const poller = createPoller({
    movingSeconds: intervalSeconds,
    stableSeconds: intervalSeconds,
    concurrency: 32,
    timeoutMs: 10_000,
    allowPrivate: loopback.ok ? loopback.allowance : undefined,
  }, { store: db.polls, clock: systemClock, log: silentLogger });
  const app = createServer({
    app: createAppContext({
      store: db,
      clock: systemClock,
      log: silentLogger,
      settings: {
        publicUrl: "http://127.0.0.1",
        pollStableSeconds: intervalSeconds,
        pollMovingSeconds: intervalSeconds,
      },
    }),
    pollerStats: () => poller.stats(),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  console.log(JSON.stringify({ port: server.addr.port }));
  poller.start();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const stats = poller.stats();
  await poller.stop();
  const gaps: { slug: string; at: number }[] = [];
  for (const v of catalog.filter((c) => c.slug.startsWith(`${HEALTHY_PREFIX}-`))) {
    for (const f of await db.history.fetchLog(v.slug, 0)) gaps.push({ slug: v.slug, at: f.at });
  }
  let worstGapMs = 0;
  for (let i = 1; i < gaps.length; i++) {
    if (gaps[i]!.slug === gaps[i - 1]!.slug) {
      worstGapMs = Math.max(worstGapMs, gaps[i]!.at - gaps[i - 1]!.at);
    }
  }
  const report: RunReport = {
    worstGapMs,
    healthyPolls: gaps.length,
    peakRssMb: peakRssMb(),
    polls: stats.polls,
    failures: stats.failures,
  };
  console.log(JSON.stringify(report));
  await server.shutdown();
  await db.close();
  await Deno.remove(dir, { recursive: true });
}

/** The default options (environment variables shorten or grow the run). */
export function hostileBenchOptions(): HostileBenchOptions {
  return {
    seconds: Number(Deno.env.get("BENCH_HOSTILE_SECONDS") ?? 60),
    healthy: Number(Deno.env.get("BENCH_HOSTILE_HEALTHY") ?? 200),
    copies: Number(Deno.env.get("BENCH_HOSTILE_COPIES") ?? 3),
    intervalSeconds: 10,
    clients: 4,
  };
}

if (import.meta.main) {
  if (Deno.args[0] === "--uploads") await uploadsProcess();
  if (Deno.args[0] === "--statusd") {
    await statusdProcess(Deno.args[1]!, Number(Deno.args[2]), Number(Deno.args[3]));
    Deno.exit(0);
  }
  await runHostileBench(hostileBenchOptions());
}
