/**
 * The `status` client behind an outbound proxy: an API on this machine is asked directly
 * whatever `HTTP_PROXY` says (a proxy's `localhost` is another machine), any other API goes
 * through the proxy the variables name, and failing to reach it says which proxy was tried.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { apiRoute } from "../../cli/status/proxy.ts";
import { fixedClock } from "../../domain/mod.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { startForwardProxy } from "../support/forward_proxy.ts";
import { runStatus, serveApi } from "../support/status_cli.ts";
import { freePort } from "../support/statusd_process.ts";

/** A statusd API on 127.0.0.1 serving one vendor, not read yet. */
async function api() {
  const clock = fixedClock(Date.UTC(2026, 10, 20, 12));
  const store = openSqliteStore(":memory:", { commitWindows: TEST_COMMIT_WINDOWS });
  await store.catalog.sync([{
    name: "Calm Co",
    slug: "calm-co",
    statusPageUrl: "https://status.calm.example",
    platform: "statuspage",
    category: "devtools",
    provider: "calm-co",
    domains: [],
  }], clock.now());
  const served = serveApi(store, clock);
  return {
    port: served.port,
    async close() {
      await served.close();
      await store.close();
    },
  };
}

/** Runs `status` as a user's shell would, with `env` (NO_COLOR on). */
const status = (args: string[], env: Record<string, string>) =>
  runStatus(args, { NO_COLOR: "1", ...env });

Deno.test("apiRoute: this machine is direct; other hosts take the scheme's proxy unless NO_PROXY names them", () => {
  const env = {
    HTTP_PROXY: "http://ops:s3cret@proxy.corp:3128",
    https_proxy: "http://tls-proxy.corp:3128",
    NO_PROXY: "internal.corp",
  };
  for (
    const url of [
      "http://localhost:8080",
      "http://statusd.localhost",
      "http://127.0.0.2:1",
      "http://[::1]:8080",
      "http://[::ffff:127.0.0.1]:8080",
    ]
  ) {
    deepStrictEqual(apiRoute(url, env), { loopback: true, proxy: null, variable: null }, url);
  }
  deepStrictEqual(apiRoute("http://statusd.corp.example", env), {
    loopback: false,
    proxy: "http://proxy.corp:3128",
    variable: "HTTP_PROXY",
  });
  deepStrictEqual(apiRoute("https://statusd.corp.example", env), {
    loopback: false,
    proxy: "http://tls-proxy.corp:3128",
    variable: "https_proxy",
  });
  equal(apiRoute("https://statusd.internal.corp", env).proxy, null);
  equal(apiRoute("http://statusd.corp.example", {}).proxy, null);
});

Deno.test({
  name:
    "status behind a proxy: the local API directly, a remote one through the proxy, and an unreachable proxy named",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await api();
    const proxy = startForwardProxy();
    const dead = `http://127.0.0.1:${freePort()}`;
    try {
      // The default API (localhost) and a loopback address: straight there, the proxy unused.
      for (const base of [`http://localhost:${server.port}`, `http://127.0.0.1:${server.port}`]) {
        const run = await status(["calm-co"], { STATUS_API_URL: base, HTTP_PROXY: dead });
        equal(run.stderr, "", base);
        ok(run.stdout.includes("calm-co"), run.stdout);
      }

      // A remote API: through the proxy, by name.
      const remote = `http://statusd.corp.invalid:${server.port}`;
      const through = await status(["calm-co"], { STATUS_API_URL: remote, HTTP_PROXY: proxy.url });
      equal(through.stderr, "");
      ok(through.stdout.includes("calm-co"), through.stdout);
      ok(proxy.requests.length > 0 && proxy.requests.every((r) => r.startsWith(`GET ${remote}/`)));

      // The proxy does not answer: the message names it and the variable.
      const down = await status(["calm-co"], { STATUS_API_URL: remote, HTTP_PROXY: dead });
      equal(
        down.stderr.trim(),
        `status: Cannot reach the statusd API at ${remote} through the proxy ${dead} (HTTP_PROXY; NO_PROXY names hosts reached directly): connection refused`,
      );
      equal(down.code, 3);
    } finally {
      await proxy.close();
      await server.close();
    }
  },
});
