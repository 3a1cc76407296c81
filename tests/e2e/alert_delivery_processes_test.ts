/**
 * Alert delivery with real statusd processes (issue #13). (1) kill -9 between commit and send:
 * the alert is committed to the outbox (its rule waits a minute before sending) when the process
 * is killed; the minute passes while no process runs; after a restart it is sent, and the
 * receiver gets exactly one request for its id.
 * (2) Two instances on one PostgreSQL: twenty alerts, each sent by exactly one of them. (3) An
 * instance killed in the middle of a send on PostgreSQL: its lease ends with its session, and the
 * other instance sends the alert at once, under the same id.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { createAppContext, createMonitor, createRoute, createRule } from "../../app/mod.ts";
import type { Store, Vendor } from "../../domain/mod.ts";
import { systemClock } from "../../clock.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { account, key } from "../support/accounts.ts";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";
import { startReceivers } from "../support/receivers.ts";
import { startSimulator } from "../support/simulator.ts";
import { startStatusd, until } from "../support/statusd_process.ts";

const FAST = {
  STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
  STATUSD_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  STATUSD_POLL_STABLE_SECONDS: "2",
  STATUSD_POLL_MOVING_SECONDS: "1",
  STATUSD_POLL_PULSE_SECONDS: "0",
};

/** An account watching `slug` with `rules` rules to a webhook; its API key. */
async function seed(
  store: Store,
  vendors: Vendor[],
  slug: string,
  hook: string,
  rules: number,
  forMinutes = 0,
) {
  await store.catalog.sync(vendors, Date.now());
  const ctx = createAppContext({
    store,
    clock: systemClock,
    log: silentLogger,
    settings: { publicUrl: "http://localhost:8080", pollStableSeconds: 2, pollMovingSeconds: 1 },
  });
  const who = await account(ctx, "owner@example.com");
  const admin = { kind: "admin", account: who.account } as const;
  const monitor = await createMonitor(ctx, admin, { service: slug });
  const route = (await createRoute(ctx, admin, {
    name: "hook",
    settings: { kind: "webhook", url: hook },
  })).route;
  for (let i = 0; i < rules; i++) {
    await createRule(ctx, admin, {
      name: `rule ${i}`,
      target: { kind: "monitor", id: monitor.id },
      level: "PARTIAL_OUTAGE",
      forMinutes,
      routes: [route.id],
    });
  }
  return await key(ctx, who, "ops", ["alerts:read"]);
}

/**
 * One simulated vendor (`name`) in a catalog file under `dir`, and an account on the PostgreSQL
 * database at `url` watching it with `rules` rules to the receivers' webhook: the vendor's slug,
 * the account's key, and the environment instances start with.
 */
async function seedPostgres(
  url: string,
  sim: ReturnType<typeof startSimulator>,
  rx: ReturnType<typeof startReceivers>,
  dir: string,
  name: string,
  rules: number,
) {
  const vendors = sim.catalog(1, name);
  const slug = vendors[0]!.slug;
  const catalog = join(dir, "catalog.json");
  await Deno.writeTextFile(catalog, JSON.stringify(vendors));
  const store = await openPostgresStore(url, { poolSize: 2 });
  const apiKey = await seed(store, vendors, slug, `${rx.origin}/webhook`, rules);
  await store.close();
  const env = { ...FAST, STATUSD_DATABASE_URL: url, STATUSD_CATALOG: catalog };
  return { slug, apiKey, env };
}

interface Event {
  id: string;
  state: string;
  attempts: { status: number | null }[];
}

async function events(base: string, apiKey: string): Promise<Event[]> {
  const list = await (await fetch(`${base}/api/user/alert-events?limit=100`, {
    headers: { "X-API-Key": apiKey },
  })).json();
  return await Promise.all(
    list.content.map(async (e: { id: string }) =>
      await (await fetch(`${base}/api/user/alert-events/${e.id}`, {
        headers: { "X-API-Key": apiKey },
      })).json()
    ),
  );
}

Deno.test({
  name: "kill -9 between commit and send: after the restart the alert goes, once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sim = startSimulator();
    const rx = startReceivers();
    const dir = await Deno.makeTempDir();
    try {
      const vendors = sim.catalog(1, "crash");
      const slug = vendors[0]!.slug;
      const catalog = join(dir, "catalog.json");
      await Deno.writeTextFile(catalog, JSON.stringify(vendors));
      const path = join(dir, "statusd.db");
      const store = openSqliteStore(path);
      // The rule waits a minute after the change: the alert sits committed, unsent, meanwhile.
      const apiKey = await seed(store, vendors, slug, `${rx.origin}/webhook`, 1, 1);
      await store.close();
      const env = { ...FAST, STATUSD_DB: path, STATUSD_CATALOG: catalog };
      const first = await startStatusd(env);
      try {
        await until("the first reading", async () => {
          const s = await (await fetch(`${first.base}/api/services/${slug}`)).json();
          return s.currentStatus === "OPERATIONAL" ? s : null;
        });
        sim.setScenario(slug, "outage");
        await until("the alert committed", async () => {
          const e = await events(first.base, apiKey);
          return e.length === 1 && e[0]!.state === "pending" ? e : null;
        });
      } finally {
        await first.kill();
      }
      equal(rx.on("/webhook").length, 0, "killed before anything was sent");
      // The minute passes while no process runs (a fake clock for the stored row, instead of a
      // real minute's wait): the delivery is due when the next process starts.
      const db = new DatabaseSync(path);
      try {
        const due = db.prepare("UPDATE alert_deliveries SET not_before = ? WHERE state = 'pending'")
          .run(Date.now());
        equal(due.changes, 1, "one delivery committed, unsent");
      } finally {
        db.close();
      }
      const second = await startStatusd(env);
      try {
        const [done] = await until("the alert after the restart", async () => {
          const e = await events(second.base, apiKey);
          return e[0]?.state === "delivered" ? e : null;
        });
        deepStrictEqual(done!.attempts.map((a) => a.status), [200]);
        await new Promise((r) => setTimeout(r, 1_000));
        const received = rx.on("/webhook");
        equal(received.length, 1, "sent once");
        equal(received[0]!.headers["webhook-id"], done!.id);
      } finally {
        await second.stop();
      }
    } finally {
      await sim.close();
      await rx.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "two instances on one PostgreSQL: every alert is sent by exactly one of them",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await freshDatabase();
    const sim = startSimulator();
    const rx = startReceivers();
    const dir = await Deno.makeTempDir();
    try {
      const { slug, apiKey, env } = await seedPostgres(db.url, sim, rx, dir, "pair", 20);
      const [a, b] = await Promise.all([
        startStatusd({ ...env, STATUSD_INSTANCE_ID: "a" }),
        startStatusd({ ...env, STATUSD_INSTANCE_ID: "b" }),
      ]);
      try {
        await until("the first reading", async () => {
          const s = await (await fetch(`${a.base}/api/services/${slug}`)).json();
          return s.currentStatus === "OPERATIONAL" ? s : null;
        });
        sim.setScenario(slug, "outage");
        const sent = await until("twenty alerts delivered", async () => {
          const e = await events(b.base, apiKey);
          return e.length === 20 && e.every((x) => x.state === "delivered") ? e : null;
        }, 60_000);
        await new Promise((r) => setTimeout(r, 1_500)); // anything sent twice would show by now
        const ids = rx.on("/webhook").map((r) => r.headers["webhook-id"]).sort();
        deepStrictEqual(ids, sent.map((e) => e.id).sort(), "each event once, none twice");
        ok(sent.every((e) => e.attempts.length === 1));
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    } finally {
      await sim.close();
      await rx.close();
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "kill -9 mid-send on PostgreSQL: the other instance sends it at once, not when the dead lease runs out",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await freshDatabase();
    const sim = startSimulator();
    const rx = startReceivers();
    const dir = await Deno.makeTempDir();
    const pg = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const { slug, apiKey, env } = await seedPostgres(db.url, sim, rx, dir, "midsend", 1);
      // The first send hangs: the instance sending it is killed in the middle of it.
      rx.script("/webhook", { answer: "hang" });
      const instances = {
        a: await startStatusd({ ...env, STATUSD_INSTANCE_ID: "a" }),
        b: await startStatusd({ ...env, STATUSD_INSTANCE_ID: "b" }),
      };
      try {
        await until("the first reading", async () => {
          const s = await (await fetch(`${instances.a.base}/api/services/${slug}`)).json();
          return s.currentStatus === "OPERATIONAL" ? s : null;
        });
        sim.setScenario(slug, "outage");
        await until(
          "the send under way",
          () => Promise.resolve(rx.on("/webhook").length === 1 ? true : null),
        );
        const [claim] = await pg`SELECT id, claimed_by, claimed_until FROM alert_deliveries
          WHERE state = 'pending' AND claimed_by IS NOT NULL`;
        ok(claim, "the delivery is held by the instance sending it");
        const holder = String(claim.claimed_by) as "a" | "b";
        const survivor = holder === "a" ? instances.b : instances.a;
        await instances[holder].kill();
        const leaseEnd = Number(claim.claimed_until);
        // Before the dead instance's lease would have run out (two minutes), it is sent.
        const [done] = await until("the alert sent by the survivor", async () => {
          const e = await events(survivor.base, apiKey);
          return e[0]?.state === "delivered" ? e : null;
        }, leaseEnd - Date.now());
        ok(Date.now() < leaseEnd);
        deepStrictEqual(done!.attempts.map((a) => a.status), [200], "one attempt recorded");
        const received = rx.on("/webhook");
        equal(received.length, 2, "the interrupted send, then the survivor's");
        equal(received[0]!.headers["webhook-id"], done!.id);
        equal(received[1]!.headers["webhook-id"], done!.id, "the same id: receivers dedupe it");
      } finally {
        await Promise.all([instances.a.stop(), instances.b.stop()]);
      }
    } finally {
      await pg.end();
      await sim.close();
      await rx.close();
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
