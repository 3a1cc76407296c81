/**
 * API throughput: `GET /api/services?limit=100`, `GET /api/services/{slug}`, the status
 * badge `GET /badge/{slug}.svg` and the service page `GET /services/{slug}` (HTML) served by
 * the full statusd app (Hono, middleware, verbs, response cache) over a store holding the whole
 * built-in catalog (2,463+ services with transitions and incidents), against a bare
 * `Deno.serve` returning the same bytes, in the same run, on loopback, with `wrk`
 * (or, without wrk, an in-process loop of concurrent fetches). Prints req/s, p99 and the ratio.
 * @module
 */
import { createAppContext } from "../app/mod.ts";
import { openSqliteStore } from "../store/mod.ts";
import { loadCatalog } from "../ingest/mod.ts";
import { createResponseCache, createServer } from "../routes/mod.ts";
import { DAY_MS, HOUR_MS, type Snapshot, type StatusLevel } from "../domain/mod.ts";
import { systemClock } from "../clock.ts";
import { silentLogger } from "../log.ts";

/** Options of {@link runApiBench}. */
export interface ApiBenchOptions {
  /** Seconds per measured run (each target is run `rounds` times, interleaved). */
  readonly seconds: number;
  readonly rounds: number;
  /** Open connections. */
  readonly connections: number;
}

interface Result {
  readonly rps: number;
  readonly p99Ms: number;
}

const LEVELS: StatusLevel[] = [
  "OPERATIONAL",
  "DEGRADED_PERFORMANCE",
  "PARTIAL_OUTAGE",
  "MAJOR_OUTAGE",
];

/**
 * Fills a store with the built-in catalog plus 30 days of readings (six level changes each) and
 * some open incidents, recorded through the store's port as the poller would.
 */
export async function seededStore(path = ":memory:") {
  const store = openSqliteStore(path);
  const now = systemClock.now();
  const vendors = loadCatalog();
  await store.catalog.sync(vendors, now);
  const page = await store.catalog.page({}, { page: 0, limit: vendors.length }, {
    start: now,
    end: now,
  });
  const ids = [...page.rows].map((r) => r.service.id).sort((a, b) => a - b);
  // Vendors are seeded side by side, each one's readings in order: SQLite commits poll records
  // in groups (store/sqlite/write_batch.ts), and one writer at a time would wait out the commit
  // window on every record (minutes for the catalog).
  const seedOne = async (i: number, id: number) => {
    let at = now - 30 * DAY_MS;
    let level: StatusLevel = "OPERATIONAL";
    const read = (snapshot: Snapshot, t: number) =>
      store.polls.recordSuccess(id, snapshot, {
        at: t,
        latencyMs: 50,
        httpStatus: 200,
        nextPollAt: now + 60_000,
        deadlineAt: now + 60_000,
        etag: null,
        lastModified: null,
        notes: [],
      });
    for (let k = 0; k < 6; k++) {
      level = k % 2 === 0 ? "OPERATIONAL" : LEVELS[(i + k) % LEVELS.length]!;
      await read({ indicator: level, components: [], incidents: [] }, at);
      at += 4 * DAY_MS + (i % 13) * HOUR_MS;
    }
    const incidents = i % 10 === 0
      ? [{
        externalId: `bench-${i}`,
        title: `Incident ${i}`,
        status: "INVESTIGATING" as const,
        impact: "MINOR" as const,
        startedAt: now - HOUR_MS,
        updatedAt: now,
        resolvedAt: null,
        url: null,
        componentIds: [],
        updates: [],
      }]
      : [];
    await read({ indicator: level, components: [], incidents }, now);
  };
  let next = 0;
  await Promise.all(Array.from({ length: 128 }, async () => {
    while (next < ids.length) {
      const i = next++;
      await seedOne(i, ids[i]!);
    }
  }));
  return { store, count: ids.length };
}

async function wrk(url: string, o: ApiBenchOptions): Promise<Result> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${o.connections}`, `-d${o.seconds}s`, "--latency", url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(text);
  const p99Ms = m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 }[m[2] as "us" | "ms" | "s"]) : NaN;
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (errors) throw new Error(`wrk saw ${errors[1]} error responses from ${url}`);
  return { rps, p99Ms };
}

/** Fallback load: `connections` concurrent fetch loops in this process. */
async function fetchLoop(url: string, o: ApiBenchOptions): Promise<Result> {
  const latencies: number[] = [];
  const end = performance.now() + o.seconds * 1000;
  await Promise.all(Array.from({ length: o.connections }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
    }
  }));
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / o.seconds,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
  };
}

async function hasWrk(): Promise<boolean> {
  try {
    return (await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" })
      .output())
      .code !== 127;
  } catch {
    return false;
  }
}

/** Runs the benchmark and prints one line per endpoint. */
export async function runApiBench(o: ApiBenchOptions): Promise<void> {
  const { store, count } = await seededStore();
  const app = createServer({
    app: createAppContext({
      store,
      clock: systemClock,
      log: silentLogger,
      settings: { publicUrl: "http://127.0.0.1", pollStableSeconds: 300, pollMovingSeconds: 60 },
    }),
    responseCache: createResponseCache(store.changes),
  });
  const statusd = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${statusd.addr.port}`;
  const slug = (await store.catalog.names())[1000]!.slug;
  const paths = [
    "/api/services?limit=100",
    `/api/services/${slug}`,
    `/badge/${slug}.svg`,
    `/services/${slug}`,
  ];
  const bytes = new Map<string, { body: Uint8Array<ArrayBuffer>; type: string }>();
  for (const p of paths) {
    const res = await fetch(base + p);
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    const type = res.headers.get("content-type")!;
    bytes.set(p, { body: new Uint8Array(await res.arrayBuffer()), type });
  }
  const bare = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const hit = bytes.get(url.pathname + url.search);
    return hit
      ? new Response(hit.body, { headers: { "content-type": hit.type } })
      : new Response("not found", { status: 404 });
  });
  const bareBase = `http://127.0.0.1:${bare.addr.port}`;
  const load = (await hasWrk()) ? wrk : fetchLoop;
  console.log(
    `api: ${count} services in the store; ${load === wrk ? "wrk" : "in-process fetch loop"}, ` +
      `${o.connections} connections, ${o.rounds} × ${o.seconds} s per target, interleaved`,
  );
  try {
    for (const p of paths) {
      const ours: Result[] = [];
      const theirs: Result[] = [];
      for (let i = 0; i < o.rounds; i++) {
        ours.push(await load(base + p, o));
        theirs.push(await load(bareBase + p, o));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const rps = median(ours.map((r) => r.rps));
      const bareRps = median(theirs.map((r) => r.rps));
      console.log(
        `GET ${p.replace(slug, "{slug}")} (${bytes.get(p)!.body.length} B): statusd ${
          rps.toFixed(0)
        } req/s ` +
          `p99 ${median(ours.map((r) => r.p99Ms)).toFixed(2)} ms | bare Deno.serve ` +
          `${bareRps.toFixed(0)} req/s p99 ${median(theirs.map((r) => r.p99Ms)).toFixed(2)} ms | ` +
          `ratio ${(rps / bareRps).toFixed(2)} (target ≥ 0.80)`,
      );
    }
  } finally {
    await statusd.shutdown();
    await bare.shutdown();
    await store.close();
  }
}

if (import.meta.main) {
  await runApiBench({
    seconds: Number(Deno.env.get("API_BENCH_SECONDS") ?? 5),
    rounds: Number(Deno.env.get("API_BENCH_ROUNDS") ?? 3),
    connections: 50,
  });
}
