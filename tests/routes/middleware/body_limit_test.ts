/**
 * Every route has a body limit, enforced before the body is read: a declared Content-Length
 * over it is refused at once, and a chunked body is refused as soon as it passes the limit,
 * so statusd never reads (or holds) the rest.
 */
import { equal, match, ok } from "node:assert/strict";
import { BODY_LIMITS } from "../../../routes/middleware/body_limit.ts";
import { apiRig, PUBLIC_URL } from "../../support/api.ts";

const MIB = 1024 * 1024;

/** A lazily generated body of `total` bytes in 64 KiB chunks; `pulled()` says how much was read. */
function lazyBody(total: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

Deno.test("a 64 MiB chunked POST to /oauth/token gets 413 after reading little more than the limit", async () => {
  const r = apiRig();
  try {
    const body = lazyBody(64 * MIB);
    const res = await r.app.request(`${PUBLIC_URL}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://client.example",
      },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    equal(res.status, 413);
    const json = await res.json();
    equal(json.error, "invalid_request"); // RFC 6749 style, as every /oauth/token error
    match(json.error_description, new RegExp(String(BODY_LIMITS.other)));
    equal(res.headers.get("cache-control"), "no-store");
    // A browser client can read the error, as every other /oauth/token answer.
    equal(res.headers.get("access-control-allow-origin"), "*");
    ok(body.pulled() <= BODY_LIMITS.other + 2 * 64 * 1024, `read ${body.pulled()} bytes`);
  } finally {
    await r.close();
  }
});

Deno.test("a declared 300 MB upload is refused with 413 before its body is sent", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    const head = "POST /oauth/token HTTP/1.1\r\nHost: x\r\n" +
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 314572800\r\n\r\n";
    await conn.write(new TextEncoder().encode(head + "grant_type=x"));
    // Only the headers and 12 bytes were sent: an answer now means the body was never awaited.
    // (The guard only ends a test that would otherwise hang; it is not a speed requirement.)
    const guard = setTimeout(() => conn.close(), 30_000);
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf).catch(() => null);
    clearTimeout(guard);
    ok(n, "the server answered before the body was sent");
    match(new TextDecoder().decode(buf.subarray(0, n)), /^HTTP\/1\.1 413 /);
  } finally {
    try {
      conn.close();
    } catch { /* already closed */ }
    await server.shutdown();
    await r.close();
  }
});

Deno.test("each surface answers 413 in its own shape: API JSON, HTML for a browser's form", async () => {
  const r = apiRig();
  try {
    const big = (bytes: number) => "x".repeat(bytes);
    const mcp = await r.app.request(`${PUBLIC_URL}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: big(BODY_LIMITS.mcp + 1),
    });
    equal(mcp.status, 413);
    const json = await mcp.json();
    equal(json.error, "payload_too_large");
    equal(json.status, 413);

    const form = await r.app.request(`${PUBLIC_URL}/sign-in`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html,application/xhtml+xml,*/*;q=0.8",
      },
      body: `email=a%40b.c&password=${big(BODY_LIMITS.other)}`,
    });
    equal(form.status, 413);
    match(form.headers.get("content-type")!, /^text\/html/);
    match(await form.text(), /larger than 16384 bytes/);

    const registration = await r.app.request(`${PUBLIC_URL}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: big(BODY_LIMITS.clientRegistration) }),
    });
    equal(registration.status, 413);
    equal((await registration.json()).error, "invalid_request");
  } finally {
    await r.close();
  }
});

Deno.test("bodies within the limits still work (a 36 KiB client registration)", async () => {
  const r = apiRig();
  try {
    const res = await r.app.request(`${PUBLIC_URL}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "many callbacks",
        redirect_uris: Array.from(
          { length: 18 },
          (_, i) => `http://127.0.0.1:9999/callback/${i}/${"a".repeat(2000)}`,
        ),
        token_endpoint_auth_method: "none",
      }),
    });
    equal(res.status, 201);
  } finally {
    await r.close();
  }
});
