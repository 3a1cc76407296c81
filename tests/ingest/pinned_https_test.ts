/**
 * https through the pinned pool (`ingest/pinned_client.ts`, issue #15): the request goes to the
 * checked address with the URL's name as the TLS server name, its answer behaves as `fetch`'s
 * would (decompressed, streamed, capped, timed out), connections are reused and closed when
 * idle, and a hostile TLS server ends in a failure, never a throw.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { parseAllowance } from "../../lib/mod.ts";
import { type FetchOutcome, politeFetch } from "../../ingest/http.ts";
import { createPinnedPool, type PinnedPool } from "../../ingest/pinned_client.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { startForwardProxy } from "../support/forward_proxy.ts";
import { makeTestCertificate, type TestCertificate } from "../support/tls.ts";

const parsed = parseAllowance("127.0.0.1");
if (!parsed.ok) throw new Error("unreachable");
const loopback = parsed;

const NAME = "vendor.invalid";
let certificate: TestCertificate | null = null;
const tls = async () => certificate ??= await makeTestCertificate([NAME, "hooks.invalid"]);

const failure = (out: FetchOutcome) => out.kind === "failed" ? `${out.reason}: ${out.detail}` : "";

/** Options for politeFetch against `NAME` pinned to 127.0.0.1 over `pool`. */
async function through(given?: PinnedPool) {
  const pool = given ?? createPinnedPool({ caCerts: [(await tls()).caPem] });
  return {
    pool,
    options: {
      timeoutMs: 3000,
      allowPrivate: loopback.allowance,
      pool,
      resolve: () => Promise.resolve(["127.0.0.1"]),
    },
  };
}

/** A Deno server on 127.0.0.1 speaking https with the test certificate. */
async function httpsServer(handler: Deno.ServeHandler<Deno.NetAddr>) {
  const cert = await tls();
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: cert.certPem, key: cert.keyPem, onListen: () => {} },
    handler,
  );
}

/**
 * A raw TLS server on 127.0.0.1 that reads one request head and then does `act` with the
 * connection (write what it likes, hang, close); `closed` counts connections whose peer
 * hung up.
 */
async function rawServer(act: (conn: Deno.TlsConn) => Promise<void>) {
  const cert = await tls();
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: cert.certPem,
    key: cert.keyPem,
  });
  const state = { closed: 0, conns: new Set<Deno.TlsConn>() };
  const serve = async (conn: Deno.TlsConn) => {
    state.conns.add(conn);
    try {
      const buf = new Uint8Array(8192);
      let head = "";
      while (!head.includes("\r\n\r\n")) {
        const n = await conn.read(buf);
        if (n === null) return;
        head += new TextDecoder().decode(buf.subarray(0, n));
      }
      await act(conn);
      // Wait for the client to hang up.
      while ((await conn.read(buf)) !== null) { /* drain */ }
      state.closed++;
    } catch {
      state.closed++;
    } finally {
      state.conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed already */ }
    }
  };
  (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* closed */ }
  })();
  return {
    port: listener.addr.port,
    state,
    close() {
      listener.close();
      for (const c of state.conns) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
    },
  };
}

const write = (conn: Deno.Conn, text: string) => conn.write(new TextEncoder().encode(text));

Deno.test("https: gzip and br bodies arrive decompressed, and the size cap applies to what they expand to", async () => {
  const doc = JSON.stringify({ status: { indicator: "none" }, pad: "x".repeat(5000) });
  const bomb = gzipSync(new Uint8Array(2_000_000));
  const server = await httpsServer(
    (req) => {
      const path = new URL(req.url).pathname;
      const [body, encoding] = path === "/gzip"
        ? [gzipSync(doc), "gzip"]
        : path === "/br"
        ? [brotliCompressSync(doc), "br"]
        : [bomb, "gzip"];
      return new Response(new Uint8Array(body), {
        headers: { "content-type": "application/json", "content-encoding": encoding },
      });
    },
  );
  const { pool, options } = await through();
  try {
    for (const path of ["/gzip", "/br"]) {
      const out = await politeFetch(`https://${NAME}:${server.addr.port}${path}`, options);
      equal(out.kind === "ok" && out.body, doc, `${path}: ${failure(out)}`);
    }
    const out = await politeFetch(`https://${NAME}:${server.addr.port}/bomb`, {
      ...options,
      maxBytes: 64 * 1024,
    });
    equal(out.kind === "failed" && out.reason, "too_large", failure(out));
  } finally {
    pool.close();
    await server.shutdown();
  }
});

Deno.test("https: a vendor that stalls before or during its answer times out, and the connection is dropped", async () => {
  let mode: "head" | "body" = "head";
  const server = await rawServer(async (conn) => {
    if (mode === "body") await write(conn, 'HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{"st');
  });
  const { pool, options } = await through();
  try {
    for (const m of ["head", "body"] as const) {
      mode = m;
      const out = await politeFetch(`https://${NAME}:${server.port}/`, {
        ...options,
        timeoutMs: 300,
      });
      equal(out.kind === "failed" && out.reason, "timeout", `${m}: ${failure(out)}`);
    }
    // Both connections were closed by statusd (the server saw them hang up).
    for (let i = 0; i < 50 && server.state.closed < 2; i++) await delay(20);
    equal(server.state.closed, 2);
  } finally {
    pool.close();
    server.close();
  }
});

Deno.test("https: broken answers from a hostile server are failures with a reason, never a throw", async () => {
  const answers = [
    "HTTP/1.1 999 Whatever\r\ncontent-length: 0\r\n\r\n",
    "NOT HTTP AT ALL\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\nshort",
    `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(100_000)}\r\n\r\n`,
    // Nobody reads these bodies (an error status, a 304), and the connection drops in them.
    "HTTP/1.1 500 Oops\r\ncontent-length: 1000\r\n\r\npartial",
    "HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\nhel",
    // A body that says gzip and is not.
    "HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: 20\r\n\r\nnot gzip at all, no!",
  ];
  let next = 0;
  const server = await rawServer(async (conn) => {
    await write(conn, answers[next++]!);
    conn.close();
  });
  const { pool, options } = await through();
  try {
    const reasons: string[] = [];
    for (let i = 0; i < answers.length; i++) {
      const out = await politeFetch(`https://${NAME}:${server.port}/`, options);
      reasons.push(out.kind === "failed" ? out.reason : out.kind);
    }
    deepStrictEqual(reasons, [
      "network",
      "network",
      "network",
      "network",
      "http_status",
      "not_modified",
      "network",
    ]);
  } finally {
    pool.close();
    server.close();
  }
});

Deno.test("https: a connection is reused while busy, closed once idle; an answer slower than the idle time still arrives", async () => {
  const cert = await tls();
  const { server, peers } = await peerServer(600);
  const { pool, options } = await through(
    createPinnedPool({ caCerts: [cert.caPem], idleMs: 150 }),
  );
  try {
    const url = `https://${NAME}:${server.addr.port}`;
    for (let i = 0; i < 3; i++) {
      const out = await politeFetch(`${url}/`, options);
      equal(out.kind === "ok" && out.headers.get("host"), `${NAME}:${server.addr.port}`);
    }
    equal(new Set(peers).size, 1, "three fetches in a row share one connection");
    await delay(600);
    const slow = await politeFetch(`${url}/slow`, options);
    equal(slow.kind === "ok" && slow.body, "fine", failure(slow));
    equal(new Set(peers).size, 2, "after the idle time, a new connection");
  } finally {
    pool.close();
    await server.shutdown();
  }
});

Deno.test("https: an alert POST through the pinned sender carries its body and headers to the checked address", async () => {
  const cert = await tls();
  const got: { method: string; host: string | null; type: string | null; body: string }[] = [];
  const server = await httpsServer(
    async (req) => {
      got.push({
        method: req.method,
        host: req.headers.get("host"),
        type: req.headers.get("content-type"),
        body: await req.text(),
      });
      return new Response("ok");
    },
  );
  const sender = createHttpSender({
    timeoutMs: 3000,
    allowPrivate: loopback.allowance,
    resolve: () => Promise.resolve(["127.0.0.1"]),
    caCerts: [cert.caPem],
  });
  try {
    const result = await sender.send({
      kind: "http",
      url: `https://hooks.invalid:${server.addr.port}/hook`,
      headers: { "content-type": "application/json" },
      body: '{"text":"down"}',
    });
    equal(result.ok, true, result.error ?? "");
    equal(result.reply, "ok");
    deepStrictEqual(got, [{
      method: "POST",
      host: `hooks.invalid:${server.addr.port}`,
      type: "application/json",
      body: '{"text":"down"}',
    }]);
  } finally {
    sender.close();
    await server.shutdown();
  }
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * An https server that notes the client port of each request (one port per connection) and
 * answers "fine" with the `Host` it was sent echoed in a header; `/slow` answers after `slowMs`.
 */
async function peerServer(slowMs: number) {
  const peers: number[] = [];
  const server = await httpsServer(async (req, info) => {
    peers.push((info.remoteAddr as Deno.NetAddr).port);
    if (new URL(req.url).pathname === "/slow") await delay(slowMs);
    return new Response("fine", { headers: { host: req.headers.get("host") ?? "" } });
  });
  return { server, peers };
}

Deno.test("https: release closes a host's idle connections at once and leaves one carrying a request alone", async () => {
  const cert = await tls();
  const { server, peers } = await peerServer(300);
  const { pool, options } = await through(
    createPinnedPool({ caCerts: [cert.caPem], idleMs: 60_000 }),
  );
  const host = `${NAME}:${server.addr.port}`;
  try {
    equal((await politeFetch(`https://${host}/`, options)).kind, "ok");
    pool.release(host);
    equal((await politeFetch(`https://${host}/`, options)).kind, "ok");
    equal(new Set(peers).size, 2, "released while idle: the next fetch opens a new connection");
    const slow = politeFetch(`https://${host}/slow`, options);
    await delay(100);
    pool.release(host);
    equal((await slow).kind, "ok", "a connection carrying a request is not cut");
    equal((await politeFetch(`https://${host}/`, options)).kind, "ok");
    equal(new Set(peers).size, 2, "and it stays open for the next fetch");
  } finally {
    pool.close();
    await server.shutdown();
  }
});

Deno.test("https: a host name with a final dot verifies against its certificate, and a 30 KB response head is read", async () => {
  const server = await httpsServer(
    () => new Response("fine", { headers: { "content-security-policy": "x".repeat(30_000) } }),
  );
  const { pool, options } = await through();
  try {
    const out = await politeFetch(`https://${NAME}.:${server.addr.port}/`, options);
    equal(out.kind === "ok" && out.body, "fine", failure(out));
  } finally {
    pool.close();
    await server.shutdown();
  }
});

Deno.test("https: a private CA named in NODE_EXTRA_CA_CERTS is trusted (README), direct and through a proxy, and without it the certificate is refused", async () => {
  const cert = await tls();
  const server = await httpsServer(
    () => new Response("fine"),
  );
  const dir = await Deno.makeTempDir({ prefix: "statusd-ca-" });
  const proxy = startForwardProxy();
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, cert.caPem);
    // A statusd-like process: the poller's politeFetch over a pinned pool given no CA of its own.
    await Deno.writeTextFile(
      `${dir}/fetch.ts`,
      `import { politeFetch } from ${
        JSON.stringify(new URL("../../ingest/http.ts", import.meta.url).href)
      };
import { createPinnedPool } from ${
        JSON.stringify(new URL("../../ingest/pinned_client.ts", import.meta.url).href)
      };
const proxyUrl = Deno.args[0];
const pool = createPinnedPool(proxyUrl ? {
  proxy: { http: null, https: { transport: "http", url: proxyUrl, basicAuth: null }, noProxy: [] },
} : {});
const out = await politeFetch("https://${NAME}:${server.addr.port}/", {
  timeoutMs: 3000, pool, allowPrivate: { all: true, ranges: [] },
  resolve: () => Promise.resolve(["127.0.0.1"]),
});
pool.close();
console.log(out.kind === "ok" ? out.body : out.kind === "failed" ? out.detail : out.kind);
`,
    );
    const run = async (env: Record<string, string>, proxyUrl?: string) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", `${dir}/fetch.ts`, ...(proxyUrl ? [proxyUrl] : [])],
        env,
        stdout: "piped",
        stderr: "inherit",
      }).output();
      return new TextDecoder().decode(out.stdout).trim();
    };
    equal(await run({ NODE_EXTRA_CA_CERTS: `${dir}/ca.pem` }), "fine");
    equal(await run({}), "unable to verify the first certificate");
    // Through a proxy's tunnel (Deno's client, not node:https): the same CA, the same answer.
    equal(await run({ NODE_EXTRA_CA_CERTS: `${dir}/ca.pem` }, proxy.url), "fine");
    equal((await run({}, proxy.url)).includes("fine"), false, "refused without the CA");
    equal(proxy.requests.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await server.shutdown();
    await proxy.close();
  }
});
