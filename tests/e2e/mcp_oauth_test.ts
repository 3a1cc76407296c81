/**
 * The complete OAuth 2.1 flow, driven by the real SDK clients' own auth support against a
 * real statusd on loopback: 401 challenge → protected-resource metadata → authorization-server
 * metadata → dynamic registration → authorize with PKCE → consent approved by the signed-in
 * person → token → tool call → refresh after the access token expires. Once with
 * `@modelcontextprotocol/sdk` 1.x and once with `@modelcontextprotocol/client` 2.x (stricter:
 * issuer equality, RFC 9207 `iss`). Plus the refusals a hostile or broken client meets.
 */
import assert from "node:assert/strict";
import {
  Client as ClientV2,
  type OAuthClientProvider as ProviderV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { HOUR_MS } from "../../domain/mod.ts";
import { TOOLS } from "../../routes/mcp/tools/mod.ts";
import {
  Client,
  consent,
  type McpRig,
  mcpRig,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "../routes/mcp/_rig.ts";

const REDIRECT = "http://localhost:43123/callback";

/** An in-memory OAuth client store, as an app embedding the SDK keeps one. */
class MemoryProvider {
  info: Record<string, unknown> | undefined;
  saved: Record<string, unknown> | undefined;
  verifier = "";
  lastState = "";
  authUrl: URL | undefined;
  constructor(readonly redirectUrl = REDIRECT) {}
  get clientMetadata() {
    return {
      client_name: "E2E agent",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  discovery: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

function assertNoRedirects(rig: McpRig): void {
  const redirects = rig.log.filter((r) =>
    r.status >= 300 && r.status < 400 && r.path !== "/oauth/authorize"
  );
  assert.deepStrictEqual(redirects, []);
}

Deno.test("SDK 1.x client: discovery → registration → PKCE consent → token → tools → refresh", async () => {
  const rig = await mcpRig();
  const provider = new MemoryProvider();
  const authProvider = provider as unknown as OAuthClientProvider;
  try {
    // 1. Unauthenticated connect: the SDK discovers, registers and hands us the consent URL.
    const first = new Client({ name: "e2e-v1", version: "1.0.0" });
    const t1 = new StreamableHTTPClientTransport(new URL(rig.mcpUrl), { authProvider });
    await assert.rejects(first.connect(t1), UnauthorizedError);
    assert.ok(provider.info?.client_id, "registered");
    assert.equal(provider.info?.client_secret, undefined, "no secret for a public client");
    const authUrl = provider.authUrl!;
    assert.equal(authUrl.origin + authUrl.pathname, `${rig.url}/oauth/authorize`);
    assert.equal(authUrl.searchParams.get("code_challenge_method"), "S256");
    assert.equal(authUrl.searchParams.get("resource"), rig.mcpUrl);

    // 2. Not signed in: statusd sends the person to sign in and back to the same request.
    const anon = await fetch(authUrl, { redirect: "manual" });
    await anon.body?.cancel();
    assert.equal(anon.status, 303);
    const signIn = new URL(anon.headers.get("location")!, rig.url);
    assert.equal(signIn.pathname, "/sign-in");
    assert.equal(signIn.searchParams.get("next"), authUrl.pathname + authUrl.search);

    // 3. Signed in: the consent page names the client, where it returns to, and the scopes.
    const { page, location } = await consent(authUrl, await rig.sessionCookie(rig.pro));
    assert.match(page, /E2E agent/);
    assert.match(page, /localhost:43123/);
    for (const s of ["mcp:invoke", "status:read", "incidents:read", "sla:read"]) {
      assert.ok(page.includes(s), s);
    }
    assert.equal(location.origin + location.pathname, REDIRECT);
    assert.equal(location.searchParams.get("state"), provider.lastState);
    assert.equal(location.searchParams.get("iss"), rig.url);
    await t1.finishAuth(location.searchParams.get("code")!);
    assert.equal(provider.saved?.token_type, "Bearer");

    // 4. Reconnect with the token and call a tool.
    const client = new Client({ name: "e2e-v1", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(rig.mcpUrl), { authProvider }));
    const r = await client.callTool({ name: "get_service_status", arguments: { slug: "github" } });
    assert.equal((r.structuredContent as { status: string }).status, "PARTIAL_OUTAGE");

    // 5. An hour later the access token has expired: the SDK refreshes and retries.
    const before = provider.saved!;
    rig.clock.advance(HOUR_MS + 1000);
    const again = await client.callTool({ name: "list_services", arguments: {} });
    assert.equal((again.structuredContent as { total: number }).total, 3);
    assert.notEqual(provider.saved!.access_token, before.access_token);
    assert.notEqual(provider.saved!.refresh_token, before.refresh_token);
    await client.close();
    assertNoRedirects(rig);
  } finally {
    await rig.close();
  }
});

Deno.test("SDK 2.x client (@modelcontextprotocol/client): the same flow, with iss checked", async () => {
  const rig = await mcpRig();
  const provider = new MemoryProvider("http://127.0.0.1:51515/oauth/callback");
  try {
    const first = new ClientV2({ name: "e2e-v2", version: "2.0.0" });
    const t1 = new TransportV2(new URL(rig.mcpUrl), {
      authProvider: provider as unknown as ProviderV2,
    });
    await assert.rejects(first.connect(t1), (err: Error) => err.name === "UnauthorizedError");
    const { location } = await consent(provider.authUrl!, await rig.sessionCookie(rig.pro));
    await t1.finishAuth(location.searchParams);
    const client = new ClientV2({ name: "e2e-v2", version: "2.0.0" });
    await client.connect(
      new TransportV2(new URL(rig.mcpUrl), {
        authProvider: provider as unknown as ProviderV2,
      }),
    );
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
    const r = await client.callTool({ name: "check_services", arguments: { slugs: ["stripe"] } });
    assert.equal((r.structuredContent as { ok: boolean }).ok, true);
    rig.clock.advance(HOUR_MS + 1000);
    const again = await client.callTool({ name: "list_incidents", arguments: {} });
    assert.equal((again.structuredContent as { total: number }).total, 1);
    await client.close();
    assertNoRedirects(rig);
  } finally {
    await rig.close();
  }
});

// ------------------------------------------------------------------ refusals, by hand

function pkce() {
  const verifier = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

async function register(rig: McpRig, redirect = REDIRECT): Promise<string> {
  const res = await fetch(`${rig.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Hand-rolled",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    }),
  });
  const body = await res.json();
  assert.equal(res.status, 201);
  return body.client_id;
}

function authorizeUrl(rig: McpRig, clientId: string, challenge: string, redirect = REDIRECT): URL {
  const u = new URL(`${rig.url}/oauth/authorize`);
  u.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    code_challenge: challenge,
    code_challenge_method: "S256",
    redirect_uri: redirect,
    state: "xyz",
    scope: "mcp:invoke status:read",
    resource: rig.mcpUrl,
  }).toString();
  return u;
}

async function token(rig: McpRig, form: Record<string, string>) {
  const res = await fetch(`${rig.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

async function codeFor(rig: McpRig, clientId: string, challenge: string, redirect = REDIRECT) {
  const { location } = await consent(
    authorizeUrl(rig, clientId, challenge, redirect),
    await rig.sessionCookie(rig.pro),
  );
  return location.searchParams.get("code")!;
}

async function toolsList(rig: McpRig, accessToken: string): Promise<number> {
  const res = await fetch(rig.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${accessToken}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test("a wrong code_verifier is refused with invalid_grant", async () => {
  const rig = await mcpRig();
  try {
    const clientId = await register(rig);
    const { verifier, challenge } = pkce();
    const code = await codeFor(rig, clientId, challenge);
    const base = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
    };
    const wrong = await token(rig, { ...base, code_verifier: pkce().verifier });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.error, "invalid_grant");
    assert.equal(wrong.headers.get("cache-control"), "no-store");
    const missing = await token(rig, base);
    assert.equal(missing.json.error, "invalid_grant");
    const right = await token(rig, { ...base, code_verifier: verifier });
    assert.equal(right.status, 200);
    assert.equal(right.json.token_type, "Bearer");
    assert.equal(right.json.scope, "mcp:invoke status:read");
  } finally {
    await rig.close();
  }
});

Deno.test("a reused code is refused and what the first use issued is revoked", async () => {
  const rig = await mcpRig();
  try {
    const clientId = await register(rig);
    const { verifier, challenge } = pkce();
    const code = await codeFor(rig, clientId, challenge);
    const form = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: rig.mcpUrl,
    };
    const first = await token(rig, form);
    assert.equal(first.status, 200);
    assert.equal(await toolsList(rig, first.json.access_token), 200);
    const second = await token(rig, form);
    assert.equal(second.status, 400);
    assert.equal(second.json.error, "invalid_grant");
    assert.equal(await toolsList(rig, first.json.access_token), 401);
    const refresh = await token(rig, {
      grant_type: "refresh_token",
      refresh_token: first.json.refresh_token,
      client_id: clientId,
    });
    assert.equal(refresh.json.error, "invalid_grant");
  } finally {
    await rig.close();
  }
});

Deno.test("a mismatched redirect URI is refused at authorize (no redirect) and at token", async () => {
  const rig = await mcpRig();
  try {
    const clientId = await register(rig);
    const { verifier, challenge } = pkce();
    const cookie = await rig.sessionCookie(rig.pro);
    for (
      const bad of [
        "http://localhost:43123/callback/x",
        "http://127.0.0.1:43123/callback",
        "https://localhost:43123/callback",
        "https://evil.example/callback",
      ]
    ) {
      const res = await fetch(authorizeUrl(rig, clientId, challenge, bad), {
        headers: { cookie },
        redirect: "manual",
      });
      const html = await res.text();
      assert.equal(res.status, 400, bad);
      assert.equal(res.headers.get("location"), null, bad);
      assert.match(html, /not registered/);
    }
    // Loopback http: any port is the same redirect (RFC 8252 §7.3).
    const otherPort = "http://localhost:50999/callback";
    const code = await codeFor(rig, clientId, challenge, otherPort);
    const mismatch = await token(rig, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.json.error, "invalid_grant");
    const ok = await token(rig, {
      grant_type: "authorization_code",
      code,
      redirect_uri: otherPort,
      client_id: clientId,
      code_verifier: verifier,
    });
    assert.equal(ok.status, 200);
  } finally {
    await rig.close();
  }
});
