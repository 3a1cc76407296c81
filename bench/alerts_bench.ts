/**
 * Alert latency (issue #13): from a committed change to the first byte of each alert reaching its
 * receiver, with 1,000 rules across 100 webhook destinations, against the same change reaching an
 * in-process listener in the same run (the store's own publication: the floor). A second phase
 * has the receivers fail half the requests at random and checks that every alert still arrives
 * (retries run on a clock the bench moves forward when nothing is due, so 24 hours of backoff
 * take seconds). Prints p50/p95 of both and the count delivered.
 * @module
 */
import {
  createAccount,
  createAppContext,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
  startAlertEvaluator,
} from "../app/mod.ts";
import type { Caller } from "../app/mod.ts";
import { type Snapshot } from "../domain/mod.ts";
import { parseAllowance } from "../lib/mod.ts";
import { silentLogger } from "../log.ts";
import { createHttpSender } from "../outbound/send_http.ts";
import { createDeliveryWorker } from "../outbound/worker.ts";
import { openSqliteStore } from "../store/mod.ts";
import { recordReading, syncVendors, vendorOf } from "../tests/support/seed.ts";
import { percentile } from "./_stats.ts";

/** Options of {@link runAlertsBench}. */
export interface AlertsBenchOptions {
  readonly rules: number;
  readonly destinations: number;
  readonly services: number;
  readonly flips: number;
}

const page = (level: "OPERATIONAL" | "MAJOR_OUTAGE"): Snapshot => ({
  indicator: level,
  components: [],
  incidents: [],
});

/** Runs the benchmark and prints its report. */
export async function runAlertsBench(o: AlertsBenchOptions): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-alerts-bench-" });
  const store = openSqliteStore(`${dir}/bench.db`);
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const arrivals = new Map<string, number>();
  let failHalf = false;
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const id = req.headers.get("webhook-id") ?? "";
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    await req.body?.cancel();
    received++;
    if (failHalf && Math.random() < 0.5) return new Response("busy", { status: 503 });
    return new Response("ok");
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const allow = parseAllowance("127.0.0.1");
  if (!allow.ok) throw new Error("allowance");
  const http = createHttpSender({ timeoutMs: 10_000, allowPrivate: allow.allowance });
  const worker = createDeliveryWorker({
    store,
    http,
    mail: null,
    clock,
    log: silentLogger,
    instanceId: "bench",
    options: { idleMs: 20 },
  });
  const ctx = createAppContext({
    store,
    clock,
    log: silentLogger,
    settings: { publicUrl: "http://localhost:8080", pollStableSeconds: 300, pollMovingSeconds: 60 },
    wakeDeliveries: () => worker.wake(),
  });
  try {
    const slugs = Array.from({ length: o.services }, (_, i) => `svc-${i}`);
    await syncVendors(store, slugs.map((slug) => vendorOf({ slug })), clock.now() - 86_400_000);
    for (const slug of slugs) {
      await recordReading(store, slug, page("OPERATIONAL"), clock.now() - 3_600_000);
    }
    // Rules are spread over accounts (an account keeps at most 200), each with its share of
    // the destinations and a monitor of every service.
    const accounts = Math.max(1, Math.ceil(o.rules / 100));
    const owners: string[] = [];
    for (let a = 0; a < accounts; a++) {
      const owner = await createAccount(ctx, {
        email: `bench${a}@example.com`,
        password: "correct horse battery",
        plan: "PRO",
      });
      owners.push(owner.account.id);
      const who: Caller = { kind: "admin", account: owner.account };
      const routes = [];
      const mine = Math.max(1, Math.round(o.destinations / accounts));
      for (let i = 0; i < mine; i++) {
        routes.push(
          (await createRoute(ctx, who, {
            name: `dest ${a}.${i}`,
            settings: { kind: "webhook", url: `${origin}/dest/${a}/${i}` },
          })).route.id,
        );
      }
      const monitors = [];
      for (const slug of slugs) {
        monitors.push((await createMonitor(ctx, who, { service: slug })).id);
      }
      const rules = Math.min(100, o.rules - a * 100);
      for (let i = 0; i < rules; i++) {
        await createRule(ctx, who, {
          name: `rule ${i}`,
          target: { kind: "monitor", id: monitors[i % monitors.length] },
          routes: [routes[i % routes.length]],
        });
      }
    }
    await evaluateAlerts(ctx); // the cursor starts at the newest change
    worker.start();
    const evaluatorLoop = startAlertEvaluator(ctx, 200);

    const alertMs: number[] = [];
    const listenerMs: number[] = [];
    let heardAt = 0;
    const unsubscribe = store.changes.subscribe(() => {
      if (heardAt === 0) heardAt = performance.now();
    });
    const deliveriesOf = async () =>
      (await Promise.all(
        owners.map(async (id) =>
          (await store.deliveries.list(id, {}, { page: 0, limit: 100_000 })).items
        ),
      )).flat();
    for (let f = 0; f < o.flips; f++) {
      const slug = slugs[f % slugs.length]!;
      const before = new Set((await deliveriesOf()).map((d) => d.id));
      heardAt = 0;
      const t0 = performance.now();
      await recordReading(store, slug, page("MAJOR_OUTAGE"), clock.now());
      const expected = o.rules / o.services;
      let mine: string[] = [];
      for (let i = 0; i < 500; i++) {
        mine = (await deliveriesOf()).filter((d) => !before.has(d.id)).map((d) => d.id);
        if (mine.length >= expected && mine.every((id) => arrivals.has(id))) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      for (const id of mine) if (arrivals.has(id)) alertMs.push(arrivals.get(id)! - t0);
      if (heardAt) listenerMs.push(heardAt - t0);
      await recordReading(store, slug, page("OPERATIONAL"), clock.now());
      await new Promise((r) => setTimeout(r, 300));
    }
    unsubscribe();
    const sent = alertMs.length;

    // Phase 2: receivers fail half the time; every alert must still arrive.
    failHalf = true;
    arrivals.clear();
    const lossBefore = new Set((await deliveriesOf()).map((d) => d.id));
    for (const slug of slugs) await recordReading(store, slug, page("MAJOR_OUTAGE"), clock.now());
    let done = false;
    for (let round = 0; round < 2_000 && !done; round++) {
      const mine = (await deliveriesOf()).filter((d) => !lossBefore.has(d.id));
      done = mine.length >= o.rules &&
        mine.every((d) => d.state === "delivered" || d.state === "failed");
      if (!done) {
        const pending = mine.filter((d) => d.state === "pending");
        const next = Math.min(...pending.map((d) => d.notBefore));
        if (pending.length && next > clock.now()) offset += next - clock.now(); // skip the wait
        worker.wake();
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    const final = (await deliveriesOf()).filter((d) => !lossBefore.has(d.id));
    const delivered = final.filter((d) => d.state === "delivered").length;
    const attempts = final.reduce((n, d) => n + d.attempts, 0);
    await evaluatorLoop.stop();
    await worker.stop();

    console.log(
      `alerts bench: ${o.rules} rules on ${o.services} services across ${o.destinations} webhook ` +
        `destinations (loopback), ${o.flips} flips, SQLite`,
    );
    console.log(
      `  committed change → first byte at the receiver: p50 ${
        percentile(alertMs, 50).toFixed(0)
      } ms, ` +
        `p95 ${percentile(alertMs, 95).toFixed(0)} ms over ${sent} alerts (goal: p95 < 1000 ms)`,
    );
    console.log(
      `  same change → in-process listener: p50 ${percentile(listenerMs, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(listenerMs, 95).toFixed(1)} ms; ratio of p95s ${
          (percentile(alertMs, 95) / Math.max(0.1, percentile(listenerMs, 95))).toFixed(0)
        }×`,
    );
    console.log(
      `  receivers failing half the time: ${delivered} of ${final.length} delivered ` +
        `(expected ${o.rules}), ${attempts} attempts, ${received} requests in all; lost ${
          o.rules - delivered
        }`,
    );
  } finally {
    http.close();
    await server.shutdown();
    await store.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Options from the environment (ALERTS_BENCH_RULES, _DESTINATIONS, _SERVICES, _FLIPS). */
export function alertsBenchOptions(): AlertsBenchOptions {
  const n = (name: string, d: number) => Number(Deno.env.get(`ALERTS_BENCH_${name}`) ?? d);
  return {
    rules: n("RULES", 1_000),
    destinations: n("DESTINATIONS", 100),
    services: n("SERVICES", 10),
    flips: n("FLIPS", 10),
  };
}
