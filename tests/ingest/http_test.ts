import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { parseAllowance } from "../../lib/mod.ts";
import { type FetchOptions, politeFetch } from "../../ingest/http.ts";
import { ALLOW_SIMULATOR, type Scenario, startSimulator } from "../support/simulator.ts";
import { makeTestCertificate } from "../support/tls.ts";

const allowed = { timeoutMs: 2000, allowPrivate: ALLOW_SIMULATOR } satisfies FetchOptions;

Deno.test("politeFetch: conditional GET gives not_modified until the document changes", async () => {
  const sim = startSimulator();
  try {
    const [v] = sim.catalog(1);
    const url = `${v!.statusPageUrl}/api/v2/summary.json`;
    const first = await politeFetch(url, allowed);
    equal(first.kind, "ok");
    if (first.kind !== "ok") return;
    ok(first.etag && first.lastModified);
    const again = await politeFetch(url, { ...allowed, etag: first.etag });
    equal(again.kind, "not_modified");
    const byDate = await politeFetch(url, { ...allowed, lastModified: first.lastModified });
    equal(byDate.kind, "not_modified");
    sim.setScenario(v!.slug, "outage");
    const changed = await politeFetch(url, { ...allowed, etag: first.etag });
    equal(changed.kind, "ok");
    ok(changed.kind === "ok" && changed.body.includes("GitHub"));
  } finally {
    await sim.close();
  }
});

Deno.test("politeFetch turns every broken answer into a failure with its reason", async () => {
  const sim = startSimulator();
  const cases: [Scenario, string][] = [
    ["hang", "timeout"],
    ["status_500", "http_status"],
    ["redirect_loop", "redirect_loop"],
    ["huge", "too_large"],
  ];
  try {
    const vendors = sim.catalog(cases.length);
    const results = await Promise.all(cases.map(([scenario], i) => {
      sim.setScenario(vendors[i]!.slug, scenario);
      return politeFetch(vendors[i]!.statusPageUrl, { ...allowed, timeoutMs: 500 });
    }));
    deepStrictEqual(
      results.map((r) => r.kind === "failed" ? r.reason : r.kind),
      cases.map(([, reason]) => reason),
    );
    const http500 = results[1]!;
    equal(http500.kind === "failed" && http500.status, 500);
  } finally {
    await sim.close();
  }
});

/** A loopback server that counts requests (the "internal" service a redirect aims at). */
function internalServer(hostname: string) {
  const hits: string[] = [];
  const server = Deno.serve({ hostname, port: 0, onListen: () => {} }, (req) => {
    hits.push(`${req.headers.get("host")} ${new URL(req.url).pathname}`);
    return new Response("internal secret", { headers: { "content-type": "text/plain" } });
  });
  return { port: server.addr.port, hits, close: () => server.shutdown() };
}

function reason(out: Awaited<ReturnType<typeof politeFetch>>): string {
  return out.kind === "failed" ? out.reason : out.kind;
}

Deno.test("politeFetch refuses loopback by default, in every spelling, before connecting", async () => {
  const internal = internalServer("127.0.0.1");
  const port = internal.port;
  try {
    const spellings = [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://127.1:${port}/`,
      `http://017700000001:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      `http://localhost:${port}/`,
      `http://LOCALHOST.:${port}/`,
      `http://status.localhost:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://[::]:${port}/`,
    ];
    for (const url of spellings) {
      const out = await politeFetch(url, { timeoutMs: 1000 });
      equal(reason(out), "refused_address", url);
    }
    deepStrictEqual(internal.hits, []);
  } finally {
    await internal.close();
  }
});

Deno.test("politeFetch refuses names whose DNS answers include a non-public address", async () => {
  const cases: [string[], string][] = [
    [["93.184.216.34", "10.1.2.3"], "refused_address"],
    [["169.254.169.254"], "refused_address"],
    [["100.64.1.1"], "refused_address"],
    [["::ffff:192.168.0.1"], "refused_address"],
    [["64:ff9b::a9fe:a9fe"], "refused_address"],
    [["fd00::1"], "refused_address"],
    [[], "network"],
  ];
  for (const [answers, expected] of cases) {
    const out = await politeFetch("http://status.example.test/", {
      timeoutMs: 1000,
      resolve: () => Promise.resolve(answers),
    });
    equal(reason(out), expected, answers.join(","));
  }
  const out = await politeFetch("http://status.example.test/", {
    timeoutMs: 1000,
    resolve: () => Promise.resolve(["10.1.2.3"]),
  });
  ok(out.kind === "failed" && out.detail.includes("status.example.test resolves to 10.1.2.3"));
});

Deno.test("a redirect from an allowed vendor to another loopback address is refused, unfetched", async () => {
  const sim = startSimulator();
  const internal = internalServer("127.0.0.2");
  try {
    const [v] = sim.catalog(1);
    sim.setDocument(v!.slug, "", {
      body: "",
      contentType: "text/plain",
      status: 302,
      headers: { location: `http://127.0.0.2:${internal.port}/internal` },
    });
    const out = await politeFetch(v!.statusPageUrl, allowed);
    equal(reason(out), "refused_address");
    ok(out.kind === "failed" && !out.detail.includes("secret"));
    deepStrictEqual(internal.hits, []);
    // The self-hoster may allow that address too; then the redirect is followed.
    const both = parseAllowance("127.0.0.1,127.0.0.2");
    ok(both.ok);
    const followed = await politeFetch(v!.statusPageUrl, {
      ...allowed,
      allowPrivate: both.allowance,
    });
    equal(followed.kind === "ok" && followed.body, "internal secret");
  } finally {
    await internal.close();
    await sim.close();
  }
});

Deno.test("politeFetch connects to the address it checked, never resolving a name twice", async () => {
  const target = internalServer("127.0.0.1");
  const rebound = internalServer("127.0.0.2");
  try {
    // A rebinding name: the first answer is allowed, any later one points elsewhere. The
    // `.invalid` name cannot resolve through the system, so success proves the connection
    // went to the address the guard checked.
    let lookups = 0;
    const resolve = () => Promise.resolve([++lookups === 1 ? "127.0.0.1" : "127.0.0.2"]);
    const out = await politeFetch(`http://vendor.invalid:${target.port}/summary.json`, {
      ...allowed,
      resolve,
    });
    equal(out.kind === "ok" && out.body, "internal secret");
    equal(lookups, 1);
    deepStrictEqual(target.hits, [`vendor.invalid:${target.port} /summary.json`]);
    deepStrictEqual(rebound.hits, []);
  } finally {
    await target.close();
    await rebound.close();
  }
});

Deno.test("politeFetch names the host whose connection failed, so a cached address is looked up again", async () => {
  const live = internalServer("127.0.0.1");
  const loopback = parseAllowance("127.0.0.0/8");
  if (!loopback.ok) throw new Error("allowance");
  try {
    const forgotten: string[] = [];
    let answer = "127.0.0.2"; // nothing listens there: the connection is refused
    const options = {
      timeoutMs: 2000,
      allowPrivate: loopback.allowance,
      resolve: () => Promise.resolve([answer]),
      forgetHost: (host: string) => forgotten.push(host),
    } satisfies FetchOptions;
    const refused = await politeFetch(`http://Vendor.INVALID.:${live.port}/status.json`, options);
    equal(reason(refused), "network");
    deepStrictEqual(forgotten, ["vendor.invalid"], "the name as it is looked up");
    answer = "127.0.0.1";
    const fine = await politeFetch(`http://vendor.invalid:${live.port}/status.json`, options);
    equal(fine.kind === "ok" && fine.body, "internal secret");
    deepStrictEqual(forgotten, ["vendor.invalid"], "an answered request forgets nothing");
    const literal = await politeFetch(`http://127.0.0.2:${live.port}/`, options);
    equal(reason(literal), "network");
    deepStrictEqual(forgotten, ["vendor.invalid"], "an address needs no lookup to forget");
  } finally {
    await live.close();
  }
});

Deno.test("a name answering only IPv6 is pinned to that address, http and https", async () => {
  const v6 = parseAllowance("::1");
  ok(v6.ok);
  const tls = await makeTestCertificate(["vendor.invalid"]);
  const plain = Deno.serve(
    { hostname: "::1", port: 0, onListen: () => {} },
    (req) => new Response(`plain ${req.headers.get("host")}`),
  );
  const secure = Deno.serve(
    { hostname: "::1", port: 0, cert: tls.certPem, key: tls.keyPem, onListen: () => {} },
    () => new Response("secure"),
  );
  try {
    const options = {
      timeoutMs: 2000,
      allowPrivate: v6.allowance,
      caCerts: [tls.caPem],
      resolve: () => Promise.resolve(["::1"]),
    };
    const a = await politeFetch(`http://vendor.invalid:${plain.addr.port}/`, options);
    equal(a.kind === "ok" && a.body, `plain vendor.invalid:${plain.addr.port}`);
    const b = await politeFetch(`https://vendor.invalid:${secure.addr.port}/`, options);
    equal(b.kind === "ok" && b.body, "secure");
  } finally {
    await plain.shutdown();
    await secure.shutdown();
  }
});

Deno.test("https through a pinned address keeps TLS verification of the host name", async () => {
  const tls = await makeTestCertificate(["vendor.invalid"]);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: tls.certPem, key: tls.keyPem, onListen: () => {} },
    (req) => Response.json({ host: new URL(req.url).hostname }),
  );
  try {
    const options = {
      ...allowed,
      caCerts: [tls.caPem],
      resolve: () => Promise.resolve(["127.0.0.1"]),
    };
    const out = await politeFetch(`https://vendor.invalid:${server.addr.port}/`, options);
    equal(out.kind === "ok" && out.body, '{"host":"vendor.invalid"}');
    // The same address under a name the certificate does not carry fails verification.
    const wrong = await politeFetch(`https://other.invalid:${server.addr.port}/`, options);
    equal(reason(wrong), "network");
    ok(
      wrong.kind === "failed" && /other\.invalid.* not in the cert's altnames/.test(wrong.detail),
      wrong.kind === "failed" ? wrong.detail : wrong.kind,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("politeFetch: the caller's signal ends every fetch in flight under it, and later ones at once", async () => {
  const sim = startSimulator();
  try {
    const vendors = sim.catalog(2);
    for (const v of vendors) sim.setScenario(v.slug, "hang");
    const stop = new AbortController();
    const options = { ...allowed, timeoutMs: 60_000, signal: stop.signal };
    const inFlight = vendors.map((v) =>
      politeFetch(`${v.statusPageUrl}/api/v2/summary.json`, options)
    );
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    const ended = await Promise.all(inFlight);
    deepStrictEqual(ended.map((o) => o.kind), ["failed", "failed"]);
    ok(ended.every((o) => o.latencyMs < 60_000), "ended by the signal, not the timeout");
    const late = await politeFetch(`${vendors[0]!.statusPageUrl}/api/v2/summary.json`, options);
    equal(late.kind, "failed");
  } finally {
    await sim.close();
  }
});
