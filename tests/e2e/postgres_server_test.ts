/**
 * statusd on PostgreSQL as a self-hoster runs it: `STATUSD_DATABASE_URL` pointing at a real
 * server (the test rig's throwaway cluster), a simulated vendor polled and served, `/healthz`
 * naming the engine and the instance, and what was read still there after a restart. An
 * unreachable server, a refused password or a missing database stops the start with one line
 * naming the variable, host and reason (exit 2), never the password.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";
import { startSimulator } from "../support/simulator.ts";
import { startStatusd, until } from "../support/statusd_process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const needsPostgres = !postgresAvailable() && !Deno.env.get("CI");
const serve = startStatusd;

Deno.test({
  name:
    "statusd runs on PostgreSQL: polls, serves, names engine and instance, keeps data over a restart",
  ignore: needsPostgres,
  async fn() {
    const db = await freshDatabase();
    const sim = startSimulator();
    const dir = await Deno.makeTempDir();
    try {
      const catalog = join(dir, "catalog.json");
      const vendors = sim.catalog(2, "pg");
      sim.setScenario("pg-00002", "outage");
      await Deno.writeTextFile(catalog, JSON.stringify(vendors));
      const env = {
        STATUSD_DATABASE_URL: db.url,
        STATUSD_CATALOG: catalog,
        STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
        STATUSD_INSTANCE_ID: "pg-test-1",
        STATUSD_DB: join(dir, "unused.db"),
      };
      const first = await serve(env);
      let before: Record<string, unknown>;
      try {
        before = await until("the outage to be read", async () => {
          const res = await fetch(`${first.base}/api/services/pg-00002`);
          const body = await res.json();
          return body.currentStatus === "PARTIAL_OUTAGE" ? body : null;
        });
        const health = await (await fetch(`${first.base}/healthz`)).json();
        equal(health.instance, "pg-test-1");
        equal(health.database.engine, "postgres");
        equal(health.database.ok, true);
        equal(health.counts.services, 2);
        const incidents = await (await fetch(`${first.base}/api/incidents?service=pg-00002`))
          .json();
        ok(incidents.content.length >= 1, "the outage's incident is stored");
      } finally {
        await first.stop();
      }
      ok(!(await Deno.stat(env.STATUSD_DB).then(() => true, () => false)), "no SQLite file");

      const second = await serve({ ...env, STATUSD_POLL: "off", STATUSD_INSTANCE_ID: "pg-test-2" });
      try {
        const after = await (await fetch(`${second.base}/api/services/pg-00002`)).json();
        equal(after.currentStatus, "PARTIAL_OUTAGE");
        equal(after.lastChangedAt, before.lastChangedAt, "the stored reading survived");
        const health = await (await fetch(`${second.base}/healthz`)).json();
        equal(health.instance, "pg-test-2");
      } finally {
        await second.stop();
      }
    } finally {
      await sim.close();
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Starts `main.ts` with `STATUSD_DATABASE_URL` set to `url`; its exit code and stderr. */
async function startWith(url: string): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1", PORT: "0", STATUSD_POLL: "off", STATUSD_DATABASE_URL: url },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trimEnd() };
}

Deno.test("an unreachable PostgreSQL stops the start with one line: variable, host, reason", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const { code, stderr } = await startWith(`postgres://statusd:hunter2@127.0.0.1:${port}/statusd`);
  equal(code, 2, stderr);
  equal(stderr.split("\n").length, 1, stderr);
  match(stderr, new RegExp(`^Cannot use STATUSD_DATABASE_URL \\(127\\.0\\.0\\.1:${port}\\): `));
  match(stderr, /connection refused/);
  ok(!stderr.includes("hunter2"), "the password is never shown");
});

/**
 * A loopback server speaking just enough of PostgreSQL's protocol (v3) to ask for a password and
 * refuse it as a server does: `28P01`, FATAL, then the connection closes.
 */
function startRefusingServer(): { port: number; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const message = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(5 + body.length);
    out[0] = type.charCodeAt(0);
    new DataView(out.buffer).setInt32(1, 4 + body.length);
    out.set(body, 5);
    return out;
  };
  const serve = async (conn: Deno.Conn) => {
    const buf = new Uint8Array(8192);
    try {
      await conn.read(buf); // the startup message
      const cleartext = new Uint8Array(4);
      new DataView(cleartext.buffer).setInt32(0, 3); // AuthenticationCleartextPassword
      await conn.write(message("R", cleartext));
      await conn.read(buf); // the password message
      const fields = [
        "SFATAL",
        "VFATAL",
        "C28P01",
        'Mpassword authentication failed for user "statusd"',
      ].map((f) => `${f}\0`).join("") + "\0";
      await conn.write(message("E", new TextEncoder().encode(fields)));
    } catch {
      // the client may hang up first
    } finally {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  };
  (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  return { port: (listener.addr as Deno.NetAddr).port, close: () => listener.close() };
}

Deno.test("a refused password stops the start with one line that never shows it", async () => {
  const server = startRefusingServer();
  try {
    const { code, stderr } = await startWith(
      `postgres://statusd:hunter2@127.0.0.1:${server.port}/statusd`,
    );
    equal(code, 2, stderr);
    equal(stderr.split("\n").length, 1, stderr);
    equal(
      stderr,
      `Cannot use STATUSD_DATABASE_URL (127.0.0.1:${server.port}): password authentication failed`,
    );
  } finally {
    server.close();
  }
});

Deno.test({
  name: "a missing database stops the start with one line naming the reason",
  ignore: needsPostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await freshDatabase();
    await db.drop();
    const url = new URL(db.url);
    url.password = "hunter2";
    const { code, stderr } = await startWith(url.href);
    equal(code, 2, stderr);
    equal(stderr, `Cannot use STATUSD_DATABASE_URL (${url.host}): no such database`);
  },
});
