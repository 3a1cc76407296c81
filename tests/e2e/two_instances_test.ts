/**
 * Two real statusd processes on one real PostgreSQL, sharing a simulated catalog: started at
 * the same moment they migrate once; every vendor is fetched once per interval in total, never
 * by both; a flip reaches the live streams of both, each change exactly once; a key revoked
 * through one is refused by the other at once; and when one is killed (-9), the other takes its
 * vendors over within a lease.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import postgres from "postgres";
import { type AdminIo, runAdmin } from "../../cli/admin/mod.ts";
import { LEASE_MS } from "../../store/postgres/polls.ts";
import { PASSWORD } from "../support/accounts.ts";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";
import { startSimulator } from "../support/simulator.ts";
import { freePort, startStatusd, until } from "../support/statusd_process.ts";
import { csrfOf } from "../support/web.ts";

const VENDORS = 24;
const INTERVAL_S = 2;

/** Reads an SSE stream in the background, keeping every change event's id per stream. */
function watch(base: string) {
  const ids: number[] = [];
  const slugs: string[] = [];
  const stop = new AbortController();
  const done = (async () => {
    const res = await fetch(`${base}/api/events`, { signal: stop.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const blocks = buffer.split("\n\n");
        buffer = blocks.pop()!;
        for (const block of blocks) {
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if ((event === "status" || event === "incident") && data) {
            const parsed = JSON.parse(data);
            ids.push(parsed.id);
            slugs.push(parsed.slug);
          }
        }
      }
    } catch { /* aborted */ }
  })();
  return {
    ids,
    slugs,
    async close() {
      stop.abort();
      await done;
    },
  };
}

/** A cookie-keeping browser over a real server's pages (forms carry their CSRF token). */
function browser(base: string) {
  const jar = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("accept", "text/html");
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(`${base}${path}`, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [k, v] = c.split(";")[0]!.split("=");
      if (v === "" || /Max-Age=0/i.test(c)) jar.delete(k!);
      else jar.set(k!, v!);
    }
    return res;
  };
  return {
    get: send,
    async submit(page: string, action: string, fields: Record<string, string | string[]>) {
      const html = await (await send(page)).text();
      const body = new URLSearchParams({ _csrf: csrfOf(html) });
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
      return send(action, { method: "POST", body });
    },
  };
}

function silentIo(stdin = ""): AdminIo {
  return { stdin: () => Promise.resolve(stdin), out: () => {}, err: () => {} };
}

Deno.test({
  name:
    "two instances on one PostgreSQL: one migration, shared polling, every change on both, revocation, failover",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await freshDatabase();
    const sim = startSimulator({ listeners: 4 });
    const dir = await Deno.makeTempDir();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const instances: Awaited<ReturnType<typeof startStatusd>>[] = [];
    try {
      const catalog = join(dir, "catalog.json");
      const vendors = sim.catalog(VENDORS, "duo");
      await Deno.writeTextFile(catalog, JSON.stringify(vendors));
      const env = (name: string) => {
        const port = freePort();
        return {
          PORT: String(port),
          STATUSD_PUBLIC_URL: `http://127.0.0.1:${port}`,
          STATUSD_DATABASE_URL: db.url,
          STATUSD_CATALOG: catalog,
          STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
          STATUSD_POLL_STABLE_SECONDS: String(INTERVAL_S),
          STATUSD_POLL_MOVING_SECONDS: String(INTERVAL_S),
          STATUSD_POLL_PULSE_SECONDS: "0",
          STATUSD_INSTANCE_ID: name,
        };
      };
      // Started at the same moment, on an empty database: both migrate it, once.
      const [a, b] = await Promise.all([startStatusd(env("a")), startStatusd(env("b"))]);
      instances.push(a!, b!);
      const migrations = await sql`SELECT version, COUNT(*)::int AS n FROM schema_migrations
        GROUP BY version ORDER BY version`;
      ok(migrations.length >= 2, "every migration applied");
      ok(migrations.every((m) => m.n === 1), "each migration recorded once");

      await until("every vendor to be read", async () => {
        const [{ n }] = await sql`SELECT COUNT(*)::int AS n FROM vendors
          WHERE last_success_at IS NOT NULL`;
        return n === VENDORS ? true : null;
      });

      // Shared polling: no vendor is fetched by both instances in one interval. Consecutive
      // fetches of a vendor are an interval apart (less at most the jitter, or half of it
      // after the first poll's spread); both instances fetching it would put two within
      // moments. Judged from the fetch log over three polls of every vendor, however long
      // this machine takes to make them.
      const [{ since }] = await sql`SELECT COALESCE(MAX(at), 0)::bigint AS since FROM fetches`;
      await until("three more polls of every vendor", async () => {
        const [{ n }] = await sql`SELECT COUNT(*)::int AS n FROM (SELECT vendor_id FROM fetches
          WHERE at > ${since} GROUP BY vendor_id HAVING COUNT(*) >= 3) v`;
        return n === VENDORS ? true : null;
      });
      const gaps = await sql`SELECT v.slug, f.at - LAG(f.at) OVER (PARTITION BY f.vendor_id
          ORDER BY f.at) AS gap
        FROM fetches f JOIN vendors v ON v.id = f.vendor_id WHERE f.at > ${since}`;
      const closest = gaps.filter((g) => g.gap !== null)
        .reduce((min, g) => Math.min(min, Number(g.gap)), Infinity);
      ok(closest >= (INTERVAL_S * 1000) / 4, `closest fetches of one vendor: ${closest} ms`);
      const polls = await Promise.all(
        [a!, b!].map(async (p) => (await (await fetch(`${p.base}/healthz`)).json()).poller.polls),
      );
      ok(polls.every((n: number) => n > 0), `both instances poll: ${polls}`);

      // A flip reaches both live streams, every change once on each.
      const streams = [watch(a!.base), watch(b!.base)];
      await new Promise((r) => setTimeout(r, 500));
      sim.setScenario("duo-00007", "outage");
      await until("the flip on both streams", () =>
        Promise.resolve(
          streams.every((s) => s.slugs.includes("duo-00007")) ? true : null,
        ));
      await new Promise((r) => setTimeout(r, 2 * INTERVAL_S * 1000));
      for (const s of streams) await s.close();
      const [onA, onB] = streams.map((s) => s.ids);
      deepStrictEqual(onA, onB, "both instances streamed the same changes in the same order");
      equal(new Set(onA).size, onA!.length, "no change streamed twice");
      ok(onA!.every((id, i) => i === 0 || id > onA![i - 1]!), "in id order");

      // A key revoked through instance a is refused by instance b at once.
      equal(
        await runAdmin(
          ["create-account", "--email", "ops@example.com", "--password-stdin", "--plan", "PRO"],
          { STATUSD_DATABASE_URL: db.url },
          silentIo(PASSWORD),
        ),
        0,
      );
      const web = browser(a!.base);
      const signedIn = await web.submit("/sign-in", "/sign-in", {
        email: "ops@example.com",
        password: PASSWORD,
      });
      equal(signedIn.status, 303);
      const created = await web.submit("/settings/api-keys", "/settings/api-keys", {
        name: "ci",
        scopes: ["status:read"],
      });
      const html = await created.text();
      const secret = /<code id="new-key">(sd_live_[^<]+)<\/code>/.exec(html)![1]!;
      const id = /\/settings\/api-keys\/([^/]+)\/revoke/.exec(
        await (await web.get("/settings/api-keys")).text(),
      )![1]!;
      const withKey = { authorization: `Bearer ${secret}` };
      const history = `${b!.base}/api/services/duo-00001/history`;
      equal((await fetch(history, { headers: withKey })).status, 200);
      const revoked = await web.submit(
        `/settings/api-keys/${id}/revoke`,
        `/settings/api-keys/${id}/revoke`,
        { confirm: "yes" },
      );
      equal(revoked.status, 303);
      equal((await fetch(history, { headers: withKey })).status, 401);

      // Failed sign-ins count across instances: ten wrong passwords spread over both, and the
      // eleventh is refused on either.
      for (let i = 0; i < 10; i++) {
        const target = browser((i % 2 === 0 ? a : b)!.base);
        const res = await target.submit("/sign-in", "/sign-in", {
          email: "ops@example.com",
          password: "wrong password, try again",
        });
        ok(res.status !== 429, `attempt ${i + 1} is not refused yet`);
        await res.body?.cancel();
      }
      for (const p of [a!, b!]) {
        const res = await browser(p.base).submit("/sign-in", "/sign-in", {
          email: "ops@example.com",
          password: PASSWORD,
        });
        equal(res.status, 429, "the limit holds on every instance");
        await res.body?.cancel();
      }

      // kill -9 of a: b takes every vendor over within a lease (plus an interval to poll it).
      const atKill = vendors.map((v) => sim.requests(v.slug));
      await a!.kill();
      instances.shift();
      await until(
        "instance b to fetch every vendor after a died",
        () =>
          Promise.resolve(
            vendors.every((v, i) => sim.requests(v.slug) > atKill[i]!) ? true : null,
          ),
        LEASE_MS + 4 * INTERVAL_S * 1000,
      );
    } finally {
      for (const p of instances) await p.stop();
      await sql.end();
      await sim.close();
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
