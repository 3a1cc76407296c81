/**
 * Outbound proxies (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`): vendor fetches and alert
 * deliveries go through the self-hoster's proxy by name (absolute-form for http, a CONNECT
 * tunnel for https, the certificate still checked against the vendor's name), hosts `NO_PROXY`
 * names go direct, the private-address check still refuses before anything is sent, and
 * credentials in the proxy URL reach the proxy as `Proxy-Authorization`. A real loopback proxy
 * (tests/support/forward_proxy.ts) stands in for the corporate one.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { fixedClock, type Vendor } from "../../domain/mod.ts";
import {
  parseAllowance,
  parseNoProxy,
  parseProxyUrl,
  type ProxyServer,
  type ProxySettings,
} from "../../lib/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { type FetchOutcome, politeFetch } from "../../ingest/http.ts";
import { createPoller } from "../../ingest/mod.ts";
import { createPinnedPool } from "../../ingest/pinned_client.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { type ForwardProxy, startForwardProxy, startSocksProxy } from "../support/forward_proxy.ts";
import { vendorState } from "../support/inspect.ts";
import { syncVendors } from "../support/seed.ts";
import { memoryStore } from "../support/store.ts";
import { makeTestCertificate, type TestCertificate } from "../support/tls.ts";
import { testPollerDeps } from "../support/poller.ts";

const parsed = parseAllowance("127.0.0.1");
if (!parsed.ok) throw new Error("unreachable");
const loopback = parsed.allowance;

let certificate: TestCertificate | null = null;
const tls = async () => certificate ??= await makeTestCertificate(["vendor.invalid"]);

const failure = (out: FetchOutcome) => out.kind === "failed" ? `${out.reason}: ${out.detail}` : "";

/** A proxy server read as its variable would be. */
function server(url: string): ProxyServer {
  const p = parseProxyUrl(url);
  if ("error" in p) throw new Error(p.error);
  return p;
}

/** Settings sending http and https through `proxy`, except what `noProxy` names. */
function through(proxy: ForwardProxy | string, noProxy = ""): ProxySettings {
  const s = server(typeof proxy === "string" ? proxy : proxy.url);
  return { http: s, https: s, noProxy: parseNoProxy(noProxy).entries };
}

/** A plain vendor on 127.0.0.1 answering `doc`, noting the `Host` of each request. */
function plainVendor(doc: string) {
  const hosts: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    hosts.push(req.headers.get("host"));
    return new Response(doc, { headers: { "content-type": "application/json" } });
  });
  return { server, hosts, port: server.addr.port };
}

/** politeFetch of `url` over a pool with `proxy`, names resolving to `address`. */
async function fetchThrough(
  url: string,
  proxy: ProxySettings,
  options: { address?: string; caCerts?: string[] } = {},
) {
  const pool = createPinnedPool({ proxy, caCerts: options.caCerts });
  try {
    return await politeFetch(url, {
      timeoutMs: 5000,
      allowPrivate: loopback,
      pool,
      resolve: () => Promise.resolve([options.address ?? "127.0.0.1"]),
    });
  } finally {
    pool.close();
  }
}

Deno.test("proxy: an http vendor is asked through HTTP_PROXY by name, and gets its own Host", async () => {
  const proxy = startForwardProxy();
  const vendor = plainVendor('{"ok":1}');
  try {
    const url = `http://status.vendor.invalid:${vendor.port}/api/v2/summary.json`;
    const out = await fetchThrough(url, through(proxy));
    equal(out.kind === "ok" && out.body, '{"ok":1}', failure(out));
    deepStrictEqual(proxy.requests, [`GET ${url}`]);
    deepStrictEqual(vendor.hosts, [`status.vendor.invalid:${vendor.port}`]);
  } finally {
    await proxy.close();
    await vendor.server.shutdown();
  }
});

Deno.test("proxy: an https vendor is reached through a CONNECT tunnel by name, its certificate checked against that name", async () => {
  const cert = await tls();
  const proxy = startForwardProxy();
  const vendor = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: cert.certPem, key: cert.keyPem, onListen: () => {} },
    () => new Response("secure"),
  );
  try {
    const out = await fetchThrough(
      `https://vendor.invalid:${vendor.addr.port}/x`,
      through(proxy),
      { caCerts: [cert.caPem] },
    );
    equal(out.kind === "ok" && out.body, "secure", failure(out));
    deepStrictEqual(proxy.requests, [`CONNECT vendor.invalid:${vendor.addr.port}`]);

    // The proxy connects a name to a server whose certificate is for another name: refused.
    const wrong = await fetchThrough(
      `https://other.invalid:${vendor.addr.port}/x`,
      through(proxy),
      { caCerts: [cert.caPem] },
    );
    equal(wrong.kind, "failed");
  } finally {
    await proxy.close();
    await vendor.shutdown();
  }
});

Deno.test("proxy: a SOCKS5 proxy (ALL_PROXY=socks5://…) is asked for the name, http and https alike", async () => {
  const cert = await tls();
  const socks = startSocksProxy();
  const plain = plainVendor("plain via socks");
  const secure = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: cert.certPem, key: cert.keyPem, onListen: () => {} },
    () => new Response("secure via socks"),
  );
  try {
    const settings = through(socks.url);
    const a = await fetchThrough(`http://vendor.invalid:${plain.port}/a`, settings);
    equal(a.kind === "ok" && a.body, "plain via socks", failure(a));
    const b = await fetchThrough(`https://vendor.invalid:${secure.addr.port}/b`, settings, {
      caCerts: [cert.caPem],
    });
    equal(b.kind === "ok" && b.body, "secure via socks", failure(b));
    deepStrictEqual(socks.requests, [
      `vendor.invalid:${plain.port}`,
      `vendor.invalid:${secure.addr.port}`,
    ]);
    deepStrictEqual(plain.hosts, [`vendor.invalid:${plain.port}`]);
  } finally {
    await socks.close();
    await plain.server.shutdown();
    await secure.shutdown();
  }
});

Deno.test("proxy: hosts NO_PROXY names (a domain and what is under it, an address, a port) go direct", async () => {
  const proxy = startForwardProxy();
  const vendor = plainVendor("direct");
  try {
    for (
      const [url, noProxy] of [
        [`http://status.vendor.invalid:${vendor.port}/a`, "vendor.invalid"],
        [`http://vendor.invalid:${vendor.port}/b`, ".vendor.invalid"],
        [`http://127.0.0.1:${vendor.port}/c`, "127.0.0.0/8"],
        [`http://vendor.invalid:${vendor.port}/d`, `other.invalid, vendor.invalid:${vendor.port}`],
        [`http://vendor.invalid:${vendor.port}/e`, "*"],
      ]
    ) {
      const out = await fetchThrough(url, through(proxy, noProxy));
      equal(out.kind === "ok" && out.body, "direct", `${url} (${noProxy}): ${failure(out)}`);
    }
    deepStrictEqual(proxy.requests, []);

    // A NO_PROXY port that is not the URL's, or a name that only ends like it: through the proxy.
    const viaProxy = [
      [`http://vendor.invalid:${vendor.port}/f`, "vendor.invalid:1"],
      [`http://notvendor.invalid:${vendor.port}/g`, "vendor.invalid"],
    ];
    for (const [url, noProxy] of viaProxy) {
      const out = await fetchThrough(url, through(proxy, noProxy));
      equal(out.kind === "ok" && out.body, "direct", `${url}: ${failure(out)}`);
    }
    deepStrictEqual(proxy.requests, viaProxy.map(([url]) => `GET ${url}`));
  } finally {
    await proxy.close();
    await vendor.server.shutdown();
  }
});

Deno.test("proxy: a name resolving to a private address is refused before anything reaches the proxy", async () => {
  const proxy = startForwardProxy();
  try {
    // Only 127.0.0.1 is allowed here.
    const out = await fetchThrough("http://intranet.vendor.invalid/status", through(proxy), {
      address: "10.1.2.3",
    });
    equal(out.kind === "failed" && out.reason, "refused_address", failure(out));
    const literal = await fetchThrough("http://169.254.169.254/latest/meta-data", through(proxy));
    equal(literal.kind === "failed" && literal.reason, "refused_address", failure(literal));
    deepStrictEqual(proxy.requests, []);
  } finally {
    await proxy.close();
  }
});

Deno.test("proxy: a name that does not resolve on statusd's host is not sent to the proxy, and the error says why", async () => {
  const proxy = startForwardProxy();
  const pool = createPinnedPool({ proxy: through(proxy) });
  try {
    const out = await politeFetch("https://status.only-the-proxy-knows.invalid/x", {
      timeoutMs: 5000,
      pool,
      resolve: () => Promise.reject(new Error("ENOTFOUND")),
    });
    equal(out.kind === "failed" && out.reason, "network", failure(out));
    equal(
      out.kind === "failed" && out.detail,
      `status.only-the-proxy-knows.invalid does not resolve on this host (names are checked here before they go to the proxy ${proxy.url})`,
    );
    deepStrictEqual(proxy.requests, []);
  } finally {
    pool.close();
    await proxy.close();
  }
});

Deno.test("proxy: credentials in the proxy URL are sent as Proxy-Authorization; wrong ones end in the proxy's 407", async () => {
  const expected = `Basic ${btoa("corp user:p@ss:word")}`;
  const proxy = startForwardProxy({ requireAuthorization: expected });
  const vendor = plainVendor("authorized");
  try {
    const port = Number(new URL(proxy.url).port);
    const good = await fetchThrough(
      `http://vendor.invalid:${vendor.port}/x`,
      through(`http://corp%20user:p%40ss%3Aword@127.0.0.1:${port}`),
    );
    equal(good.kind === "ok" && good.body, "authorized", failure(good));
    const bad = await fetchThrough(
      `http://vendor.invalid:${vendor.port}/x`,
      through(`http://corp%20user:wrong@127.0.0.1:${port}`),
    );
    equal(bad.kind === "failed" && bad.status, 407, failure(bad));
    deepStrictEqual(proxy.authorizations, [expected, `Basic ${btoa("corp user:wrong")}`]);
  } finally {
    await proxy.close();
    await vendor.server.shutdown();
  }
});

Deno.test("proxy: without proxy settings, proxy variables in the environment are not applied behind statusd's back", async () => {
  const proxy = startForwardProxy();
  const vendor = plainVendor("direct");
  // Another process, so this one's environment (shared by test files run in parallel) is left be.
  const pool = new URL("../../ingest/pinned_client.ts", import.meta.url).href;
  const code = `
    import { createPinnedPool } from "${pool}";
    const pool = createPinnedPool();
    for (const [url, address] of [
      ["http://vendor.invalid:${vendor.port}/name", "127.0.0.1"],
      ["http://127.0.0.1:${vendor.port}/literal", null],
    ]) {
      const res = await pool.fetch(new URL(url), address, { headers: [] });
      console.log(await res.text());
    }
    pool.close();
    console.log(Deno.env.get("HTTP_PROXY") === "${proxy.url}" ? "left as it was" : "changed");
  `;
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", code],
      env: { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: "", no_proxy: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(out.stdout).trim().split("\n");
    deepStrictEqual(
      said,
      ["direct", "direct", "left as it was"],
      new TextDecoder().decode(out.stderr),
    );
    deepStrictEqual(proxy.requests, []);
  } finally {
    await proxy.close();
    await vendor.server.shutdown();
  }
});

Deno.test("proxy: an alert webhook is delivered through the proxy", async () => {
  const proxy = startForwardProxy();
  const got: { host: string | null; body: string }[] = [];
  const receiver = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      got.push({ host: req.headers.get("host"), body: await req.text() });
      return new Response("thanks");
    },
  );
  const sender = createHttpSender({
    timeoutMs: 5000,
    allowPrivate: loopback,
    resolve: () => Promise.resolve(["127.0.0.1"]),
    proxy: through(proxy),
  });
  try {
    const url = `http://hooks.invalid:${receiver.addr.port}/hook`;
    const result = await sender.send({
      kind: "http",
      url,
      headers: { "content-type": "application/json" },
      body: '{"text":"down"}',
    });
    equal(result.ok, true, result.error ?? "");
    equal(result.reply, "thanks");
    deepStrictEqual(proxy.requests, [`POST ${url}`]);
    deepStrictEqual(got, [{
      host: `hooks.invalid:${receiver.addr.port}`,
      body: '{"text":"down"}',
    }]);
  } finally {
    sender.close();
    await proxy.close();
    await receiver.shutdown();
  }
});

Deno.test("proxy: the poller reads a vendor through the proxy and stores its reading", async () => {
  const proxy = startForwardProxy();
  const doc = JSON.stringify({
    page: {
      id: "p",
      name: "Vendor",
      url: "http://vendor.invalid",
      updated_at: "2026-05-21T11:00:00Z",
    },
    status: { indicator: "minor", description: "Partial outage" },
    components: [{ id: "api", name: "API", status: "partial_outage", position: 1 }],
    incidents: [],
  });
  const vendor = plainVendor(doc);
  const store = memoryStore();
  const clock = fixedClock(Date.UTC(2026, 4, 21, 12));
  const v: Vendor = {
    slug: "proxied",
    name: "Proxied",
    statusPageUrl: `http://status.vendor.invalid:${vendor.port}`,
    platform: "statuspage",
    category: "cloud",
    provider: "proxied",
    domains: [],
  };
  await syncVendors(store, [v], clock.now());
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 2,
      timeoutMs: 5000,
      allowPrivate: loopback,
      proxy: through(proxy),
    },
    testPollerDeps(store, clock, {
      adapters: { statuspage },
      resolve: () => Promise.resolve(["127.0.0.1"]),
    }),
  );
  try {
    await poller.runOnce();
    const state = await vendorState(store, "proxied");
    equal(state.currentStatus, "PARTIAL_OUTAGE");
    equal(
      proxy.requests.some((r) => r.startsWith(`GET http://status.vendor.invalid:${vendor.port}/`)),
      true,
      proxy.requests.join(", "),
    );
  } finally {
    await poller.stop();
    await proxy.close();
    await vendor.server.shutdown();
    await store.close();
  }
});
