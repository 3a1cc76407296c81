/**
 * /api/mcp at the HTTP level: the challenge, who is refused and how, methods, batches,
 * version negotiation, Origin and CORS (PROTOCOLS §1, §3.2, §7).
 */
import assert from "node:assert/strict";
import { mcpRig } from "./_rig.ts";

const ACCEPT = "application/json, text/event-stream";

function rpc(method: string, params: Record<string, unknown> = {}, id: number | null = 1) {
  return JSON.stringify(
    id === null ? { jsonrpc: "2.0", method, params } : {
      jsonrpc: "2.0",
      id,
      method,
      params,
    },
  );
}

function init(version: string) {
  return rpc("initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  });
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> | null }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

Deno.test("no credentials: 401 with exactly the resource_metadata challenge", async () => {
  const rig = await mcpRig();
  try {
    const res = await post(rig.mcpUrl, init("2025-06-18"));
    assert.equal(res.status, 401);
    assert.equal(
      res.headers.get("www-authenticate"),
      `Bearer resource_metadata="${rig.url}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    assert.equal(res.json?.error, "unauthorized");
    // A browser client must be able to read the challenge.
    const cross = await post(rig.mcpUrl, init("2025-06-18"), { origin: rig.url });
    assert.match(cross.headers.get("access-control-expose-headers") ?? "", /WWW-Authenticate/i);
  } finally {
    await rig.close();
  }
});

Deno.test("bad credentials: 401 invalid_token with the challenge", async () => {
  const rig = await mcpRig();
  try {
    const forms: Record<string, string>[] = [{ "x-api-key": "sd_live_nope" }, {
      authorization: "Bearer sd_oat_nope",
    }];
    for (const headers of forms) {
      const res = await post(rig.mcpUrl, init("2025-06-18"), headers);
      assert.equal(res.status, 401);
      const challenge = res.headers.get("www-authenticate") ?? "";
      assert.match(challenge, /^Bearer error="invalid_token"/);
      assert.match(challenge, /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known/);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("a key without mcp:invoke: 403 insufficient_scope with the step-up challenge", async () => {
  const rig = await mcpRig();
  try {
    const res = await post(rig.mcpUrl, init("2025-06-18"), { "x-api-key": rig.keys.noMcp });
    assert.equal(res.status, 403);
    assert.equal(res.json?.error, "insufficient_scope");
    assert.equal(res.json?.requiredScope, "mcp:invoke");
    assert.match(
      res.headers.get("www-authenticate") ?? "",
      /error="insufficient_scope", scope="mcp:invoke"/,
    );
  } finally {
    await rig.close();
  }
});

Deno.test("a Free account: 403 plan_required, and no OAuth challenge", async () => {
  const rig = await mcpRig();
  try {
    const res = await post(rig.mcpUrl, init("2025-06-18"), {
      authorization: `Bearer ${rig.keys.free}`,
    });
    assert.equal(res.status, 403);
    assert.equal(res.json?.error, "plan_required");
    assert.equal(res.json?.requiredPlan, "PRO");
    assert.equal(res.headers.get("www-authenticate"), null);
  } finally {
    await rig.close();
  }
});

Deno.test("both header forms of a Pro key with mcp:invoke are accepted", async () => {
  const rig = await mcpRig();
  try {
    const forms: Record<string, string>[] = [{ "x-api-key": rig.keys.all }, {
      authorization: `Bearer ${rig.keys.all}`,
    }];
    for (const headers of forms) {
      const res = await post(rig.mcpUrl, init("2025-06-18"), headers);
      assert.equal(res.status, 200);
      const result = res.json?.result as Record<string, unknown>;
      assert.equal(result.protocolVersion, "2025-06-18");
      assert.deepStrictEqual(result.serverInfo, {
        name: "statusd",
        title: "statusd",
        version: "1.0.0",
      });
      assert.equal(res.headers.get("mcp-session-id"), null);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("initialize agrees only to 2025-11-25 and 2025-06-18; any other revision gets 2025-06-18", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all };
  try {
    const cases: [string, string][] = [
      ["2025-06-18", "2025-06-18"],
      ["2025-11-25", "2025-11-25"],
      // These require JSON-RPC batches (2025-03-26) or the HTTP+SSE transport (2024-11-05).
      ["2025-03-26", "2025-06-18"],
      ["2024-11-05", "2025-06-18"],
      ["2099-01-01", "2025-06-18"],
    ];
    for (const [asked, answered] of cases) {
      const res = await post(rig.mcpUrl, init(asked), h);
      assert.equal(res.status, 200, asked);
      assert.equal(
        (res.json?.result as { protocolVersion: string }).protocolVersion,
        answered,
        asked,
      );
    }
    const withHeader = await post(rig.mcpUrl, init("2025-06-18"), {
      ...h,
      "mcp-protocol-version": "2099-01-01",
    });
    assert.equal(withHeader.status, 200);
    for (
      const [header, status] of [["1999-01-01", 400], ["2025-03-26", 400], ["2024-11-05", 400]]
    ) {
      const later = await post(rig.mcpUrl, rpc("tools/list"), {
        ...h,
        "mcp-protocol-version": String(header),
      });
      assert.equal(later.status, status, String(header));
      assert.equal((later.json?.error as { code: number }).code, -32000);
    }
    for (const header of ["2025-06-18", "2025-11-25"]) {
      const ok = await post(rig.mcpUrl, rpc("tools/list"), {
        ...h,
        "mcp-protocol-version": header,
      });
      assert.equal(ok.status, 200, header);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("capabilities say tools.listChanged is false, as /.well-known/mcp.json does", async () => {
  const rig = await mcpRig();
  try {
    const res = await post(rig.mcpUrl, init("2025-06-18"), { "x-api-key": rig.keys.all });
    const result = res.json?.result as { capabilities: unknown };
    assert.deepStrictEqual(result.capabilities, { tools: { listChanged: false } });
    const manifest = await (await fetch(`${rig.url}/.well-known/mcp.json`)).json();
    assert.deepStrictEqual(manifest.capabilities, result.capabilities);
    assert.deepStrictEqual(manifest.remotes[0].supportedProtocolVersions, [
      "2025-11-25",
      "2025-06-18",
    ]);
  } finally {
    await rig.close();
  }
});

Deno.test("an unknown tool is a JSON-RPC -32602 error, not a tool result", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all, "mcp-protocol-version": "2025-06-18" };
  try {
    const res = await post(
      rig.mcpUrl,
      rpc("tools/call", { name: "get_weather", arguments: {} }, 9),
      h,
    );
    assert.equal(res.status, 200);
    assert.equal(res.json?.id, 9);
    assert.equal(res.json?.result, undefined);
    const error = res.json?.error as { code: number; message: string };
    assert.equal(error.code, -32602);
    assert.match(error.message, /^Unknown tool "get_weather"/);
    // tools/list has one page: a cursor it never handed out is invalid too.
    const cursor = await post(rig.mcpUrl, rpc("tools/list", { cursor: "page-2" }, 10), h);
    assert.equal((cursor.json?.error as { code: number }).code, -32602);
  } finally {
    await rig.close();
  }
});

Deno.test("malformed params are -32602 naming the field, never -32603 with a zod dump", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all, "mcp-protocol-version": "2025-06-18" };
  try {
    const cases: [string, string, RegExp][] = [
      ["tools/call", JSON.stringify({ name: 5 }), /params\.name: .*expected string/],
      ["tools/call", "null", /params: /],
      ["tools/call", '"get_service_status"', /must be an object/],
      ["tools/list", JSON.stringify({ cursor: 5 }), /params\.cursor: .*expected string/],
      ["initialize", JSON.stringify({ protocolVersion: "2025-06-18" }), /params\.clientInfo/],
    ];
    for (const [method, params, message] of cases) {
      const body = params === "null"
        ? `{"jsonrpc":"2.0","id":3,"method":"${method}"}`
        : `{"jsonrpc":"2.0","id":3,"method":"${method}","params":${params}}`;
      const res = await post(rig.mcpUrl, body, h);
      assert.equal(res.status, 200, body);
      assert.equal(res.json?.id, 3, body);
      const error = res.json?.error as { code: number; message: string };
      assert.equal(error.code, -32602, body);
      assert.match(error.message, message, body);
      assert.ok(!error.message.includes("\n"), `one line: ${error.message}`);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("JSON that is not a JSON-RPC message is 400 -32600; a body that is not JSON is -32700", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all, "mcp-protocol-version": "2025-06-18" };
  try {
    for (
      const body of [
        `{"id": null}`,
        `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
        `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
        `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
        `{"jsonrpc":"2.0","id":1}`,
        `42`,
      ]
    ) {
      const res = await post(rig.mcpUrl, body, h);
      assert.equal(res.status, 400, body);
      assert.equal(res.json?.id, null, body);
      assert.equal((res.json?.error as { code: number }).code, -32600, body);
    }
    const junk = await post(rig.mcpUrl, `{"jsonrpc":`, h);
    assert.equal(junk.status, 400);
    assert.equal((junk.json?.error as { code: number }).code, -32700);
    const text = await post(rig.mcpUrl, rpc("ping"), { ...h, "content-type": "text/plain" });
    assert.equal(text.status, 415);
    const charset = await post(rig.mcpUrl, rpc("ping"), {
      ...h,
      "content-type": "application/json; charset=utf-8",
    });
    assert.equal(charset.status, 200);
  } finally {
    await rig.close();
  }
});

Deno.test("notifications get 202 and no body; batches 400 -32600; ping answers {}", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all, "mcp-protocol-version": "2025-06-18" };
  try {
    const note = await fetch(rig.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...h },
      body: rpc("notifications/initialized", {}, null),
    });
    assert.equal(note.status, 202);
    assert.equal((await note.arrayBuffer()).byteLength, 0);
    const batch = await post(rig.mcpUrl, `[${rpc("ping", {}, 1)},${rpc("ping", {}, 2)}]`, h);
    assert.equal(batch.status, 400);
    assert.equal((batch.json?.error as { code: number }).code, -32600);
    const ping = await post(rig.mcpUrl, rpc("ping", {}, 7), h);
    assert.deepStrictEqual(ping.json, { jsonrpc: "2.0", id: 7, result: {} });
  } finally {
    await rig.close();
  }
});

Deno.test("lenient Accept: application/json alone and */* work; text/html alone is 406", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all };
  try {
    for (const accept of ["application/json", "*/*"]) {
      const res = await post(rig.mcpUrl, init("2025-06-18"), { ...h, accept });
      assert.equal(res.status, 200, accept);
    }
    const html = await post(rig.mcpUrl, init("2025-06-18"), { ...h, accept: "text/html" });
    assert.equal(html.status, 406);
  } finally {
    await rig.close();
  }
});

Deno.test("GET and DELETE are 405 with Allow before any stream opens; /api/mcp/ never redirects", async () => {
  const rig = await mcpRig();
  try {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(rig.mcpUrl, {
        method,
        headers: { accept: "text/event-stream", "x-api-key": rig.keys.all },
      });
      await res.body?.cancel();
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get("allow"), "POST, OPTIONS");
    }
    const slash = await fetch(`${rig.mcpUrl}/`, { method: "POST", redirect: "manual" });
    await slash.body?.cancel();
    assert.ok(slash.status < 300 || slash.status >= 400, `got ${slash.status}`);
  } finally {
    await rig.close();
  }
});

Deno.test("Origin: absent or own accepted, foreign 403; preflight needs no credentials", async () => {
  const rig = await mcpRig();
  const h = { "x-api-key": rig.keys.all };
  try {
    assert.equal((await post(rig.mcpUrl, init("2025-06-18"), h)).status, 200);
    assert.equal(
      (await post(rig.mcpUrl, init("2025-06-18"), { ...h, origin: rig.url })).status,
      200,
    );
    const evil = await post(rig.mcpUrl, init("2025-06-18"), {
      ...h,
      origin: "https://evil.example",
    });
    assert.equal(evil.status, 403);
    const pre = await fetch(rig.mcpUrl, {
      method: "OPTIONS",
      headers: {
        origin: "https://inspector.example",
        "access-control-request-method": "POST",
        "access-control-request-headers":
          "authorization, content-type, mcp-protocol-version, x-api-key",
      },
    });
    await pre.body?.cancel();
    assert.equal(pre.status, 204);
    const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const name of ["authorization", "content-type", "mcp-protocol-version", "x-api-key"]) {
      assert.ok(allowed.includes(name), name);
    }
  } finally {
    await rig.close();
  }
});
