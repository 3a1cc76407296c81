/**
 * The single-file builds stand alone: `deno task bundle` writes `dist/statusd.js` and
 * `dist/status.js`; each is copied into an empty folder (no source tree, no node_modules, an
 * empty DENO_DIR) and run there. The server must migrate a fresh database, load the built-in
 * catalog and answer; the CLI must answer `--help` and a status query against it.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { API_REFERENCE_SHA256 } from "../../routes/web/_api_reference_bundle.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DENO = Deno.execPath();

/** Runs `deno <args>` in `cwd`, with only `env` when given (else the test's environment). */
async function deno(
  args: string[],
  cwd: string,
  env?: Record<string, string>,
  stdin?: string,
) {
  const child = new Deno.Command(DENO, {
    args,
    cwd,
    env,
    clearEnv: env !== undefined,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A log line as an object, or undefined when it is not JSON. */
function jsonLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Reads JSON log lines from the server's stderr until one says "listening"; returns its port. */
async function listeningPort(stderr: ReadableStream<Uint8Array>, seen: string[]) {
  const lines = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`server exited before listening:\n${seen.join("\n")}`);
    buffer += value;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) {
      seen.push(line);
      const entry = jsonLine(line);
      if (entry?.msg === "listening" && typeof entry.url === "string") {
        // Keep draining stderr so the server never blocks on a full pipe.
        (async () => {
          for (;;) {
            const r = await lines.read().catch(() => ({ done: true, value: "" }));
            if (r.done) break;
          }
        })();
        return Number(new URL(entry.url).port);
      }
    }
  }
}

/** `deno task bundle`, run once for this file's tests (each copies what it needs out of dist/). */
let bundled: ReturnType<typeof deno> | null = null;

Deno.test({
  name: "the bundled server and CLI run from an empty folder: migrate, catalog, answer, query",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const built = await (bundled ??= deno(["task", "bundle"], ROOT));
    equal(built.code, 0, `deno task bundle failed:\n${built.stderr}`);

    const dir = await Deno.makeTempDir({ prefix: "statusd-bundle-" });
    const denoDir = join(dir, "deno-dir");
    const runDir = join(dir, "run");
    await Deno.mkdir(denoDir);
    await Deno.mkdir(runDir);
    for (const file of ["statusd.js", "status.js"]) {
      await Deno.copyFile(join(ROOT, "dist", file), join(runDir, file));
    }
    deepStrictEqual([...Deno.readDirSync(runDir)].map((e) => e.name).sort(), [
      "status.js",
      "statusd.js",
    ]);
    const db = join(runDir, "statusd.db");
    const server = new Deno.Command(DENO, {
      args: ["run", "-A", "statusd.js"],
      cwd: runDir,
      clearEnv: true,
      env: {
        DENO_DIR: denoDir,
        NO_COLOR: "1",
        PORT: "0",
        HOST: "127.0.0.1",
        STATUSD_DB: db,
        STATUSD_POLL: "off",
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const log: string[] = [];
    try {
      const port = await listeningPort(server.stderr, log);
      const api = `http://127.0.0.1:${port}`;

      // Migrated a fresh database file and loaded the built-in catalog (2400+ vendors).
      ok((await Deno.stat(db)).isFile, "the database file was created");
      const loaded = log.map(jsonLine).find((e) => e?.msg === "catalog loaded");
      ok(Number(loaded?.vendors) > 2400, `catalog loaded line: ${JSON.stringify(loaded)}`);
      const res = await fetch(`${api}/api/services?q=github&limit=5`);
      equal(res.status, 200);
      const page = await res.json();
      ok(page.totalElements >= 1);
      ok(page.content.some((s: { slug: string }) => s.slug === "github"));
      const all = await (await fetch(`${api}/api/services?limit=1`)).json();
      equal(all.totalElements, loaded?.vendors);

      // The API reference viewer is embedded: /docs names it and it is served byte for byte.
      const docs = await (await fetch(`${api}/docs`)).text();
      const script = /<script src="(\/assets\/api-reference\.[0-9a-f]+\.js)"/.exec(docs)?.[1];
      ok(script, "the /docs page loads the viewer from statusd");
      const js = await fetch(`${api}${script}`, { headers: { "accept-encoding": "identity" } });
      equal(js.status, 200);
      equal(
        encodeHexLowerCase(sha256(new Uint8Array(await js.arrayBuffer()))),
        API_REFERENCE_SHA256,
        "the bundle carries the viewer unchanged",
      );
      const badge = await fetch(`${api}/badge/github.svg`);
      equal(badge.headers.get("content-type"), "image/svg+xml; charset=utf-8");
      match(await badge.text(), /aria-label="GitHub: unknown"/);

      const env = { DENO_DIR: denoDir, NO_COLOR: "1" };
      const help = await deno(["run", "-A", "status.js", "--help"], runDir, env);
      equal(help.code, 0);
      match(help.stdout, /^Usage: status <command>/m);
      match(help.stdout, /check\s+CI gate/);

      // With polling off nothing has been read yet: GitHub is UNKNOWN, so exit 1.
      const query = await deno(
        ["run", "-A", "status.js", "--api", api, "github", "--json"],
        runDir,
        env,
      );
      equal(query.code, 1, query.stderr);
      const body = JSON.parse(query.stdout);
      equal(body.ok, false);
      equal(body.services[0].slug, "github");
      equal(body.services[0].name, "GitHub");
      equal(body.services[0].currentStatus, "UNKNOWN");

      const unknown = await deno(["run", "-A", "status.js", "--api", api, "githubb"], runDir, env);
      equal(unknown.code, 2);
      match(unknown.stderr, /Unknown vendor "githubb": did you mean "github"/);

      // The admin commands live in the same bundle (a dynamic import main.ts resolves).
      const admin = await deno(
        ["run", "-A", "statusd.js", "admin", "list-accounts", "--json"],
        runDir,
        { ...env, STATUSD_DB: db },
      );
      equal(admin.code, 0, admin.stderr);
      deepStrictEqual(JSON.parse(admin.stdout), []);

      // Dependency files are read on the bundle's own worker thread (app/dependency_reader.ts).
      const adminEnv = { ...env, STATUSD_DB: db };
      const made = await deno(
        [
          "run",
          "-A",
          "statusd.js",
          "admin",
          "create-account",
          "--email",
          "o@example.com",
          "--password-stdin",
          "--plan",
          "PRO",
        ],
        runDir,
        adminEnv,
        "a long enough password\n",
      );
      equal(made.code, 0, made.stderr);
      const keyOut = await deno(
        [
          "run",
          "-A",
          "statusd.js",
          "admin",
          "create-key",
          "--email",
          "o@example.com",
          "--name",
          "k",
          "--scopes",
          "monitors:read",
        ],
        runDir,
        adminEnv,
      );
      equal(keyOut.code, 0, keyOut.stderr);
      const suggested = await fetch(`${api}/api/user/monitors/suggestions`, {
        method: "POST",
        headers: { "x-api-key": keyOut.stdout.trim(), "content-type": "application/json" },
        body: JSON.stringify({
          files: [{ name: "package.json", content: '{"dependencies":{"stripe":"^17.0.0"}}' }],
        }),
      });
      equal(suggested.status, 200, await suggested.clone().text());
      ok(
        (await suggested.json()).suggestions.some((x: { service: string }) =>
          x.service === "stripe"
        ),
      );
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the bundled server reads a large vendor document on its parse worker, serving once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const built = await (bundled ??= deno(["task", "bundle"], ROOT));
    equal(built.code, 0, `deno task bundle failed:\n${built.stderr}`);
    // A Statuspage vendor whose summary is far above the off-thread size (2,500 components).
    const summary = JSON.stringify({
      page: {
        id: "p",
        name: "Big",
        url: "https://big.example",
        updated_at: "2026-11-01T00:00:00Z",
      },
      status: { indicator: "minor", description: "Minor" },
      components: Array.from({ length: 2500 }, (_, i) => ({
        id: `c${i}`,
        name: `Component ${i} ${"x".repeat(200)}`,
        status: i === 7 ? "partial_outage" : "operational",
      })),
      incidents: [],
      scheduled_maintenances: [],
    });
    ok(summary.length > 512 * 1024);
    const vendor = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response(summary, { headers: { "content-type": "application/json" } }),
    );
    const dir = await Deno.makeTempDir({ prefix: "statusd-bundle-worker-" });
    await Deno.copyFile(join(ROOT, "dist", "statusd.js"), join(dir, "statusd.js"));
    await Deno.writeTextFile(
      join(dir, "catalog.json"),
      JSON.stringify([{
        name: "Big Vendor",
        slug: "big-vendor",
        statusPageUrl: `http://127.0.0.1:${vendor.addr.port}`,
        platform: "statuspage",
        category: "other",
        provider: "big-vendor",
        domains: [],
      }]),
    );
    const server = new Deno.Command(DENO, {
      args: ["run", "-A", "statusd.js"],
      cwd: dir,
      clearEnv: true,
      env: {
        DENO_DIR: join(dir, "deno-dir"),
        NO_COLOR: "1",
        PORT: "0",
        HOST: "127.0.0.1",
        STATUSD_DB: join(dir, "statusd.db"),
        STATUSD_CATALOG: join(dir, "catalog.json"),
        STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const log: string[] = [];
    try {
      const port = await listeningPort(server.stderr, log);
      let status = "UNKNOWN";
      for (let i = 0; i < 100 && status === "UNKNOWN"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const res = await fetch(`http://127.0.0.1:${port}/api/services/big-vendor`);
        status = (await res.json()).currentStatus;
      }
      equal(status, "PARTIAL_OUTAGE", "read through the worker inside the bundle");
      const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
      ok(health.poller.offThreadParses >= 1, JSON.stringify(health.poller));
      equal(log.map(jsonLine).filter((e) => e?.msg === "listening").length, 1, "one server");
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await vendor.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
