/**
 * PostgreSQL against SQLite behind the same API (issue #11): the built-in catalog with 30 days
 * of history is seeded into a SQLite file and copied into a fresh PostgreSQL database
 * (`admin copy-to-postgres`'s code), then the same statusd app is served over each store and
 * loaded in turn, in the same run: `GET /api/services?limit=100` and one service, each request
 * with a query the response cache has never seen (so every request reads the store), with the
 * concurrency given. Prints req/s and p99 per engine and the ratio PostgreSQL / SQLite.
 * PostgreSQL is the test rig's throwaway server (tests/support/postgres.ts) on loopback.
 * @module
 */
import { createAppContext } from "../app/mod.ts";
import type { Store } from "../domain/mod.ts";
import { systemClock } from "../clock.ts";
import { silentLogger } from "../log.ts";
import { createResponseCache, createServer } from "../routes/mod.ts";
import { openSqliteStore } from "../store/mod.ts";
import { copySqliteToPostgres } from "../store/copy_to_postgres.ts";
import { openPostgresStore } from "../store/postgres/mod.ts";
import { freshDatabase } from "../tests/support/postgres.ts";
import { seededStore } from "./api_bench.ts";

/** Options of {@link runEnginesBench}. */
export interface EnginesBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

interface Result {
  readonly rps: number;
  readonly p99Ms: number;
}

/** `connections` concurrent fetch loops, each request with a fresh cache-busting query. */
async function load(url: (n: number) => string, o: EnginesBenchOptions): Promise<Result> {
  const latencies: number[] = [];
  const end = performance.now() + o.seconds * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: o.connections }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(url(n++));
      if (res.status !== 200) throw new Error(`${res.url} answered ${res.status}`);
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

function serve(store: Store) {
  const app = createServer({
    app: createAppContext({
      store,
      clock: systemClock,
      log: silentLogger,
      settings: { publicUrl: "http://127.0.0.1", pollStableSeconds: 300, pollMovingSeconds: 60 },
    }),
    responseCache: createResponseCache(store.changes),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  return { server, base: `http://127.0.0.1:${server.addr.port}` };
}

/** Runs the benchmark and prints one line per endpoint. */
export async function runEnginesBench(o: EnginesBenchOptions): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "statusd-engines-" });
  const path = `${dir}/bench.db`;
  const seeded = await seededStore(path);
  await seeded.store.close();
  const db = await freshDatabase();
  await copySqliteToPostgres(path, db.url);
  const sqlite = openSqliteStore(path);
  const pg = await openPostgresStore(db.url, { poolSize: 10 });
  const a = serve(sqlite);
  const b = serve(pg);
  const slug = (await sqlite.catalog.names())[1000]!.slug;
  const targets: [string, (base: string) => (n: number) => string][] = [
    ["/api/services?limit=100", (base) => (n) => `${base}/api/services?limit=100&bench=${n}`],
    [`/api/services/{slug}`, (base) => (n) => `${base}/api/services/${slug}?bench=${n}`],
  ];
  console.log(
    `engines: ${seeded.count} services; PostgreSQL 15 on loopback (pool of 10) vs SQLite (WAL); ` +
      `${o.connections} connections, ${o.rounds} × ${o.seconds} s per engine, interleaved, ` +
      "every request past the response cache",
  );
  try {
    for (const [name, url] of targets) {
      const onSqlite: Result[] = [];
      const onPg: Result[] = [];
      for (let i = 0; i < o.rounds; i++) {
        onSqlite.push(await load(url(a.base), o));
        onPg.push(await load(url(b.base), o));
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      const s = median(onSqlite.map((r) => r.rps));
      const p = median(onPg.map((r) => r.rps));
      console.log(
        `GET ${name}: SQLite ${s.toFixed(0)} req/s p99 ${
          median(onSqlite.map((r) => r.p99Ms)).toFixed(1)
        } ms | PostgreSQL ${p.toFixed(0)} req/s p99 ${
          median(onPg.map((r) => r.p99Ms)).toFixed(1)
        } ms | ratio PostgreSQL / SQLite ${(p / s).toFixed(2)}`,
      );
    }
  } finally {
    await a.server.shutdown();
    await b.server.shutdown();
    await sqlite.close();
    await pg.close();
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  await runEnginesBench({
    seconds: Number(Deno.env.get("ENGINES_BENCH_SECONDS") ?? 5),
    rounds: Number(Deno.env.get("ENGINES_BENCH_ROUNDS") ?? 3),
    connections: 20,
  });
}
