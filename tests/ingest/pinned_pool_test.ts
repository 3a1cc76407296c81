import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { parseAllowance } from "../../lib/mod.ts";
import { politeFetch, RETRY_AFTER_MAX_MS, retryAfterOf } from "../../ingest/http.ts";
import { createPinnedPool } from "../../ingest/pinned_client.ts";
import { makeTestCertificate } from "../support/tls.ts";

const loopback = parseAllowance("127.0.0.1");
if (!loopback.ok) throw new Error("unreachable");

/** A server on 127.0.0.1 that records, per request, the Host it was asked for and the client port. */
function countingServer(tls?: { certPem: string; keyPem: string }) {
  const seen: { host: string | null; peer: number }[] = [];
  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
      ...(tls ? { cert: tls.certPem, key: tls.keyPem } : {}),
    },
    (req, info) => {
      seen.push({ host: req.headers.get("host"), peer: (info.remoteAddr as Deno.NetAddr).port });
      return new Response("fine", { headers: { "content-type": "text/plain" } });
    },
  );
  return { port: server.addr.port, seen, close: () => server.shutdown() };
}

Deno.test("a pinned pool reuses one connection for many http fetches of a name, Host kept", async () => {
  const server = countingServer();
  const pool = createPinnedPool();
  try {
    let lookups = 0;
    const options = {
      timeoutMs: 2000,
      allowPrivate: loopback.allowance,
      pool,
      resolve: () => (lookups++, Promise.resolve(["127.0.0.1"])),
    };
    for (let i = 0; i < 5; i++) {
      const out = await politeFetch(`http://vendor.invalid:${server.port}/status.json`, options);
      equal(out.kind === "ok" && out.body, "fine");
      equal(out.kind === "ok" && out.url, `http://vendor.invalid:${server.port}/status.json`);
    }
    equal(lookups, 5, "every fetch is checked");
    deepStrictEqual(
      new Set(server.seen.map((s) => s.host)),
      new Set([`vendor.invalid:${server.port}`]),
    );
    equal(new Set(server.seen.map((s) => s.peer)).size, 1, "one connection for five fetches");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a pinned pool tunnels https to the checked address and reuses the connection", async () => {
  const tls = await makeTestCertificate(["vendor.invalid"]);
  const server = countingServer(tls);
  const pool = createPinnedPool({ caCerts: [tls.caPem] });
  try {
    const options = {
      timeoutMs: 3000,
      allowPrivate: loopback.allowance,
      pool,
      resolve: () => Promise.resolve(["127.0.0.1"]),
    };
    for (let i = 0; i < 4; i++) {
      const out = await politeFetch(`https://vendor.invalid:${server.port}/`, options);
      equal(out.kind === "ok" && out.body, "fine");
    }
    equal(server.seen.length, 4);
    equal(new Set(server.seen.map((s) => s.peer)).size, 1, "one TLS connection for four fetches");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("through a shared pool a name that rebinds to a refused address is never reached", async () => {
  const server = countingServer();
  const internal = Deno.serve(
    { hostname: "127.0.0.2", port: 0, onListen: () => {} },
    () => new Response("internal secret"),
  );
  const pool = createPinnedPool();
  try {
    let answer = "127.0.0.1";
    const options = {
      timeoutMs: 2000,
      allowPrivate: loopback.allowance,
      pool,
      resolve: () => Promise.resolve([answer]),
    };
    const first = await politeFetch(`http://vendor.invalid:${server.port}/`, options);
    equal(first.kind, "ok");
    answer = "127.0.0.2";
    const second = await politeFetch(`http://vendor.invalid:${internal.addr.port}/`, options);
    equal(second.kind === "failed" && second.reason, "refused_address");
    equal(server.seen.length, 1);
  } finally {
    pool.close();
    await server.close();
    await internal.shutdown();
  }
});

Deno.test("retryAfterOf reads delay seconds and HTTP dates, bounded; junk is ignored", () => {
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  equal(retryAfterOf("120", now), 120_000);
  equal(retryAfterOf(" 0 ", now), 0);
  equal(retryAfterOf("Fri, 20 Nov 2026 12:10:00 GMT", now), 600_000);
  equal(retryAfterOf("Fri, 20 Nov 2026 11:00:00 GMT", now), 0, "a date in the past means now");
  equal(retryAfterOf("99999999", now), RETRY_AFTER_MAX_MS);
  equal(retryAfterOf(null, now), undefined);
  equal(retryAfterOf("soon", now), undefined);
  equal(retryAfterOf("-5", now), undefined);
  equal(retryAfterOf("1e3", now), undefined);
});

Deno.test("a 429 with Retry-After is a failure that says how long the vendor asked to wait", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("slow down", { status: 429, headers: { "retry-after": "90" } }),
  );
  try {
    const out = await politeFetch(`http://127.0.0.1:${server.addr.port}/`, {
      timeoutMs: 2000,
      allowPrivate: loopback.allowance,
    });
    ok(out.kind === "failed");
    equal(out.reason, "http_status");
    equal(out.status, 429);
    equal(out.retryAfterMs, 90_000);
    ok(out.detail.includes("asked to wait 90 s"), out.detail);
  } finally {
    await server.shutdown();
  }
});
