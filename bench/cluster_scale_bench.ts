/**
 * Several statusd processes on one PostgreSQL, at the size the catalog is heading for (#33):
 * `vendors` simulated vendors (Statuspage for 90 %, incident.io, Instatus, Better Stack and RSS
 * sharing the rest: the platforms whose real adapters read the vendor's own page) polled by
 * `instances` real `main.ts` processes at statusd's default intervals (calm vendors read in full
 * every 300 s and pulsed every 60 s), against the simulator in its own process. After the first
 * readings, for `seconds`: trouble is injected into calm vendors one after another and timed to
 * the change event on `/api/events`; one process is killed with SIGKILL half-way; every process
 * has an SSE client following `/api/events`. Then the same for one process with `singleVendors`
 * vendors, so the cost per vendor can be compared.
 *
 * Prints, per run: missed deadlines, vendors fetched more often than one schedule allows
 * (polled by two instances), calm → trouble p95, each process's CPU (share of one core) and
 * peak RSS, PostgreSQL's CPU, the rows and WAL bytes it wrote and the change rows added per
 * minute; the failover (vendors leased by the killed process, those first polled again after
 * the deadline their last poll promised, the longest gap) and the missed deadlines placed in
 * time; and for every SSE client that lived to the end, the changes of the window it
 * missed (goal 0).
 * @module
 */
import postgres from "postgres";
import type { PollerStats, Vendor } from "../domain/mod.ts";
import { freshDatabase } from "../tests/support/postgres.ts";
import { simulatedCatalog } from "../tests/support/simulator.ts";
import type { SimulatedPlatformName } from "../tests/support/platform_docs.ts";
import { startStatusd, type StatusdProcess } from "../tests/support/statusd_process.ts";
import { simStats, startSimulatorProcess } from "./poller_bench.ts";

/** Options of {@link runClusterScaleBench}. */
export interface ClusterScaleOptions {
  readonly vendors: number;
  readonly instances: number;
  /** Measured seconds after the first readings. */
  readonly seconds: number;
  /** Vendors of the one-process run beside it. */
  readonly singleVendors: number;
  /** Kill one of several processes half-way (failover). */
  readonly kill: boolean;
}

const PULSE_S = 60;
const STABLE_S = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Platforms read from the vendor's own page, and their shares of the catalog. */
const MIX: [SimulatedPlatformName, number][] = [
  ["statuspage", 0.9],
  ["incidentio", 0.025],
  ["instatus", 0.025],
  ["betterstack", 0.025],
  ["rss", 0.025],
];

/**
 * One vendor per simulator group (`<prefix><n>`, so fetches are counted per vendor; each run its
 * own prefix, so one run's trouble is not the next one's start), hosts in turn.
 */
function scaleCatalog(origins: readonly string[], n: number, prefix: string): Vendor[] {
  const out: Vendor[] = [];
  for (const [platform, share] of MIX) {
    const count = platform === "statuspage" ? n - Math.round(n * 0.1) : Math.round(n * share);
    for (let k = 0; k < count && out.length < n; k++) {
      const i = out.length;
      out.push(simulatedCatalog([origins[i % origins.length]!], 1, `${prefix}${i}`, platform)[0]!);
    }
  }
  return out;
}

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) and peak RSS (MiB) of a process. */
async function processUse(pid: number): Promise<{ cpu: number; peakMiB: number }> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpu: (Number(f[11]) + Number(f[12])) / TICKS, peakMiB: hwm / 1024 };
  } catch {
    return { cpu: NaN, peakMiB: NaN };
  }
}

/** CPU seconds the whole machine was busy (all cores) and its number of cores, from /proc/stat. */
async function machineBusy(): Promise<{ busy: number; cores: number }> {
  const text = await Deno.readTextFile("/proc/stat");
  const f = text.split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const cores = text.split("\n").filter((l) => /^cpu\d+ /.test(l)).length;
  return { busy: (total - idle) / TICKS, cores };
}

/**
 * CPU seconds of every PostgreSQL process: the live ones, plus what the postmaster's reaped
 * children used (connections that ended).
 */
async function postgresCpu(): Promise<number> {
  const procs: { pid: number; ppid: number; own: number; reaped: number }[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${e.name}/stat`);
      if (!stat.includes("(postgres)")) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({
        pid: Number(e.name),
        ppid: Number(f[1]),
        own: (Number(f[11]) + Number(f[12])) / TICKS,
        reaped: (Number(f[13]) + Number(f[14])) / TICKS,
      });
    } catch { /* gone */ }
  }
  const pids = new Set(procs.map((p) => p.pid));
  return procs.reduce((sum, p) => sum + p.own + (pids.has(p.ppid) ? 0 : p.reaped), 0);
}

/** What PostgreSQL has written to this database so far. */
async function written(sql: postgres.Sql) {
  const [db] = await sql`SELECT (tup_inserted + tup_updated + tup_deleted)::float8 AS rows
    FROM pg_stat_database WHERE datname = current_database()`;
  const [wal] = await sql`SELECT wal_bytes::float8 AS bytes FROM pg_stat_wal`;
  const [ch] = await sql`SELECT COALESCE(MAX(id), 0)::float8 AS id FROM changes`;
  return { rows: Number(db!.rows), walBytes: Number(wal!.bytes), lastChange: Number(ch!.id) };
}

/** An SSE client of `/api/events` from `after`: resumes on `resume` and on each stream's end. */
function follow(
  base: string,
  after: number,
  onEvent: (id: number, event: string, data: Record<string, unknown>) => void,
) {
  const stop = new AbortController();
  const seen = new Set<number>();
  let last = after;
  /** The stream being read: cancelled on close, as an abort alone may leave a read pending. */
  let reading: ReadableStreamDefaultReader<string> | null = null;
  const done = (async () => {
    while (!stop.signal.aborted) {
      try {
        const res = await fetch(`${base}/api/events?lastEventId=${last}`, {
          signal: stop.signal,
        });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        reading = reader;
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const field = (name: string) =>
              block.split("\n").find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1)
                .trim();
            const id = Number(field("id"));
            const event = field("event");
            const data = field("data");
            if (!event || !data || !Number.isFinite(id)) continue;
            const parsed = JSON.parse(data) as Record<string, unknown>;
            if (event === "resume" || event === "reset") {
              last = Number(parsed.lastEventId);
              continue;
            }
            seen.add(id);
            last = Math.max(last, id);
            onEvent(id, event, parsed);
          }
        }
      } catch {
        if (stop.signal.aborted) break;
        await sleep(500); // its process is gone, or restarting: try again
      }
    }
  })();
  return {
    seen,
    async close() {
      stop.abort();
      await reading?.cancel().catch(() => {});
      await done;
    },
  };
}

/** A statusd process's poller counters, from its `/healthz`. */
async function pollerHealth(
  p: StatusdProcess,
): Promise<Pick<PollerStats, "polls" | "missedDeadlines" | "lastMissAt" | "lastMissByMs">> {
  return (await (await fetch(`${p.base}/healthz`)).json()).poller;
}

/** What {@link failoverWatch} found: the longest gap and the latest poll past its deadline. */
interface Failover {
  readonly seen: number;
  readonly longest: number;
  /** Consecutive failures the vendor of the longest gap had before the kill (backoff). */
  readonly longestFailures: number;
  readonly latePastDeadline: number;
  /** Who leased the latest vendor at the kill ("nobody", or an instance id). */
  readonly latestLeasedBy: string;
  /** Vendors first polled after their deadline, and how many the killed process had leased. */
  readonly late: number;
  readonly lateLeasedByKilled: number;
}

/**
 * Each vendor's last poll, the deadline it promised and its lease, kept just before the kill in
 * a table of this bench's own connection, then, every 2 s until every vendor was polled again or
 * 5 minutes passed, each vendor's first poll after it (a poll stamps `last_checked_at`; no
 * vendor is polled twice within 2 s). Compared row by row, so a poll whose commit comes late is
 * still seen. A vendor backing off after failures is promised more than a pulse interval, so the
 * deadline, not the gap, says whether the kill left it waiting. Answers how many vendors the
 * process `killed` holds a live lease on in that copy, and `watch`, to start at the kill.
 */
async function failoverWatch(sql: postgres.Sql, killed: string) {
  const conn = await sql.reserve();
  await conn`CREATE TEMP TABLE before_kill (id bigint PRIMARY KEY, last bigint NOT NULL,
    deadline_at bigint NOT NULL, failures integer NOT NULL, leased_by text)`;
  await conn`INSERT INTO before_kill SELECT id, last_checked_at, deadline_at, failures,
      CASE WHEN lease_until > ${Date.now()} THEN lease_owner END
    FROM vendors WHERE last_checked_at IS NOT NULL`;
  const [{ held }] = await conn`SELECT COUNT(*)::int AS held FROM before_kill
    WHERE leased_by = ${killed}`;
  const watch = (killAt: number): Promise<Failover> =>
    (async () => {
      const f = {
        seen: 0,
        longest: 0,
        longestFailures: 0,
        latePastDeadline: -Infinity,
        latestLeasedBy: "nobody",
        late: 0,
        lateLeasedByKilled: 0,
      };
      const end = killAt + 5 * 60_000;
      try {
        for (let left = Infinity; left > 0 && Date.now() < end; await sleep(2000)) {
          const rows = await conn`DELETE FROM before_kill b USING vendors v
            WHERE v.id = b.id AND v.last_checked_at > b.last
            RETURNING b.last, b.deadline_at, b.failures, b.leased_by, v.last_checked_at AS at`;
          for (const r of rows) {
            const [last, at, deadline] = [Number(r.last), Number(r.at), Number(r.deadline_at)];
            if (at < killAt) continue; // polled between the snapshot and the kill
            f.seen++;
            const gap = (at - last) / 1000;
            if (gap > f.longest) [f.longest, f.longestFailures] = [gap, r.failures];
            if (deadline <= 0) continue;
            const past = (at - deadline) / 1000;
            if (past > 0) {
              f.late++;
              if (r.leased_by === killed) f.lateLeasedByKilled++;
            }
            if (past > f.latePastDeadline) {
              f.latePastDeadline = past;
              f.latestLeasedBy = r.leased_by ?? "nobody";
            }
          }
          left = Number((await conn`SELECT COUNT(*)::int AS n FROM before_kill`)[0]!.n);
        }
      } finally {
        await conn`DROP TABLE before_kill`;
        conn.release();
      }
      return f;
    })();
  return { held: Number(held), watch };
}

/**
 * Samples every live process's missed deadlines every 5 s, so they can be placed in time
 * (before the kill, in the two minutes after it, later), and the last miss each sample saw (when,
 * and how late: several misses within 5 s show only the last).
 */
function missedTimeline(procs: readonly StatusdProcess[], dead: () => number | null) {
  const samples: { at: number; missed: number[] }[] = [];
  /** The last miss of each process, by when it started. */
  const lastMisses = procs.map(() => new Map<number, number>());
  const stop = new AbortController();
  const done = (async () => {
    while (!stop.signal.aborted) {
      const missed = await Promise.all(procs.map(async (p, i) => {
        if (p.pid === dead()) return NaN;
        try {
          const h = await pollerHealth(p);
          if (h.lastMissAt !== null) lastMisses[i]!.set(h.lastMissAt, h.lastMissByMs ?? 0);
          return h.missedDeadlines;
        } catch {
          return NaN;
        }
      }));
      samples.push({ at: Date.now(), missed });
      await sleep(5000);
    }
  })();
  return {
    /** Missed deadlines first seen in [from, to), summed over the processes. */
    between(from: number, to: number): number {
      let sum = 0;
      procs.forEach((_, i) => {
        let prev = NaN;
        for (const s of samples) {
          const m = s.missed[i]!;
          if (Number.isNaN(m)) continue;
          if (!Number.isNaN(prev) && s.at >= from && s.at < to) sum += m - prev;
          prev = m;
        }
      });
      return sum;
    },
    /** How late the sampled misses that started in [from, to) were (ms), latest first. */
    lateness(from: number, to: number): number[] {
      return lastMisses.flatMap((m) => [...m].filter(([at]) => at >= from && at < to))
        .sort((a, b) => b[0] - a[0]).map(([, by]) => by);
    },
    async close() {
      stop.abort();
      await done;
    },
  };
}

interface RunReport {
  readonly label: string;
  readonly vendors: number;
  readonly instances: number;
  readonly cpuPerVendorMinute: number;
  readonly pgCpuPerVendorMinute: number;
  readonly rowsPerVendorMinute: number;
  readonly walPerVendorMinute: number;
}

const p95 = (xs: number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]! : NaN;
const fmt = (n: number, d = 1) => n.toLocaleString("en-US", { maximumFractionDigits: d });

/** One run: `count` vendors over `instances` processes sharing a fresh database. */
async function run(
  label: string,
  sim: { origins: string[]; pid: number },
  count: number,
  instances: number,
  seconds: number,
  killOne: boolean,
): Promise<RunReport> {
  const db = await freshDatabase();
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const dir = await Deno.makeTempDir({ prefix: "statusd-scale-" });
  const vendors = scaleCatalog(sim.origins, count, label[0]!);
  const catalogPath = `${dir}/catalog.json`;
  await Deno.writeTextFile(catalogPath, JSON.stringify(vendors));
  const env = (i: number) => ({
    STATUSD_DATABASE_URL: db.url,
    STATUSD_CATALOG: catalogPath,
    STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
    STATUSD_PROBES: "off",
    STATUSD_LOG: "info", // the "listening" line is at info
    STATUSD_INSTANCE_ID: `scale-${i}`,
  });
  const procs: StatusdProcess[] = [];
  const clients: ReturnType<typeof follow>[] = [];
  const origin = sim.origins[0]!;
  try {
    const started = Date.now();
    procs.push(await startStatusd(env(0))); // the first one syncs the catalog
    procs.push(
      ...await Promise.all(
        Array.from({ length: instances - 1 }, (_, i) => startStatusd(env(i + 1))),
      ),
    );
    for (;;) {
      const [{ n }] = await sql`SELECT COUNT(*)::int AS n FROM vendors
        WHERE last_checked_at IS NOT NULL`;
      if (n >= count) break;
      if (Date.now() - started > 20 * 60_000) throw new Error(`only ${n} of ${count} read`);
      await sleep(2000);
    }
    const health0 = await Promise.all(procs.map(pollerHealth));
    console.log(
      `  ${label}: ${fmt(count, 0)} vendors, ${instances} process(es): every vendor read once ` +
        `${fmt((Date.now() - started) / 1000)} s after the start, in ` +
        `${fmt(health0.reduce((s, h) => s + h.polls, 0), 0)} polls of which ` +
        `${health0.reduce((s, h) => s + h.missedDeadlines, 0)} started after their deadline`,
    );

    // The window.
    const from = await written(sql);
    const detected = new Map<string, number>();
    for (const p of procs) {
      clients.push(follow(p.base, from.lastChange, (_id, event, data) => {
        if (event === "status" && data.component === null && data.to !== "OPERATIONAL") {
          const slug = String(data.slug);
          if (!detected.has(slug)) detected.set(slug, Date.now());
        }
      }));
    }
    const use0 = await Promise.all(procs.map((p) => processUse(p.pid)));
    const pg0 = await postgresCpu();
    const sim0 = await processUse(sim.pid);
    const box0 = await machineBusy();
    const fetched0 = (await simStats(origin)).groups;
    const t0 = Date.now();

    // Trouble into calm vendors, evenly spread, the last 65 s before the end left to see it.
    const flips = Math.max(10, Math.round((seconds - 75) / 5));
    const victims = vendors.filter((_, i) => i % Math.floor(count / flips) === 7).slice(0, flips);
    const injected = new Map<string, number>();
    let killed: {
      at: number;
      pid: number;
      held: number;
      last: typeof health0[0];
      use: { cpu: number; peakMiB: number };
    } | null = null;
    let failover: Promise<Failover> | null = null;
    const timeline = missedTimeline(procs, () => killed?.pid ?? null);
    const killAt = t0 + (seconds * 1000) / 2;
    for (let k = 0; Date.now() - t0 < seconds * 1000; k++) {
      const due = t0 + 10_000 + k * 5_000;
      if (k < victims.length && due < t0 + (seconds - 65) * 1000) {
        await sleep(Math.max(0, due - Date.now()));
        const v = victims[k]!;
        await (await fetch(`${origin}/_control/${v.slug}/outage`, { method: "POST" })).text();
        injected.set(v.slug, Date.now());
      } else {
        await sleep(1000);
      }
      if (killOne && killed === null && Date.now() >= killAt) {
        const victim = procs[procs.length - 1]!;
        const last = await pollerHealth(victim);
        const use = await processUse(victim.pid);
        const { held, watch } = await failoverWatch(sql, `scale-${procs.length - 1}`);
        const at = Date.now();
        await victim.kill();
        killed = { at, pid: victim.pid, held, last, use };
        failover = watch(at);
      }
    }
    const t1 = Date.now();
    await timeline.close();
    const minutes = (t1 - t0) / 60_000;
    const use1 = await Promise.all(
      procs.map((p) => p.pid === killed?.pid ? killed.use : processUse(p.pid)),
    );
    const pg1 = await postgresCpu();
    const sim1 = await processUse(sim.pid);
    const box1 = await machineBusy();
    const to = await written(sql);
    const fetched1 = (await simStats(origin)).groups;
    const health1 = await Promise.all(
      procs.map((p) => p.pid === killed?.pid ? killed.last : pollerHealth(p)),
    );
    await sleep(5000); // the last changes reach every client
    const end = (await written(sql)).lastChange;
    const expected = (await sql`SELECT id FROM changes WHERE id > ${from.lastChange}
      AND id <= ${end}`).map((r) => Number(r.id));

    // Figures.
    const missed = health1.reduce(
      (s, h, i) => s + h.missedDeadlines - health0[i]!.missedDeadlines,
      0,
    );
    const polls = health1.reduce((s, h, i) => s + h.polls - health0[i]!.polls, 0);
    const flipped = new Set(injected.keys());
    const allowed = Math.ceil((t1 - t0) / 1000 / PULSE_S) + Math.ceil((t1 - t0) / 1000 / STABLE_S) +
      2;
    const perVendor = vendors.filter((v) => !flipped.has(v.slug)).map((v) => {
      const g = v.slug.split("-")[0]!;
      return (fetched1[g]?.requests ?? 0) - (fetched0[g]?.requests ?? 0);
    });
    const latencies = [...injected].flatMap(([slug, at]) => {
      const seen = detected.get(slug);
      return seen === undefined ? [] : [(seen - at) / 1000];
    });
    console.log(
      `    ${fmt(minutes)} min after the first readings: ${fmt(polls, 0)} polls (pulses ` +
        `included), missed deadlines ${missed}; fetches per calm vendor: max ` +
        `${Math.max(...perVendor)}, one schedule allows ${allowed}, vendors over: ` +
        `${perVendor.filter((n) => n > allowed).length}`,
    );
    console.log(
      `    calm → trouble: ${latencies.length} of ${injected.size} seen, p95 ` +
        `${fmt(p95(latencies))} s, max ${fmt(Math.max(...latencies))} s (goal ≤ 65 s)`,
    );
    const cpuTotal = procs.reduce((s, _, i) => s + (use1[i]!.cpu - use0[i]!.cpu || 0), 0);
    procs.forEach((p, i) => {
      const ran = p.pid === killed?.pid ? (killed.at - t0) / 1000 : (t1 - t0) / 1000;
      console.log(
        `    process ${i}${p.pid === killed?.pid ? " (killed half-way)" : ""}: CPU ` +
          `${fmt((100 * (use1[i]!.cpu - use0[i]!.cpu)) / ran)} % of a core, peak RSS ` +
          `${fmt(Math.max(use0[i]!.peakMiB, use1[i]!.peakMiB || 0), 0)} MiB, ` +
          `${fmt(health1[i]!.polls - health0[i]!.polls, 0)} polls, missed deadlines ` +
          `${health1[i]!.missedDeadlines - health0[i]!.missedDeadlines}`,
      );
    });
    const pgCpu = pg1 - pg0;
    console.log(
      `    PostgreSQL: CPU ${fmt((100 * pgCpu) / ((t1 - t0) / 1000))} % of a core; per minute ` +
        `${fmt((to.rows - from.rows) / minutes, 0)} rows written, ` +
        `${fmt((to.walBytes - from.walBytes) / minutes / 1048576, 2)} MiB of WAL, ` +
        `${fmt((to.lastChange - from.lastChange) / minutes, 0)} change rows`,
    );
    const window = (t1 - t0) / 1000;
    console.log(
      `    the machine: ${fmt((box1.busy - box0.busy) / window, 2)} of its ${box0.cores} cores ` +
        `busy (the simulator ${fmt((100 * (sim1.cpu - sim0.cpu)) / window)} % of a core, the ` +
        "rest statusd, PostgreSQL and this bench)",
    );
    if (killed && failover) {
      const f = await failover;
      const after = killed.at + 120_000;
      console.log(
        `    missed deadlines by when (sampled every 5 s): ${timeline.between(t0, killed.at)} ` +
          `before the kill, ${timeline.between(killed.at, after)} in the 2 min after it, ` +
          `${timeline.between(after, t1 + 1)} later; by 30 s of the window: ` +
          Array.from(
            { length: Math.ceil((t1 - t0) / 30_000) },
            (_, k) => timeline.between(t0 + k * 30_000, Math.min(t1 + 1, t0 + (k + 1) * 30_000)),
          ).join(" "),
      );
      const late = (from: number, to: number) => {
        const by = timeline.lateness(from, to);
        return by.length === 0
          ? "none"
          : `${by.length}, by ${by.slice(0, 8).map((ms) => fmt(ms / 1000, 1)).join(", ")}${
            by.length > 8 ? ", …" : ""
          } s (max ${fmt(Math.max(...by) / 1000, 1)} s)`;
      };
      console.log(
        `    how late (the last miss of each process, sampled every 5 s): before the kill ` +
          `${late(t0, killed.at)}; after it ${late(killed.at, t1 + 1)}`,
      );
      console.log(
        `    failover: process ${procs.length - 1} killed holding ${killed.held} vendors' ` +
          `leases; ${fmt(f.seen, 0)} of ${fmt(count, 0)} vendors polled again by the others; ` +
          `${fmt(f.late, 0)} of them after the deadline their last poll promised ` +
          `(${f.lateLeasedByKilled} leased by the killed process), ` +
          (f.latePastDeadline > 0
            ? `the latest ${fmt(f.latePastDeadline)} s after it (leased by ` +
              `${f.latestLeasedBy} at the kill; goal ≤ 20 s, one lease)`
            : `the closest ${fmt(-f.latePastDeadline)} s before it`) +
          `; the longest gap between two polls of a vendor across the ` +
          `kill ${fmt(f.longest)} s (pulse every ${PULSE_S} s; that vendor had ` +
          `${f.longestFailures} failures before it, each doubling its wait)`,
      );
    }
    const failed = await sql`SELECT outcome, COUNT(*)::int AS n FROM fetches
      WHERE at >= ${t0} AND at < ${t1} AND outcome NOT IN ('ok', 'not_modified')
      GROUP BY outcome ORDER BY n DESC`;
    console.log(
      `    failed polls in the window: ${failed.reduce((s, r) => s + r.n, 0)}` +
        (failed.length ? ` (${failed.map((r) => `${r.outcome} ${r.n}`).join(", ")})` : ""),
    );
    const survivors = clients.filter((_, i) => procs[i]!.pid !== killed?.pid);
    const missing = survivors.map((c) => expected.filter((id) => !c.seen.has(id)).length);
    console.log(
      `    SSE: ${expected.length} changes committed in the window; missed by the ${survivors.length} ` +
        `clients of the processes alive at the end: ${missing.join(", ")} (goal 0 each)`,
    );
    const vendorMinutes = count * minutes;
    return {
      label,
      vendors: count,
      instances,
      cpuPerVendorMinute: (1000 * cpuTotal) / vendorMinutes,
      pgCpuPerVendorMinute: (1000 * pgCpu) / vendorMinutes,
      rowsPerVendorMinute: (to.rows - from.rows) / vendorMinutes,
      walPerVendorMinute: (to.walBytes - from.walBytes) / vendorMinutes,
    };
  } finally {
    for (const c of clients) await c.close();
    await Promise.all(procs.map((p) => p.stop()));
    await sql.end();
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Runs the benchmark and prints its report. */
export async function runClusterScaleBench(o: ClusterScaleOptions): Promise<void> {
  const sim = await startSimulatorProcess(250);
  console.log(
    `cluster-scale: statusd processes on one PostgreSQL, default intervals (full read every ` +
      `${STABLE_S} s, pulse every ${PULSE_S} s), ${o.seconds} s measured after the first ` +
      "readings, simulator in its own process",
  );
  try {
    const many = await run(
      "many",
      sim,
      o.vendors,
      o.instances,
      o.seconds,
      o.instances > 1 && o.kill,
    );
    const one = await run("one", sim, o.singleVendors, 1, o.seconds, false);
    const ratio = (a: number, b: number) => fmt(a / b, 2);
    console.log(
      `  per vendor-minute, ${fmt(o.vendors, 0)} on ${o.instances} against ` +
        `${fmt(o.singleVendors, 0)} on one: statusd CPU ${fmt(many.cpuPerVendorMinute, 3)} ms vs ` +
        `${fmt(one.cpuPerVendorMinute, 3)} ms (ratio ${
          ratio(many.cpuPerVendorMinute, one.cpuPerVendorMinute)
        }), PostgreSQL CPU ${fmt(many.pgCpuPerVendorMinute, 3)} ms vs ` +
        `${fmt(one.pgCpuPerVendorMinute, 3)} ms (ratio ${
          ratio(many.pgCpuPerVendorMinute, one.pgCpuPerVendorMinute)
        }), rows ${fmt(many.rowsPerVendorMinute, 3)} vs ${fmt(one.rowsPerVendorMinute, 3)}, WAL ` +
        `${fmt(many.walPerVendorMinute, 0)} B vs ${fmt(one.walPerVendorMinute, 0)} B`,
    );
  } finally {
    sim.stop();
  }
}

/**
 * Options from the environment (BENCH_SCALE_VENDORS, _INSTANCES, _SECONDS, _SINGLE; `_KILL=0`
 * keeps every process alive).
 */
export function clusterScaleOptions(): ClusterScaleOptions {
  const n = (name: string, fallback: number) => Number(Deno.env.get(name) ?? fallback);
  return {
    vendors: n("BENCH_SCALE_VENDORS", 50_000),
    instances: n("BENCH_SCALE_INSTANCES", 5),
    seconds: n("BENCH_SCALE_SECONDS", 300),
    singleVendors: n("BENCH_SCALE_SINGLE", 10_000),
    kill: Deno.env.get("BENCH_SCALE_KILL") !== "0",
  };
}

if (import.meta.main) await runClusterScaleBench(clusterScaleOptions());
