/**
 * Poller benchmark: N simulated vendors, all moving (60 s cadence), polled for BENCH_SECONDS
 * (120 by default) against the vendor simulator running in its own process, while scenario
 * flips are injected. Prints polls/s achieved vs required, missed deadlines, CPU seconds per
 * 1,000 polls, peak RSS, p95 detection delay of flips, and the CPU ratio against a bare fetch
 * loop doing the same number of requests against the same simulator in the same run.
 * @module
 */
import { systemClock } from "../domain/mod.ts";
import { createPoller } from "../ingest/mod.ts";
import { statuspage } from "../ingest/adapters/statuspage.ts";
import { silentLogger } from "../log.ts";
import { openSqliteStore } from "../store/mod.ts";
import { ALLOW_SIMULATOR, simulatedCatalog } from "../tests/support/simulator.ts";
import { TextLineStream } from "../tests/support/lines.ts";

/** Options of {@link runPollerBench}. */
export interface PollerBenchOptions {
  readonly vendors: number;
  readonly seconds: number;
  readonly listeners: number;
  readonly concurrency: number;
  readonly flipEveryMs: number;
}

/** CPU seconds (user + system) this process has used, from /proc/self/stat. */
function cpuSeconds(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime at CLK_TCK 100
}

/** Peak resident set size (MB), from /proc/self/status. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) / 1024 : NaN;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function startSimulatorProcess(listeners: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../tests/support/simulator.ts", import.meta.url).pathname,
      "--listeners",
      String(listeners),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TextLineStream(),
  );
  const reader = lines.getReader();
  const first = await reader.read();
  reader.releaseLock();
  const { origins } = JSON.parse(first.value ?? "{}") as { origins: string[] };
  return { origins, stop: () => child.kill("SIGKILL") };
}

/** The baseline: the same number of GETs (conditional after the first) by a bare loop. */
async function bareFetchLoop(urls: string[], requests: number, concurrency: number) {
  const etags = new Map<string, string>();
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      const url = urls[next++ % urls.length]!;
      const etag = etags.get(url);
      const res = await fetch(url, { headers: etag ? { "if-none-match": etag } : {} });
      await res.text();
      const tag = res.headers.get("etag");
      if (tag) etags.set(url, tag);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { cpu: cpuSeconds() - cpu0, seconds: (performance.now() - t0) / 1000 };
}

/** Runs the benchmark and prints its report. */
export async function runPollerBench(options: PollerBenchOptions): Promise<void> {
  const sim = await startSimulatorProcess(options.listeners);
  const dir = Deno.makeTempDirSync({ prefix: "statusd-bench-" });
  const db = openSqliteStore(`${dir}/bench.db`);
  const catalog = simulatedCatalog(sim.origins, options.vendors, "bench");
  await db.catalog.sync(catalog, systemClock.now());
  const flips = new Map<string, number>();
  const delays: number[] = [];
  db.changes.subscribe((committed) => {
    for (const c of committed) {
      if (c.kind !== "status" || c.component !== null) continue;
      const at = flips.get(c.slug);
      if (at === undefined) continue;
      delays.push(Date.now() - at);
      flips.delete(c.slug);
    }
  });
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 60,
      concurrency: options.concurrency,
      timeoutMs: 10_000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    {
      store: db.polls,
      clock: systemClock,
      log: silentLogger,
      adapters: { statuspage },
    },
  );
  const outage = new Set<string>();
  let flipCount = 0;
  // Flip after the first round and stop 62 s before the end, so every flip can be seen.
  const started = Date.now();
  const flipFrom = options.seconds * 250;
  const flipUntil = Math.max(flipFrom + 1, options.seconds * 1000 - 62_000);
  const flipper = setInterval(async () => {
    const t = Date.now() - started;
    if (t < flipFrom || t > flipUntil) return;
    const v = catalog[Math.floor(Math.random() * catalog.length)]!;
    if (flips.has(v.slug)) return;
    const scenario = outage.has(v.slug) ? "calm" : "outage";
    if (scenario === "outage") outage.add(v.slug);
    else outage.delete(v.slug);
    const origin = new URL(v.statusPageUrl).origin;
    await (await fetch(`${origin}/_control/${v.slug}/${scenario}`, { method: "POST" })).text();
    flips.set(v.slug, Date.now());
    flipCount++;
  }, options.flipEveryMs);

  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  poller.start();
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  const stats = poller.stats();
  const cpu = cpuSeconds() - cpu0;
  const wall = (performance.now() - t0) / 1000;
  clearInterval(flipper);
  await poller.stop();

  const urls = catalog.map((v) => `${v.statusPageUrl}/api/v2/summary.json`);
  const baseline = await bareFetchLoop(urls, stats.polls, options.concurrency);
  sim.stop();
  await db.close();
  Deno.removeSync(dir, { recursive: true });

  const required = options.vendors / 60;
  const perThousand = (cpu / stats.polls) * 1000;
  const basePerThousand = (baseline.cpu / stats.polls) * 1000;
  const lines = [
    `poller bench: ${options.vendors} vendors, all moving (60 s), ${wall.toFixed(0)} s, ` +
    `concurrency ${options.concurrency}, ${options.listeners} simulator hosts (simulator in its own process)`,
    `  polls                ${stats.polls} (ok ${stats.ok}, not modified ${stats.notModified}, failed ${stats.failures})`,
    `  polls/s              ${(stats.polls / wall).toFixed(1)} achieved vs ${
      required.toFixed(1)
    } required`,
    `  missed deadlines     ${stats.missedDeadlines}`,
    `  due backlog at end   ${stats.dueBacklog}`,
    `  CPU                  ${cpu.toFixed(2)} s = ${
      (100 * cpu / wall).toFixed(1)
    } % of one core (target < 25 %)`,
    `  CPU per 1,000 polls  ${perThousand.toFixed(3)} s`,
    `  peak RSS             ${peakRssMb().toFixed(0)} MB`,
    `  flips detected       ${delays.length} of ${flipCount}; p95 detection delay ${
      (percentile(delays, 95) / 1000).toFixed(1)
    } s (max ${(Math.max(...delays, 0) / 1000).toFixed(1)} s, limit 60 s)`,
    `  baseline (bare fetch loop, same ${stats.polls} requests): ${
      baseline.cpu.toFixed(2)
    } s CPU ` +
    `= ${basePerThousand.toFixed(3)} s per 1,000 in ${baseline.seconds.toFixed(1)} s`,
    `  ratio poller / baseline CPU per request: ${(perThousand / basePerThousand).toFixed(2)}`,
  ];
  console.log(lines.join("\n"));
}

if (import.meta.main) {
  await runPollerBench({
    vendors: Number(Deno.env.get("BENCH_VENDORS") ?? 10_000),
    seconds: Number(Deno.env.get("BENCH_SECONDS") ?? 120),
    listeners: 250,
    concurrency: 32,
    flipEveryMs: 2000,
  });
}
