/**
 * Alerting at scale (issue #28), in one run on SQLite and then on PostgreSQL with three
 * instances: 10,000 accounts, 100,000 monitors over the built-in catalog, 20,000 rules, 2,000
 * webhook routes to loopback receivers, and 1,000 vendor changes in 60 s.
 *
 * Prints, per engine:
 * - committed change → first byte at the receiver, p50/p95 (goal p95 < 2 s);
 * - the evaluator's CPU per change, against recording that change (the poller's own write,
 *   measured alone in the same run) — re-evaluating the run's changes with nothing else running;
 * - the idle CPU over 60 s with no change (goal < 1 % of a core), and peak RSS.
 *
 * On PostgreSQL it also checks, from the receivers' side, that every notification was delivered
 * exactly once. The three instances must deliver exactly the set of deliveries SQLite delivered:
 * the same seeded changes on a copy of the same data give the same ids.
 * @module
 */
import {
  createAppContext,
  evaluateAlerts,
  EVALUATOR_CURSOR,
  startAlertEvaluator,
} from "../app/mod.ts";
import type { AppContext } from "../app/mod.ts";
import type { Account, RuleTarget, Snapshot, StatusLevel, Store } from "../domain/mod.ts";
import { parseAllowance } from "../lib/mod.ts";
import { loadCatalog } from "../ingest/catalog.ts";
import { silentLogger } from "../log.ts";
import { createHttpSender } from "../outbound/send_http.ts";
import { createDeliveryWorker } from "../outbound/worker.ts";
import { copySqliteToPostgres } from "../store/copy_to_postgres.ts";
import { openSqliteStore } from "../store/mod.ts";
import { openPostgresStore } from "../store/postgres/mod.ts";
import { freshDatabase } from "../tests/support/postgres.ts";
import { recordReading } from "../tests/support/seed.ts";
import { cpuSeconds } from "./poller_bench.ts";
import { percentile } from "./_stats.ts";

/** Options of {@link runAlertsScaleBench}. */
export interface AlertsScaleOptions {
  readonly accounts: number;
  readonly monitorsPerAccount: number;
  /** Accounts with a webhook route (their rules send to it; the others' rules send nowhere). */
  readonly routes: number;
  readonly changes: number;
  /** Over how long the changes are spread. */
  readonly seconds: number;
  readonly idleSeconds: number;
}

/** Options from the environment (ALERTS_SCALE_ACCOUNTS, _MONITORS, _ROUTES, _CHANGES, …). */
export function alertsScaleOptions(): AlertsScaleOptions {
  const n = (name: string, d: number) => Number(Deno.env.get(`ALERTS_SCALE_${name}`) ?? d);
  return {
    accounts: n("ACCOUNTS", 10_000),
    monitorsPerAccount: n("MONITORS", 10),
    routes: n("ROUTES", 2_000),
    changes: n("CHANGES", 1_000),
    seconds: n("SECONDS", 60),
    idleSeconds: n("IDLE_SECONDS", 60),
  };
}

const COMPONENTS = ["API", "Web", "Jobs"];
const HOT = 20;

function page(level: "OPERATIONAL" | "MAJOR_OUTAGE"): Snapshot {
  return {
    indicator: level,
    components: COMPONENTS.map((name, i) => ({
      externalId: `c${i}`,
      name,
      group: null,
      status: (name === "API" ? level : "OPERATIONAL") as StatusLevel,
    })),
    incidents: [],
  };
}

/** A small seeded generator (mulberry32), so both engines see the same changes. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rssMb(): number {
  return Deno.memoryUsage().rss / 1_048_576;
}

/** Loopback receivers: every first byte's time by `webhook-id`, and how often each came. */
function startReceivers() {
  const arrivals = new Map<string, number>();
  const counts = new Map<string, number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const id = req.headers.get("webhook-id") ?? "";
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    counts.set(id, (counts.get(id) ?? 0) + 1);
    await req.body?.cancel();
    return new Response("ok");
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    arrivals,
    counts,
    reset() {
      arrivals.clear();
      counts.clear();
    },
    close: () => server.shutdown(),
  };
}

type Receivers = ReturnType<typeof startReceivers>;

const settings = {
  publicUrl: "http://localhost:8080",
  pollStableSeconds: 300,
  pollMovingSeconds: 60,
};

/** Seeds accounts, monitors, routes and rules into `store` (SQLite, copied to PostgreSQL). */
async function seed(store: Store, o: AlertsScaleOptions, origin: string, slugs: string[]) {
  const ctx = createAppContext({
    store,
    clock: { now: () => Date.now() },
    log: silentLogger,
    settings,
  });
  const random = seeded(7);
  const at = Date.now() - 86_400_000;
  for (const slug of slugs) await recordReading(store, slug, page("OPERATIONAL"), at);
  const { createRoute } = await import("../app/mod.ts");
  let monitors = 0;
  let rules = 0;
  for (let a = 0; a < o.accounts; a++) {
    const account: Account = {
      id: `acc_${a}`,
      name: `Bench ${a}`,
      plan: "PRO",
      slaTarget: 99.9,
      createdAt: at,
    };
    await store.accounts.create(account, {
      id: `mem_${a}`,
      accountId: account.id,
      email: `bench${a}@example.com`,
      role: "OWNER",
      passwordHash: "not-a-real-hash",
      createdAt: at,
    });
    const ids: string[] = [];
    for (let i = 0; i < o.monitorsPerAccount; i++) {
      // A tenth of the monitors watch the 20 most watched services (the AWS and GitHub of the
      // catalog); a third are narrowed to one component.
      const slug = random() < 0.1
        ? slugs[Math.floor(random() * HOT)]!
        : slugs[HOT + Math.floor(random() * (slugs.length - HOT))]!;
      const narrowed = random();
      const id = `mon_${a}_${i}`;
      await store.monitors.create({
        id,
        accountId: account.id,
        serviceSlug: slug,
        components: narrowed < 0.25 ? ["API"] : narrowed < 0.33 ? ["Web"] : [],
        label: null,
        slaTarget: null,
        paused: false,
        createdAt: at + i,
      }, null);
      ids.push(id);
      monitors++;
    }
    let routes: string[] = [];
    if (a < o.routes) {
      const { route } = await createRoute(ctx, { kind: "admin", account }, {
        name: "hooks",
        settings: { kind: "webhook", url: `${origin}/hooks/${a}` },
      });
      routes = [route.id];
    }
    const targets: [RuleTarget, StatusLevel][] = [
      [{ kind: "all" }, "PARTIAL_OUTAGE"],
      [{ kind: "monitor", id: ids[0]! }, "MAJOR_OUTAGE"],
    ];
    for (const [i, [target, level]] of targets.entries()) {
      await store.alertRules.create({
        id: `rule_${a}_${i}`,
        accountId: account.id,
        name: `rule ${i}`,
        target,
        level,
        incidents: true,
        maintenance: false,
        forMinutes: 0,
        failingMinutes: i === 0 ? 15 : null,
        recovery: true,
        routes,
        escalation: null,
        enabled: true,
        createdAt: at + i,
      }, null);
      rules++;
    }
  }
  return { monitors, rules };
}

/** The seeded sequence of vendor changes: a service each, never the same one within 5 s. */
function changePlan(o: AlertsScaleOptions, slugs: string[]): string[] {
  const random = seeded(11);
  const gapMs = (o.seconds * 1000) / o.changes;
  const cooldown = Math.ceil(5_000 / gapMs);
  const recent: string[] = [];
  const plan: string[] = [];
  while (plan.length < o.changes) {
    const slug = random() < 0.05
      ? slugs[Math.floor(random() * HOT)]!
      : slugs[HOT + Math.floor(random() * (slugs.length - HOT))]!;
    if (recent.includes(slug)) continue;
    plan.push(slug);
    recent.push(slug);
    if (recent.length > cooldown) recent.shift();
  }
  return plan;
}

/** One engine's run: the changes, the deliveries' latency, the evaluator's CPU, idle CPU. */
async function runEngine(
  stores: Store[],
  o: AlertsScaleOptions,
  plan: readonly string[],
  rx: Receivers,
) {
  rx.reset();
  const allow = parseAllowance("127.0.0.1");
  if (!allow.ok) throw new Error("allowance");
  const http = createHttpSender({ timeoutMs: 10_000, allowPrivate: allow.allowance });
  const clock = { now: () => Date.now() };
  const instances = stores.map((store, i) => {
    const worker = createDeliveryWorker({
      store,
      http,
      mail: null,
      clock,
      log: silentLogger,
      instanceId: `bench-${i}`,
      options: { concurrency: 32 },
    });
    const ctx: AppContext = createAppContext({
      store,
      clock,
      log: silentLogger,
      settings,
      wakeDeliveries: () => worker.wake(),
    });
    return { store, worker, ctx };
  });
  const first = instances[0]!;
  await evaluateAlerts(first.ctx); // the cursor starts at the newest change
  const start = (await first.store.deliveries.cursor(EVALUATOR_CURSOR))!;
  let peakRss = rssMb();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 250);
  const loops = instances.map(({ ctx, worker }) => {
    worker.start();
    return startAlertEvaluator(ctx);
  });
  const committedAt = new Map<number, number>();
  const levels = new Map<string, "OPERATIONAL" | "MAJOR_OUTAGE">();
  const gapMs = (o.seconds * 1000) / o.changes;
  const t0 = performance.now();
  for (const [i, slug] of plan.entries()) {
    const wait = t0 + i * gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const next = levels.get(slug) === "MAJOR_OUTAGE" ? "OPERATIONAL" : "MAJOR_OUTAGE";
    levels.set(slug, next);
    const changes = await recordReading(first.store, slug, page(next), clock.now());
    const now = performance.now();
    for (const c of changes) committedAt.set(c.id, now);
  }
  // Drain: until every delivery of the run is delivered (or 120 s pass).
  const accounts = Array.from({ length: Math.min(o.routes, o.accounts) }, (_, a) => `acc_${a}`);
  const runDeliveries = async () => {
    const all = [];
    for (const id of accounts) {
      const { items } = await first.store.deliveries.list(id, {}, { page: 0, limit: 10_000 });
      all.push(...items.filter((d) => d.changeId !== null && d.changeId > start));
    }
    return all;
  };
  let deliveries = await runDeliveries();
  for (let i = 0; i < 120; i++) {
    if (deliveries.every((d) => d.state !== "pending")) break;
    await new Promise((r) => setTimeout(r, 1_000));
    deliveries = await runDeliveries();
  }
  const latencies: number[] = [];
  for (const d of deliveries) {
    const arrived = rx.arrivals.get(d.id);
    const committed = committedAt.get(d.changeId!);
    if (arrived !== undefined && committed !== undefined) latencies.push(arrived - committed);
  }
  // Idle: nothing changes; the evaluators and workers keep running.
  const idle0 = cpuSeconds();
  await new Promise((r) => setTimeout(r, o.idleSeconds * 1000));
  const idleCpu = cpuSeconds() - idle0;
  for (const loop of loops) await loop.stop();
  for (const { worker } of instances) await worker.stop();
  clearInterval(sampler);
  // The evaluator alone: the run's changes again (every delivery already stored, so the same
  // reads and decisions, nothing sent).
  const last = (await first.store.deliveries.cursor(EVALUATOR_CURSOR))!;
  await first.store.deliveries.enqueue([], {
    cursor: { name: EVALUATOR_CURSOR, from: last, to: start },
  });
  const eval0 = cpuSeconds();
  let read = 0;
  for (let n; (n = await evaluateAlerts(first.ctx)) > 0;) read += n;
  const evalCpu = cpuSeconds() - eval0;
  http.close();
  return { deliveries, latencies, idleCpu, evalCpu, read, peakRss, instances: stores.length };
}

/** Runs the benchmark and prints its report. */
export async function runAlertsScaleBench(o: AlertsScaleOptions): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-alerts-scale-" });
  const path = `${dir}/bench.db`;
  const rx = startReceivers();
  // Seeding does not wait out the group-commit window of each write (the run itself does).
  const sqlite = openSqliteStore(path, { commitWindows: { batchMs: 0, quietMs: 0 } });
  try {
    const vendors = loadCatalog();
    await sqlite.catalog.sync(vendors, Date.now() - 86_400_000);
    const slugs = vendors.map((v) => v.slug);
    const seed0 = performance.now();
    const seeded = await seed(sqlite, o, rx.origin, slugs);
    const seedS = ((performance.now() - seed0) / 1000).toFixed(0);
    console.log(
      `alerts at scale: ${o.accounts} accounts, ${seeded.monitors} monitors over ${slugs.length} ` +
        `catalog services, ${seeded.rules} rules, ${Math.min(o.routes, o.accounts)} webhook ` +
        `routes on loopback; ${o.changes} vendor changes in ${o.seconds} s (seeded in ${seedS} s)`,
    );
    // Recording a change alone: the baseline of the evaluator's CPU per change.
    const scratch = slugs.slice(-50);
    const rec0 = cpuSeconds();
    for (let i = 0; i < 200; i++) {
      await recordReading(
        sqlite,
        scratch[i % scratch.length]!,
        page(i % 100 < 50 ? "MAJOR_OUTAGE" : "OPERATIONAL"),
        Date.now(),
      );
    }
    const recordCpu = (cpuSeconds() - rec0) / 200;
    await sqlite.close();
    const db = await freshDatabase();
    await copySqliteToPostgres(path, db.url);
    const plan = changePlan(o, slugs);

    const report = (
      label: string,
      r: Awaited<ReturnType<typeof runEngine>>,
      recordMs: number,
    ) => {
      const perChange = (1000 * r.evalCpu) / Math.max(1, r.read);
      console.log(`  ${label}:`);
      console.log(
        `    change → first byte: p50 ${percentile(r.latencies, 50).toFixed(0)} ms, p95 ${
          percentile(r.latencies, 95).toFixed(0)
        } ms over ${r.latencies.length} deliveries (goal: p95 < 2000 ms)`,
      );
      console.log(
        `    evaluator CPU per change-log row: ${perChange.toFixed(2)} ms over ${r.read} rows, ` +
          `${(perChange / recordMs).toFixed(1)}× recording one vendor change (${
            recordMs.toFixed(2)
          } ms)`,
      );
      const idle = 100 * r.idleCpu / o.idleSeconds;
      console.log(
        `    idle, ${o.idleSeconds} s with no change: ${idle.toFixed(2)} % of a core` +
          (r.instances > 1
            ? ` for ${r.instances} instances, ${(idle / r.instances).toFixed(2)} % each`
            : "") +
          ` (goal < 1 % per instance); peak RSS ${r.peakRss.toFixed(0)} MB`,
      );
    };

    const one = openSqliteStore(path);
    const onSqlite = await runEngine([one], o, plan, rx);
    await one.close();
    report("SQLite, one instance", onSqlite, 1000 * recordCpu);

    const stores = await Promise.all(
      [0, 1, 2].map((i) => openPostgresStore(db.url, { instance: `bench-${i}` })),
    );
    const onPostgres = await runEngine(stores, o, plan, rx);
    report(
      "PostgreSQL, three instances (this process's CPU; the server's is not counted)",
      onPostgres,
      1000 * recordCpu,
    );
    const sent = onPostgres.deliveries.filter((d) => d.state !== "cancelled");
    const twice = [...rx.counts.values()].filter((n) => n > 1).length;
    const missing = sent.filter((d) => !rx.counts.has(d.id)).length;
    const expected = new Set(
      onSqlite.deliveries.filter((d) => d.state !== "cancelled").map((d) => d.id),
    );
    const same = sent.length === expected.size && sent.every((d) => expected.has(d.id));
    console.log(
      `    exactly once: ${sent.length} deliveries, ${twice} received twice, ${missing} never ` +
        `received; the same deliveries as SQLite: ${same ? "yes" : "NO"} (SQLite ${expected.size})`,
    );
    for (const s of stores) await s.close();
    await db.drop();
  } finally {
    await rx.close();
    Deno.removeSync(dir, { recursive: true });
  }
}
