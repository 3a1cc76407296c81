/**
 * Adding a status page by URL (`/api/user/vendors`, #47): every platform statusd reads, served
 * on loopback by the vendor simulator, read once through the real page reader and its guard; a
 * page that is no status page, one that hangs, one of 50 MB and one on an address statusd may
 * not reach each get a 422 saying why; two accounts adding one page make one vendor, listed
 * for them only; the plan's limit; removal stops the reading.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { NO_PRIVATE_ADDRESSES } from "../../../lib/mod.ts";
import { readStatusPage } from "../../../ingest/mod.ts";
import { account, key } from "../../support/accounts.ts";
import { apiRig } from "../../support/api.ts";
import { addVendor } from "../../support/seed.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../../support/simulator.ts";
import { SIMULATED_PLATFORM_NAMES } from "../../support/platform_docs.ts";

async function rig(opts: { allow?: boolean; timeoutMs?: number } = {}) {
  const sim = startSimulator();
  const r = apiRig({
    readStatusPage: (url) =>
      readStatusPage(url, {
        allowPrivate: opts.allow === false ? NO_PRIVATE_ADDRESSES : ALLOW_SIMULATOR,
        timeoutMs: opts.timeoutMs ?? 5_000,
        maxBytes: 1024 * 1024,
      }),
  });
  const a = await account(r.ctx, "a@example.com");
  const b = await account(r.ctx, "b@example.com");
  // A key is made on PRO; the account is FREE afterwards (the operator moved it down).
  const free = await account(r.ctx, "free@example.com");
  const scopes = ["monitors:read", "monitors:write", "status:read"] as const;
  const keys = {
    a: await key(r.ctx, a, "a", [...scopes]),
    b: await key(r.ctx, b, "b", [...scopes]),
    free: await key(r.ctx, free, "free", [...scopes]),
    readOnly: await key(r.ctx, a, "ro", ["monitors:read"]),
  };
  await r.store.accounts.setPlan(free.account.id, "FREE");
  const call = async (method: string, path: string, apiKey: string, body?: unknown) => {
    const res = await r.app.request(`http://localhost:8080${path}`, {
      method,
      headers: {
        "X-API-Key": apiKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  const add = (apiKey: string, statusPageUrl: string) =>
    call("POST", "/api/user/vendors", apiKey, { statusPageUrl });
  return {
    sim,
    r,
    keys,
    call,
    add,
    async [Symbol.asyncDispose]() {
      await r.close();
      await sim.close();
    },
  };
}

/**
 * The platforms a page shows by what it serves (its API, its feed, its HTML). The others are
 * known by their vendors' own hosts (status.aws.amazon.com, status.cloud.google.com…), which a
 * loopback page cannot have: they are catalog vendors, answered as listed.
 */
const BY_CONTENT = [
  "statuspage",
  "incidentio",
  "instatus",
  "betterstack",
  "cachet",
  "rss",
] as const;

Deno.test("a page of every platform it shows by its content is added by its URL, with its platform and components", async () => {
  await using t = await rig();
  for (const platform of BY_CONTENT) {
    ok(SIMULATED_PLATFORM_NAMES.includes(platform));
    const [vendor] = t.sim.catalog(1, `by-url-${platform}`, platform);
    if (platform === "cachet") {
      // A Cachet 2.x page says so on its HTML ("Powered by Cachet"); its API is under it.
      t.sim.setDocument(vendor!.slug, "", {
        body: "<html><head><title>Acme Status</title></head><body>Powered by " +
          '<a href="https://cachethq.io">Cachet</a></body></html>',
        contentType: "text/html",
      });
    }
    const res = await t.add(t.keys.a, vendor!.statusPageUrl);
    equal(res.status, 201, `${platform}: ${JSON.stringify(res.json)}`);
    equal(res.json.platform, platform, platform);
    equal(res.json.listed, "account");
    ok(res.json.slug.length > 0 && typeof res.json.name === "string", platform);
    ok(Array.isArray(res.json.components), platform);
    equal(res.json.addedAt, new Date(t.r.clock.now()).toISOString());
    // It can be monitored like any catalog vendor.
    const monitor = await t.call("POST", "/api/user/monitors", t.keys.a, {
      service: res.json.slug,
    });
    equal(monitor.status, 201, `${platform} monitor: ${JSON.stringify(monitor.json)}`);
  }
});

Deno.test("two accounts adding one page make one vendor, listed for them and nobody else", async () => {
  await using t = await rig();
  const [vendor] = t.sim.catalog(1, "shared-page");
  const first = await t.add(t.keys.a, vendor!.statusPageUrl);
  equal(first.status, 201);
  const second = await t.add(t.keys.b, `${vendor!.statusPageUrl}/`);
  equal(second.status, 201);
  equal(second.json.slug, first.json.slug, "the same vendor");
  const again = await t.add(t.keys.b, vendor!.statusPageUrl);
  equal(again.status, 200, "adding it again adds nothing");
  const list = await t.call("GET", "/api/user/vendors", t.keys.b);
  deepStrictEqual(
    list.json.content.map((v: { slug: string; accounts: number }) => [
      v.slug,
      v.accounts,
    ]),
    [[first.json.slug, 2]],
  );
  // Search: listed for the accounts that added it, not for anyone else.
  const mine = await t.call("GET", `/api/services?q=${first.json.slug}`, t.keys.a);
  ok(mine.json.content.some((s: { slug: string }) => s.slug === first.json.slug));
  const anonymous = await (await t.r.get(`/api/services?q=${first.json.slug}`)).json();
  ok(!anonymous.content.some((s: { slug: string }) => s.slug === first.json.slug));
  // Readable by its slug, like any vendor.
  equal((await t.r.get(`/api/services/${first.json.slug}`)).status, 200);
});

Deno.test("a page statusd cannot read is a 422 saying why, and nothing is stored", async () => {
  await using t = await rig({ timeoutMs: 1_500 });
  const [html, hang, huge, gone] = t.sim.catalog(4, "unreadable");
  t.sim.setScenario(html!.slug, "html");
  t.sim.setScenario(hang!.slug, "hang");
  t.sim.setScenario(huge!.slug, "huge");
  t.sim.setScenario(gone!.slug, "not_found");
  const cases: [string, string][] = [
    [html!.statusPageUrl, "not_a_status_page"],
    [hang!.statusPageUrl, "unreachable"],
    [huge!.statusPageUrl, "unreadable"],
    [gone!.statusPageUrl, "unreachable"],
  ];
  for (const [url, reason] of cases) {
    const res = await t.add(t.keys.a, url);
    equal(res.status, 422, `${url}: ${JSON.stringify(res.json)}`);
    equal(res.json.error, "page_unreadable");
    equal(res.json.reason, reason, url);
    match(res.json.message, /^statusd could not read this status page: /);
    ok(!/\bat \w+ \(|Error:/.test(res.json.message), "no stack trace");
  }
  match((await t.add(t.keys.a, gone!.statusPageUrl)).json.message, /HTTP 404/);
  for (
    const bad of ["not a url", "ftp://status.example.com", "https://user:pw@status.example.com"]
  ) {
    const res = await t.add(t.keys.a, bad);
    equal(res.status, 400, bad);
    equal(res.json.error, "invalid_request");
  }
  deepStrictEqual((await t.call("GET", "/api/user/vendors", t.keys.a)).json.content, []);
});

Deno.test("a page on a private address is refused unless the self-hoster allowed it", async () => {
  await using t = await rig({ allow: false });
  const [vendor] = t.sim.catalog(1, "private-page");
  const res = await t.add(t.keys.a, vendor!.statusPageUrl);
  equal(res.status, 422);
  equal(res.json.reason, "refused_address");
});

Deno.test("a listed vendor's page adds nothing; FREE adds three; the scopes hold; removal stops reading", async () => {
  await using t = await rig();
  await addVendor(t.r.store, { slug: "acme", name: "Acme" }, t.r.clock.now());
  const listed = await t.add(t.keys.a, "https://ACME.example.test");
  equal(listed.status, 200);
  deepStrictEqual([listed.json.slug, listed.json.listed, listed.json.addedAt], [
    "acme",
    "catalog",
    null,
  ]);

  const pages = t.sim.catalog(4, "free-pages");
  for (const page of pages.slice(0, 3)) {
    equal((await t.add(t.keys.free, page.statusPageUrl)).status, 201);
  }
  const fourth = await t.add(t.keys.free, pages[3]!.statusPageUrl);
  equal(fourth.status, 403);
  equal(fourth.json.error, "plan_required");

  equal((await t.add(t.keys.readOnly, pages[0]!.statusPageUrl)).status, 403, "monitors:write");
  const slug = (await t.call("GET", "/api/user/vendors", t.keys.free)).json.content[0].slug;
  equal((await t.call("DELETE", `/api/user/vendors/${slug}`, t.keys.a)).status, 404, "not a's");
  equal((await t.call("DELETE", `/api/user/vendors/${slug}`, t.keys.free)).status, 204);
  equal((await t.r.get(`/api/services/${slug}`)).status, 404, "no longer read by anyone");
  equal((await t.call("GET", "/api/user/vendors", t.keys.free)).json.content.length, 2);
});
