/**
 * `status which` and `status add` against a real statusd (HTTP on loopback), run as a
 * subprocess: a host, URL or error line names its vendor (exit 0) or none (exit 2); a status
 * page statusd lacks is added by its URL (exit 0), one it cannot read says why (exit 2), and
 * without a key holding monitors:write the API refuses (exit 3).
 */
import { equal, match } from "node:assert/strict";
import { readStatusPage } from "../../ingest/mod.ts";
import { addVendor, apiRig } from "../support/api.ts";
import { account, key } from "../support/accounts.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import { runStatus } from "../support/status_cli.ts";

const status = (args: string[], env: Record<string, string> = {}) =>
  runStatus(args, { NO_COLOR: "1", ...env });

Deno.test("status which names the vendor of a host, a URL or an error line; none is exit 2", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    await addVendor(r.store, {
      slug: "openai",
      name: "OpenAI",
      domains: ["openai.com"],
      status: "OPERATIONAL",
    });
    const found = await status([
      "which",
      "https://api.openai.com/v1/chat/completions",
      "--api",
      api,
    ]);
    equal(found.code, 0, found.stderr);
    match(found.stdout, /OpenAI \(openai\)\s+OPERATIONAL\s+api\.openai\.com is under openai\.com/);
    const line = await status([
      "which",
      "getaddrinfo",
      "ENOTFOUND",
      "api.openai.com",
      "--api",
      api,
      "--json",
    ]);
    equal(line.code, 0);
    equal(JSON.parse(line.stdout).matches[0].slug, "openai");
    const none = await status(["which", "registry.npmjs.org", "--api", api]);
    equal(none.code, 2);
    match(none.stdout, /No vendor statusd knows owns "registry\.npmjs\.org"/);
    equal((await status(["which", "--api", api])).code, 2);
  } finally {
    await server.shutdown();
    await r.close();
  }
});

Deno.test("status add adds a page by its URL; an unreadable page says why (exit 2); no key is exit 3", async () => {
  const sim = startSimulator();
  const r = apiRig({
    readStatusPage: (url) =>
      readStatusPage(url, { allowPrivate: ALLOW_SIMULATOR, timeoutMs: 3_000 }),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    const who = await account(r.ctx, "ops@example.test");
    const writer = await key(r.ctx, who, "cli", ["monitors:write"]);
    const [page, html] = sim.catalog(2, "cli-added");
    sim.setScenario(html!.slug, "html");
    const added = await status(["add", page!.statusPageUrl, "--api", api, "--json"], {
      STATUS_API_KEY: writer,
    });
    equal(added.code, 0, added.stderr);
    const v = JSON.parse(added.stdout);
    equal(v.platform, "statuspage");
    equal(v.listed, "account");
    equal((await r.store.catalog.accountVendors(who.account.id))[0]?.slug, v.slug);
    const words = await status(["add", page!.statusPageUrl, "--api", api], {
      STATUS_API_KEY: writer,
    });
    equal(words.code, 0);
    match(words.stdout, /is listed already|Added /);
    const unreadable = await status(["add", html!.statusPageUrl, "--api", api], {
      STATUS_API_KEY: writer,
    });
    equal(unreadable.code, 2);
    match(unreadable.stderr, /statusd could not read this status page: no status page/);
    equal((await status(["add", page!.statusPageUrl, "--api", api])).code, 3);
  } finally {
    await server.shutdown();
    await r.close();
    await sim.close();
  }
});
