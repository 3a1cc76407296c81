/**
 * Recording polls on PostgreSQL against SQLite (issues #11, #15): the same vendors in a fresh
 * SQLite file and a fresh PostgreSQL database (the test rig's throwaway server on loopback), then
 * `concurrency` writers record polls as the poller does — pulses (most of a calm catalog's
 * writes), 304 answers and full reads that changed nothing (20 components, an incident) — for a
 * few seconds per engine, interleaved. Prints records per second
 * and CPU ms per 1,000 records of this process per engine (PostgreSQL's own CPU not counted) and
 * the ratio PostgreSQL / SQLite. SQLite's rate is bounded by its group commit window
 * (store/sqlite/write_batch.ts: each writer waits up to 20 ms per record), not by its CPU.
 * @module
 */
import { DAY_MS, type PollRecord, type Snapshot, type Store } from "../domain/mod.ts";
import { openSqliteStore } from "../store/mod.ts";
import { openPostgresStore } from "../store/postgres/mod.ts";
import { freshDatabase } from "../tests/support/postgres.ts";
import { syncVendors, vendorOf } from "../tests/support/seed.ts";
import { cpuSeconds } from "./poller_bench.ts";

/** Options of {@link runRecordsBench}. */
export interface RecordsBenchOptions {
  readonly vendors: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly concurrency: number;
}

interface Result {
  readonly perSecond: number;
  readonly cpuMsPer1000: number;
}

/** What a full read of every vendor shows: 20 components and one resolved incident. */
const SNAPSHOT: Snapshot = {
  indicator: "OPERATIONAL",
  components: Array.from({ length: 20 }, (_, i) => ({
    externalId: `c${i}`,
    name: `Component ${i}`,
    group: i < 10 ? "API" : null,
    status: "OPERATIONAL",
  })),
  incidents: [{
    externalId: "inc-1",
    title: "Elevated errors",
    status: "RESOLVED",
    impact: "MINOR",
    startedAt: Date.UTC(2026, 0, 1),
    updatedAt: Date.UTC(2026, 0, 1, 2),
    resolvedAt: Date.UTC(2026, 0, 1, 2),
    url: null,
    componentIds: ["c1"],
    updates: [
      { at: Date.UTC(2026, 0, 1), status: "INVESTIGATING", body: "Looking into it." },
      { at: Date.UTC(2026, 0, 1, 2), status: "RESOLVED", body: "Fixed." },
    ],
  }],
};

/** The kinds of poll records measured. */
const KINDS: Record<string, (store: Store, id: number, poll: PollRecord) => Promise<unknown>> = {
  recordPulse: (store, id, poll) => store.polls.recordPulse(id, poll),
  recordNotModified: (store, id, poll) => store.polls.recordNotModified(id, poll),
  "recordSuccess (nothing changed)": (store, id, poll) =>
    store.polls.recordSuccess(id, SNAPSHOT, { ...poll, etag: null, lastModified: null, notes: [] }),
};
type Kind = keyof typeof KINDS;

/** `concurrency` loops recording `kind` for the vendors `ids` in turn, for `seconds`. */
async function load(store: Store, ids: readonly number[], kind: Kind, o: RecordsBenchOptions) {
  const cpu0 = cpuSeconds();
  const start = performance.now();
  const end = start + o.seconds * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: o.concurrency }, async () => {
    while (performance.now() < end) {
      const at = Date.now();
      const poll = {
        at,
        latencyMs: 40 + (n % 200),
        httpStatus: kind === "recordNotModified" ? 304 : 200,
        nextPollAt: at + 300_000,
        deadlineAt: at + 330_000,
      };
      await KINDS[kind]!(store, ids[n++ % ids.length]!, poll);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  const cpuMs = (cpuSeconds() - cpu0) * 1000;
  return { perSecond: n / seconds, cpuMsPer1000: (cpuMs / n) * 1000 } satisfies Result;
}

async function vendorIds(store: Store, count: number, now: number): Promise<number[]> {
  await syncVendors(
    store,
    Array.from({ length: count }, (_, i) => vendorOf({ slug: `rec-${i}` })),
    now - DAY_MS,
  );
  const ids = (await store.polls.claimDue(now + DAY_MS, count)).map((v) => v.id);
  // The first reading of each: later ones find it stored and change nothing.
  for (const id of ids) {
    await KINDS["recordSuccess (nothing changed)"]!(store, id, {
      at: now - 1000,
      latencyMs: 50,
      httpStatus: 200,
      nextPollAt: now,
      deadlineAt: now,
    });
  }
  return ids;
}

/** Runs the benchmark and prints one line per kind of record. */
export async function runRecordsBench(o: RecordsBenchOptions): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "statusd-records-" });
  const db = await freshDatabase();
  const sqlite = openSqliteStore(`${dir}/bench.db`);
  const pg = await openPostgresStore(db.url, { poolSize: 10 });
  try {
    const now = Date.now();
    const onSqlite = await vendorIds(sqlite, o.vendors, now);
    const onPg = await vendorIds(pg, o.vendors, now);
    console.log(
      `records: ${o.vendors} vendors; PostgreSQL 15 on loopback (pool of 10) vs SQLite (WAL, ` +
        `group commit); ${o.concurrency} writers, ${o.rounds} × ${o.seconds} s per engine, interleaved`,
    );
    for (const kind of Object.keys(KINDS)) {
      const s: Result[] = [];
      const p: Result[] = [];
      for (let i = 0; i < o.rounds; i++) {
        s.push(await load(sqlite, onSqlite, kind, o));
        p.push(await load(pg, onPg, kind, o));
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      const sRate = median(s.map((r) => r.perSecond));
      const pRate = median(p.map((r) => r.perSecond));
      console.log(
        `${kind}: SQLite ${sRate.toFixed(0)}/s, ${
          median(s.map((r) => r.cpuMsPer1000)).toFixed(0)
        } CPU ms per 1,000 | PostgreSQL ${pRate.toFixed(0)}/s, ${
          median(p.map((r) => r.cpuMsPer1000)).toFixed(0)
        } CPU ms per 1,000 | ratio PostgreSQL / SQLite ${(pRate / sRate).toFixed(2)}`,
      );
    }
  } finally {
    await sqlite.close();
    await pg.close();
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The options from the environment (`RECORDS_BENCH_SECONDS`, `RECORDS_BENCH_ROUNDS`). */
export function recordsBenchOptions(): RecordsBenchOptions {
  return {
    vendors: 1_000,
    seconds: Number(Deno.env.get("RECORDS_BENCH_SECONDS") ?? 4),
    rounds: Number(Deno.env.get("RECORDS_BENCH_ROUNDS") ?? 3),
    concurrency: 32,
  };
}

if (import.meta.main) await runRecordsBench(recordsBenchOptions());
