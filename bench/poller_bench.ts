/**
 * Poller benchmark (issue #15): N simulated vendors of every platform statusd reads, at the
 * default intervals (calm 300 s with 60 s pulses, moving 60 s), polled for BENCH_SECONDS
 * against the vendor simulator running in its own process while trouble is injected into calm
 * vendors and moving vendors settle. Prints, from one run:
 * - how long until every vendor had its first reading, and the requests that took;
 * - calm → trouble detection delay (p95, per platform) next to the moving vendors' p95;
 * - CPU per request against a bare fetch loop doing the same number of requests against the same
 *   simulator in the same run, flat out and paced (at the whole run's rate, and at the steady
 *   part's rate for the steady part);
 * - peak RSS, missed deadlines;
 * - bytes per calm vendor-hour (vendors never put in trouble) fetched from vendors against
 *   today's calm polling (one conditional full read per stable interval, measured on the same
 *   simulator in the same run).
 * @module
 */
import v8 from "node:v8";
import { type Vendor } from "../domain/mod.ts";
import { parseAllowance } from "../lib/mod.ts";
import { systemClock } from "../clock.ts";
import { createPoller } from "../ingest/mod.ts";
import { digestText } from "../ingest/adapters/_pulse.ts";
import { silentLogger } from "../log.ts";
import { openSqliteStore } from "../store/mod.ts";
import { TextLineStream } from "../tests/support/lines.ts";
import {
  SIMULATED_PLATFORM_NAMES,
  simulatedAdapters,
  type SimulatedPlatformName,
} from "../tests/support/platform_docs.ts";
import { ALLOW_SIMULATOR, simulatedCatalog } from "../tests/support/simulator.ts";
import { percentile } from "./_stats.ts";

/** Options of {@link runPollerBench}. */
export interface PollerBenchOptions {
  readonly vendors: number;
  readonly seconds: number;
  readonly listeners: number;
  readonly concurrency: number;
  /** A calm vendor is put in trouble, and a moving one settles, this often (ms). */
  readonly flipEveryMs: number;
  /** Share of vendors moving (in trouble) from the start. */
  readonly movingShare: number;
  /**
   * Each vendor on a host name of its own, resolved to an address of its own on loopback, as real
   * vendors are (`BENCH_HOST_PER_VENDOR=1`); otherwise vendors share the simulator's listeners as
   * `http://127.0.0.1:<port>` origins.
   */
  readonly hostPerVendor?: boolean;
  /**
   * Vendors over https (`BENCH_TLS=1`, implies a host per vendor): the simulator serves TLS with
   * a throwaway certificate for `*.vendors.invalid`, and a third baseline makes the same GETs
   * with a new TLS connection each, as a poll of a real vendor does.
   */
  readonly tls?: boolean;
  /**
   * The catalog's order (the order first readings go in): `mixed` (default) as in the built-in
   * catalog, sorted by slug, so platforms come mixed; `grouped` one platform after the other
   * and the moving vendors last (`BENCH_ORDER=grouped`), which puts the first readings of the
   * platforms with the largest documents in the same few seconds.
   */
  readonly order?: "mixed" | "grouped";
}

/** The intervals statusd uses by default (config.ts). */
const DEFAULTS = { stableSeconds: 300, movingSeconds: 60, pulseSeconds: 60 } as const;
/** Share of the vendors on Statuspage; the rest are spread evenly over the other platforms. */
const STATUSPAGE_SHARE = 0.9;

/** CPU seconds (user + system) this process has used, from /proc/self/stat. */
export function cpuSeconds(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime at CLK_TCK 100
}

/** Peak resident set size (MB), from /proc/self/status. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds per thread name so far (main thread, V8 helpers, Tokio), for `BENCH_MEM_TRACE=1`. */
function printThreadCpu(): void {
  const byName = new Map<string, number>();
  for (const t of Deno.readDirSync("/proc/self/task")) {
    try {
      const stat = Deno.readTextFileSync(`/proc/self/task/${t.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/[0-9]+$/, "#");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      byName.set(name, (byName.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the thread ended while being read
    }
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`  CPU by thread: ${top.map(([n, s]) => `${n} ${s.toFixed(2)} s`).join(", ")}`);
}

/** One line of the process's memory (MB), for `BENCH_MEM_TRACE=1`. */
function printMemory(label: string): void {
  const m = Deno.memoryUsage();
  const st = Deno.readTextFileSync("/proc/self/status");
  const mb = (k: string) =>
    (Number(new RegExp(`${k}:\\s+(\\d+)`).exec(st)?.[1] ?? 0) / 1024).toFixed(0);
  const heap = (n: number) => (n / 1048576).toFixed(0);
  console.log(
    `  ${label} rss=${mb("VmRSS")} peak=${mb("VmHWM")} anon=${mb("RssAnon")} file=${
      mb("RssFile")
    } ` +
      `heapTotal=${heap(m.heapTotal)} heapUsed=${heap(m.heapUsed)} external=${heap(m.external)} ` +
      `threads=${/Threads:\s+(\d+)/.exec(st)?.[1]} fds=${
        [...Deno.readDirSync("/proc/self/fd")].length
      } | ` +
      v8.getHeapSpaceStatistics().filter((sp) => sp.space_size > 1048576).map((sp) =>
        `${sp.space_name.replace("_space", "")}=${heap(sp.space_size)}/${heap(sp.space_used_size)}`
      ).join(" "),
  );
}

export async function startSimulatorProcess(
  listeners: number,
  everyLoopbackAddress = false,
  tlsNames?: readonly string[],
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../tests/support/simulator.ts", import.meta.url).pathname,
      "--listeners",
      String(listeners),
      ...(everyLoopbackAddress ? ["--every-loopback-address"] : []),
      ...(tlsNames ? ["--tls-names", tlsNames.join(",")] : []),
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
  const { origins, secureOrigins, caPem } = JSON.parse(first.value ?? "{}") as {
    origins: string[];
    secureOrigins: string[];
    caPem?: string;
  };
  return { origins, secureOrigins, caPem, pid: child.pid, stop: () => child.kill("SIGKILL") };
}

interface SimStats {
  totalRequests: number;
  totalBytes: number;
  totalBodyBytes: number;
  groups: Record<string, { requests: number; bytes: number; bodyBytes: number }>;
}

export async function simStats(origin: string): Promise<SimStats> {
  return await (await fetch(`${origin}/_control/stats`)).json();
}

/**
 * The vendors: `calm-<platform>-…`, `trouble-<platform>-…` (calm until trouble is injected, at
 * most `troublePerPlatform` of each platform; apart so the calm vendors' bytes are counted
 * without them) and `moving-<platform>-…`, Statuspage for {@link STATUSPAGE_SHARE} of them, the
 * other platforms sharing the rest.
 */
function benchCatalog(
  origins: readonly string[],
  o: PollerBenchOptions,
  troublePerPlatform: number,
) {
  const others = SIMULATED_PLATFORM_NAMES.filter((p) => p !== "statuspage");
  const plan: [SimulatedPlatformName, number][] = [
    ["statuspage", Math.round(o.vendors * STATUSPAGE_SHARE)],
    ...others.map((p): [SimulatedPlatformName, number] => [
      p,
      Math.round(o.vendors * (1 - STATUSPAGE_SHARE) / others.length),
    ]),
  ];
  const calm: Vendor[] = [];
  const trouble: Vendor[] = [];
  const moving: Vendor[] = [];
  let offset = 0;
  for (const [platform, count] of plan) {
    const nMoving = Math.round(count * o.movingShare);
    // Spread over the listeners (hosts) as one catalog would be.
    const rotate = origins.map((_, i) => origins[(i + offset) % origins.length]!);
    offset += count;
    const nTrouble = Math.min(troublePerPlatform, count - nMoving);
    const calmOnes = simulatedCatalog(rotate, count - nMoving, `calm-${platform}`, platform);
    calm.push(...calmOnes.slice(nTrouble));
    trouble.push(
      ...simulatedCatalog(rotate, nTrouble, `trouble-${platform}`, platform),
    );
    moving.push(
      ...simulatedCatalog(
        rotate.slice(1).concat(rotate[0]!),
        nMoving,
        `moving-${platform}`,
        platform,
      ),
    );
  }
  const grouped = [...calm, ...trouble, ...moving];
  if (o.order === "grouped") return { calm, trouble, moving, all: grouped };
  // Mixed: in the order of a digest of the slug (the built-in catalog is sorted by slug, and its
  // platforms come mixed), each vendor on the host after the one before it, as above.
  const all = grouped.map((v) => ({ v, key: digestText(v.slug) }))
    .sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
    .map(({ v }, k) => {
      const url = new URL(v.statusPageUrl);
      url.host = new URL(origins[k % origins.length]!).host;
      return { ...v, statusPageUrl: url.href };
    });
  const bySlug = new Map(all.map((v) => [v.slug, v]));
  const same = (list: Vendor[]) => list.map((v) => bySlug.get(v.slug)!);
  return { calm: same(calm), trouble: same(trouble), moving: same(moving), all };
}

/**
 * What one calm poll costs today (a conditional full read, answered 304 where the platform
 * honours validators): bytes the simulator sends for it (all, and the body alone), per
 * platform, measured here.
 */
async function todaysCalmPoll(origins: readonly string[]) {
  const adapters = simulatedAdapters();
  const out = new Map<SimulatedPlatformName, { bytes: number; bodyBytes: number }>();
  for (const platform of SIMULATED_PLATFORM_NAMES) {
    const [v] = simulatedCatalog(origins, 1, `probe-${platform}`, platform);
    const url = adapters[platform]!.endpoint(v!);
    const first = await fetch(url);
    await first.arrayBuffer();
    const headers: Record<string, string> = {};
    const etag = first.headers.get("etag");
    const modified = first.headers.get("last-modified");
    if (etag) headers["if-none-match"] = etag;
    else if (modified) headers["if-modified-since"] = modified;
    const before = await simStats(origins[0]!);
    await (await fetch(url, { headers })).arrayBuffer();
    const after = await simStats(origins[0]!);
    out.set(platform, {
      bytes: after.totalBytes - before.totalBytes,
      bodyBytes: after.totalBodyBytes - before.totalBodyBytes,
    });
  }
  return out;
}

/** One bare GET of `url`, conditional on the ETag it last came with (kept in `etags`). */
async function conditionalGet(
  url: string,
  etags: Map<string, string>,
  client?: Deno.HttpClient,
): Promise<void> {
  const etag = etags.get(url);
  const res = await fetch(url, { headers: etag ? { "if-none-match": etag } : {}, client });
  await res.text();
  const tag = res.headers.get("etag");
  if (tag) etags.set(url, tag);
}

/** The baseline: the same number of GETs (conditional after the first) by a bare loop. */
async function bareFetchLoop(urls: string[], requests: number, concurrency: number) {
  const etags = new Map<string, string>();
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      await conditionalGet(urls[next++ % urls.length]!, etags);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { cpu: cpuSeconds() - cpu0, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The same GETs as {@link bareFetchLoop}, at the poller's pace instead of as fast as they go:
 * a round every second starts that second's share of `rate`, at most `concurrency` in flight,
 * the rest queued (the poller's tick, its limiter). A loop run flat out spreads each event-loop
 * wake-up over dozens of requests, which no poller at a few hundred requests a second can; this
 * is what the same fetches cost at the poller's rate and in its rhythm. (Spread evenly over the
 * second instead of in rounds, as an earlier version of this baseline did, each request costs
 * about twice as much again.)
 */
async function pacedFetchLoop(
  urls: string[],
  rate: number,
  seconds: number,
  concurrency: number,
  client?: Deno.HttpClient,
) {
  const etags = new Map<string, string>();
  const inFlight = new Set<Promise<void>>();
  const queue: string[] = [];
  let next = 0;
  let done = 0;
  let owed = 0;
  const pump = () => {
    while (inFlight.size < concurrency && queue.length > 0) {
      const p = conditionalGet(queue.shift()!, etags, client).then(() => {
        done++;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  };
  const round = () => {
    for (owed += rate; owed >= 1; owed--) queue.push(urls[next++ % urls.length]!);
    pump();
  };
  const cpu0 = cpuSeconds();
  round();
  const ticker = setInterval(round, 1000);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(ticker);
  while (inFlight.size > 0) await Promise.all(inFlight);
  return { cpu: cpuSeconds() - cpu0, requests: done };
}

/** Runs the benchmark and prints its report. */
export async function runPollerBench(options: PollerBenchOptions): Promise<void> {
  const tracing = Deno.env.get("BENCH_MEM_TRACE") !== undefined;
  if (tracing) printMemory("modules loaded");
  const hostPerVendor = options.hostPerVendor || options.tls;
  const sim = await startSimulatorProcess(
    options.listeners,
    hostPerVendor,
    options.tls ? ["*.vendors.invalid", "127.0.0.1"] : undefined,
  );
  /** The CA of the simulator's TLS certificate (`BENCH_TLS=1`), else undefined. */
  const caPem = sim.caPem;
  /** The https origin served beside each plain one (`BENCH_TLS=1`). */
  const secureOf = new Map(sim.origins.map((o, i) => [o, sim.secureOrigins[i]!]));
  const control = sim.origins[0]!;
  const legacy = await todaysCalmPoll(sim.origins);
  const dir = Deno.makeTempDirSync({ prefix: "statusd-bench-" });
  const store = openSqliteStore(`${dir}/bench.db`);
  // Trouble starts after the start-up burst and stops 65 s before the end, so each can be seen.
  const flipFrom = Math.min(60_000, options.seconds * 400);
  const flipUntil = Math.max(flipFrom + 1, options.seconds * 1000 - 65_000);
  const flipCount = Math.floor((flipUntil - flipFrom) / options.flipEveryMs) + 1;
  const catalog = benchCatalog(
    sim.origins,
    options,
    Math.ceil(flipCount / SIMULATED_PLATFORM_NAMES.length),
  );
  // Host per vendor: `v<i>.vendors.invalid`, resolved by the poller (its `resolve`) to
  // 127.<1+i/65536>.<i/256%256>.<i%256>, where the simulator also answers.
  const addressOf = new Map<string, string>();
  const synced = hostPerVendor
    ? catalog.all.map((v, i) => {
      const url = new URL(v.statusPageUrl);
      if (caPem) {
        const secure = new URL(secureOf.get(url.origin)!);
        url.protocol = "https:";
        url.port = secure.port;
      }
      url.hostname = `v${i}.vendors.invalid`;
      addressOf.set(url.hostname, `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`);
      return { ...v, statusPageUrl: url.href };
    })
    : catalog.all;
  await store.catalog.sync(synced, systemClock.now());
  if (tracing) printMemory("catalog stored");
  const setScenario = async (v: Vendor, scenario: "calm" | "outage") => {
    const origin = new URL(v.statusPageUrl).origin;
    await (await fetch(`${origin}/_control/${v.slug}/${scenario}`, { method: "POST" })).text();
  };
  for (const v of catalog.moving) await setScenario(v, "outage");

  const flips = new Map<string, { at: number; kind: "calm" | "moving"; platform: string }>();
  const delays = { calm: [] as number[], moving: [] as number[] };
  const calmByPlatform = new Map<string, number[]>();
  // The first reading of a vendor moves its level from UNKNOWN: when all have one, and how many
  // requests that took.
  const firstRead = new Set<string>();
  let allRead: Promise<{ seconds: number; requests: number }> | null = null;
  store.changes.subscribe((committed) => {
    for (const c of committed) {
      if (c.kind !== "status" || c.component !== null) continue;
      if (c.from === "UNKNOWN" && !firstRead.has(c.slug)) {
        firstRead.add(c.slug);
        if (firstRead.size === catalog.all.length) {
          const seconds = (Date.now() - started) / 1000;
          allRead = simStats(control).then((s) => ({
            seconds,
            requests: s.totalRequests - before.totalRequests,
          }));
        }
      }
      const flip = flips.get(c.slug);
      if (flip === undefined) continue;
      const delay = Date.now() - flip.at;
      delays[flip.kind].push(delay);
      if (flip.kind === "calm") {
        calmByPlatform.set(flip.platform, [...calmByPlatform.get(flip.platform) ?? [], delay]);
      }
      flips.delete(c.slug);
    }
  });
  const poller = createPoller(
    {
      ...DEFAULTS,
      concurrency: options.concurrency,
      timeoutMs: 10_000,
      allowPrivate: hostPerVendor ? EVERY_LOOPBACK_ADDRESS : ALLOW_SIMULATOR,
      ...(caPem ? { caCerts: [caPem] } : {}),
    },
    {
      store: store.polls,
      clock: systemClock,
      log: silentLogger,
      adapters: simulatedAdapters(),
      resolve: (name) => Promise.resolve(addressOf.has(name) ? [addressOf.get(name)!] : []),
    },
  );

  const started = Date.now();
  // Calm vendors are put in trouble one platform after the other, so every platform is seen
  // (picked at random, 9 in 10 flips would land on Statuspage).
  const calmLeft = SIMULATED_PLATFORM_NAMES.map((p) =>
    catalog.trouble.filter((v) => v.platform === p)
  );
  const movingLeft = [...catalog.moving];
  const take = (list: Vendor[]) => list.splice(Math.floor(Math.random() * list.length), 1)[0];
  let injected = 0;
  let turn = 0;
  const flipper = setInterval(async () => {
    const t = Date.now() - started;
    if (t < flipFrom || t > flipUntil) return;
    const calm = take(calmLeft[turn++ % calmLeft.length]!);
    const moving = take(movingLeft);
    if (calm) {
      await setScenario(calm, "outage");
      flips.set(calm.slug, { at: Date.now(), kind: "calm", platform: calm.platform });
      injected++;
    }
    if (moving) {
      await setScenario(moving, "calm");
      flips.set(moving.slug, { at: Date.now(), kind: "moving", platform: moving.platform });
    }
  }, options.flipEveryMs);

  // Bytes are counted over the steady part (after the start-up burst).
  let steady: { at: number; cpu: number; stats: SimStats } | null = null;
  const steadyTimer = setTimeout(async () => {
    const cpu = cpuSeconds();
    steady = { at: performance.now(), cpu, stats: await simStats(control) };
  }, flipFrom);
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const before = await simStats(control);
  const traceMemory = () => printMemory(`t=${((performance.now() - t0) / 1000).toFixed(0)}s`);
  if (tracing) traceMemory();
  poller.start();
  const memTrace = tracing ? setInterval(traceMemory, 3000) : undefined;
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  const stats = poller.stats();
  const cpu = cpuSeconds() - cpu0;
  const wall = (performance.now() - t0) / 1000;
  const after = await simStats(control);
  const end = performance.now();
  clearInterval(flipper);
  if (memTrace !== undefined) clearInterval(memTrace);
  clearTimeout(steadyTimer);
  await poller.stop();
  if (tracing) printThreadCpu();
  // The poller's peak, read before the baseline loop below runs in this same process.
  const pollerPeakRss = peakRssMb();
  const requests = after.totalRequests - before.totalRequests;

  const urls = catalog.all.map((v) => simulatedAdapters()[v.platform]!.endpoint(v).href);
  // The bare loop is short (1–2 s) and its CPU swings by half between runs on shared cores:
  // the median of three.
  const loops = [];
  for (let i = 0; i < 3; i++) loops.push(await bareFetchLoop(urls, requests, options.concurrency));
  const baseline = loops.sort((a, b) => a.cpu - b.cpu)[1]!;
  const pacedSeconds = Math.min(30, options.seconds / 3);
  const paced = await pacedFetchLoop(urls, requests / wall, pacedSeconds, options.concurrency);
  // The steady part runs at a lower rate than the whole run's mean (the first readings are a
  // burst), and fewer requests per second share each wake-up of the event loop: its own baseline.
  const settled = steady as { at: number; stats: SimStats } | null;
  const steadyRate = settled
    ? (after.totalRequests - settled.stats.totalRequests) / ((end - settled.at) / 1000)
    : NaN;
  const pacedSteady = settled
    ? await pacedFetchLoop(urls, steadyRate, pacedSeconds, options.concurrency)
    : null;
  // Over https, a new TLS connection per request (no connection kept between two).
  let fresh: { cpu: number; requests: number } | null = null;
  if (caPem) {
    const client = Deno.createHttpClient({ caCerts: [caPem], poolMaxIdlePerHost: 0 });
    const secureUrls = urls.map((u) => {
      const url = new URL(u);
      return `${secureOf.get(url.origin)}${url.pathname}${url.search}`;
    });
    fresh = await pacedFetchLoop(
      secureUrls,
      requests / wall,
      pacedSeconds,
      options.concurrency,
      client,
    );
    client.close();
  }
  sim.stop();
  await store.close();
  Deno.removeSync(dir, { recursive: true });

  const firstReadings = await (allRead as Promise<{ seconds: number; requests: number }> | null);
  const perRequest = cpu / requests * 1000;
  const basePerRequest = baseline.cpu / requests * 1000;
  const pacedPerRequest = paced.cpu / paced.requests * 1000;
  const pacedSteadyPerRequest = pacedSteady ? pacedSteady.cpu / pacedSteady.requests * 1000 : NaN;
  const freshPerRequest = fresh ? fresh.cpu / fresh.requests * 1000 : null;
  const s = steady as { at: number; cpu: number; stats: SimStats } | null;
  const steadyRequests = s ? after.totalRequests - s.stats.totalRequests : NaN;
  const steadyPerRequest = s ? (cpu0 + cpu - s.cpu) / steadyRequests * 1000 : NaN;
  const hours = s ? (end - s.at) / 3_600_000 : NaN;
  const calmBytes = s ? (after.groups.calm?.bytes ?? 0) - (s.stats.groups.calm?.bytes ?? 0) : NaN;
  const calmRequests = s
    ? (after.groups.calm?.requests ?? 0) - (s.stats.groups.calm?.requests ?? 0)
    : NaN;
  const calmBodyBytes = s
    ? (after.groups.calm?.bodyBytes ?? 0) - (s.stats.groups.calm?.bodyBytes ?? 0)
    : NaN;
  const perVendorHour = calmBytes / catalog.calm.length / hours;
  const bodyPerVendorHour = calmBodyBytes / catalog.calm.length / hours;
  const today = (part: "bytes" | "bodyBytes") =>
    catalog.calm.reduce(
      (sum, v) => sum + legacy.get(v.platform as SimulatedPlatformName)![part],
      0,
    ) / catalog.calm.length * (3600 / DEFAULTS.stableSeconds);
  const todayPerVendorHour = today("bytes");
  const todayBodyPerVendorHour = today("bodyBytes");
  const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const byPlatform = [...calmByPlatform.entries()].sort().map(([p, d]) =>
    `${p} ${sec(percentile(d, 95))} (${d.length})`
  );
  const v8Flags = Deno.readTextFileSync("/proc/self/cmdline").split("\0")
    .filter((a) => a.startsWith("--v8-flags=")).map((a) => a.slice(11)).join(",") || "none";
  console.log([
    `poller bench: ${options.vendors} vendors of ${SIMULATED_PLATFORM_NAMES.length} platforms ` +
    `(${catalog.moving.length} moving), calm ${DEFAULTS.stableSeconds} s with ${DEFAULTS.pulseSeconds} s ` +
    `pulses, moving ${DEFAULTS.movingSeconds} s, ${
      wall.toFixed(0)
    } s, concurrency ${options.concurrency}, ` +
    (hostPerVendor
      ? `a host per vendor (${options.listeners} simulator listeners answering on every loopback ` +
        `address${caPem ? ", over https" : ""})`
      : `${options.listeners} simulator hosts`) +
    ` (simulator in its own process), catalog order ${
      options.order ?? "mixed"
    }, V8 flags: ${v8Flags}`,
    `  requests             ${requests} (polls ${stats.polls}: ok ${stats.ok}, not modified ${stats.notModified}, ` +
    `failed ${stats.failures}; pulses ${stats.pulses}, of which changed ${stats.pulseChanges}; ` +
    `parsed on the worker ${stats.offThreadParses})`,
    `  first readings       ${
      firstReadings
        ? `all ${catalog.all.length} vendors read after ${
          firstReadings.seconds.toFixed(1)
        } s, in ` +
          `${firstReadings.requests} requests`
        : `${firstRead.size} of ${catalog.all.length} vendors read`
    }`,
    `  missed deadlines     ${stats.missedDeadlines}${
      stats.lastMissByMs === null ? "" : `, the last by ${sec(stats.lastMissByMs)}`
    } (due backlog at end ${stats.dueBacklog})`,
    `  calm → trouble       ${delays.calm.length} of ${injected} seen; p95 ${
      sec(percentile(delays.calm, 95))
    } (max ${sec(Math.max(0, ...delays.calm))}; goal ≤ 65 s) | moving vendors: ` +
    `${delays.moving.length} seen, p95 ${sec(percentile(delays.moving, 95))} (goal < 60 s)`,
    `  calm → trouble p95 per platform: ${byPlatform.join(", ")}`,
    `  CPU                  ${cpu.toFixed(2)} s = ${
      (100 * cpu / wall).toFixed(1)
    } % of one core; ` +
    `${perRequest.toFixed(3)} ms per request`,
    `  baseline             bare fetch loop, same ${requests} requests: ${
      baseline.cpu.toFixed(2)
    } s CPU = ` +
    `${basePerRequest.toFixed(3)} ms per request in ${baseline.seconds.toFixed(1)} s ` +
    `(median of 3: ${loops.map((l) => l.cpu.toFixed(2)).join(", ")} s)`,
    `  ratio poller / baseline CPU per request: ${
      (perRequest / basePerRequest).toFixed(2)
    } (goal ≤ 3); the steady part alone (from ${(flipFrom / 1000).toFixed(0)} s, after the first ` +
    `readings): ${steadyPerRequest.toFixed(3)} ms per request over ${steadyRequests} requests, ` +
    `ratio ${(steadyPerRequest / basePerRequest).toFixed(2)}`,
    `  paced baseline       the same GETs at the poller's rate (${
      (requests / wall).toFixed(0)
    }/s, a round a second, ${options.concurrency} at a time) for ${pacedSeconds} s: ${
      pacedPerRequest.toFixed(3)
    } ms per request; ratio poller / paced: ${
      (perRequest / pacedPerRequest).toFixed(2)
    } (whole run)`,
    `  paced, steady rate   the same GETs at the steady part's rate (${
      steadyRate.toFixed(0)
    }/s) for ${pacedSeconds} s: ${pacedSteadyPerRequest.toFixed(3)} ms per request; ` +
    `ratio poller / it: ${(steadyPerRequest / pacedSteadyPerRequest).toFixed(2)} (steady part)`,
    ...(freshPerRequest !== null
      ? [
        `  fresh-TLS baseline   the same GETs over https at the poller's rate, a new TLS ` +
        `connection each: ${freshPerRequest.toFixed(3)} ms per request; ` +
        `ratio poller / it: ${(perRequest / freshPerRequest).toFixed(2)} (whole run), ` +
        `${(steadyPerRequest / freshPerRequest).toFixed(2)} (steady part)`,
      ]
      : []),
    `  peak RSS             ${pollerPeakRss.toFixed(0)} MB (goal < 150 MB)`,
    `  bytes per calm vendor-hour (steady part, headers + bodies as sent over HTTP/1.1): ` +
    `${(perVendorHour / 1024).toFixed(1)} KiB in ${
      (calmRequests / catalog.calm.length / hours).toFixed(0)
    } ` +
    `requests vs today's calm polling ${(todayPerVendorHour / 1024).toFixed(1)} KiB in ` +
    `${3600 / DEFAULTS.stableSeconds} requests: ratio ${
      (perVendorHour / todayPerVendorHour).toFixed(2)
    }; bodies alone ${bodyPerVendorHour.toFixed(0)} B vs ${todayBodyPerVendorHour.toFixed(0)} B: ` +
    `ratio ${(bodyPerVendorHour / todayBodyPerVendorHour).toFixed(2)}`,
  ].join("\n"));
}

const everyLoopback = parseAllowance("127.0.0.0/8");
/** The poller's allowance in host-per-vendor mode. */
const EVERY_LOOPBACK_ADDRESS = everyLoopback.ok ? everyLoopback.allowance : ALLOW_SIMULATOR;

/** The default options (environment variables shorten or grow the run). */
export function pollerBenchOptions(): PollerBenchOptions {
  return {
    vendors: Number(Deno.env.get("BENCH_VENDORS") ?? 10_000),
    seconds: Number(Deno.env.get("BENCH_SECONDS") ?? 150),
    listeners: 250,
    concurrency: 32,
    flipEveryMs: 250,
    movingShare: 0.1,
    hostPerVendor: Deno.env.get("BENCH_HOST_PER_VENDOR") === "1",
    tls: Deno.env.get("BENCH_TLS") === "1",
    order: Deno.env.get("BENCH_ORDER") === "grouped" ? "grouped" : "mixed",
  };
}

if (import.meta.main) await runPollerBench(pollerBenchOptions());
