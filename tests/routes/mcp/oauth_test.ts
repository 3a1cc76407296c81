/**
 * The authorization server's edges (PROTOCOLS §3, §7 items 2–9): metadata as the SDK parses
 * it, registration, PKCE and redirect errors, resource names, client authentication, refresh
 * rotation with its grace window, revocation, the consent page for a Free account, and the
 * manifest.
 */
import assert from "node:assert/strict";
import {
  consent,
  grantFor,
  type McpRig,
  mcpRig,
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
  pkcePair,
  postForm,
} from "./_rig.ts";

async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

async function toolsList(rig: McpRig, token: string): Promise<number> {
  const res = await fetch(rig.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test("metadata: PRM resource is the MCP URL, issuer identical everywhere, SDK schemas parse", async () => {
  const rig = await mcpRig();
  try {
    const prm = await getJson(`${rig.url}/.well-known/oauth-protected-resource/api/mcp`, {
      "mcp-protocol-version": "2025-11-25",
    });
    assert.equal(prm.status, 200);
    assert.equal(prm.headers.get("access-control-allow-origin"), "*");
    const p = OAuthProtectedResourceMetadataSchema.parse(prm.json);
    assert.equal(p.resource, rig.mcpUrl);
    assert.deepStrictEqual(p.authorization_servers, [rig.url]);
    const as = await getJson(`${rig.url}/.well-known/oauth-authorization-server`, {
      "mcp-protocol-version": "2025-11-25",
    });
    const m = OAuthMetadataSchema.parse(as.json);
    assert.equal(m.issuer, rig.url);
    assert.ok(!m.issuer.endsWith("/"));
    assert.deepStrictEqual(m.code_challenge_methods_supported, ["S256"]);
    assert.ok(m.token_endpoint_auth_methods_supported?.includes("none"));
    for (const u of [m.authorization_endpoint, m.token_endpoint, m.registration_endpoint!]) {
      assert.ok(u.startsWith(`${rig.url}/oauth/`), u);
    }
    // No root document: it would claim the whole origin (REST too) for OAuth tokens.
    const root = await getJson(`${rig.url}/.well-known/oauth-protected-resource`);
    assert.equal(root.status, 404);
    assert.equal(root.json.error, "not_found");
    assert.equal(root.json.resource, undefined);
    const oidc = await getJson(`${rig.url}/.well-known/openid-configuration`);
    assert.equal(oidc.status, 404);
    assert.equal(oidc.json.error, "not_found");
  } finally {
    await rig.close();
  }
});

Deno.test("registration: 201 with redirect_uris echoed; secret only for secret methods; bad redirects refused", async () => {
  const rig = await mcpRig();
  const reg = (body: unknown) =>
    fetch(`${rig.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json() }));
  try {
    const cli = await reg({
      client_name: "Claude Code",
      redirect_uris: ["http://localhost:5555/callback"],
      token_endpoint_auth_method: "none",
      scope: "mcp:invoke",
      software_statement_unknown_field: "ignored",
    });
    assert.equal(cli.status, 201);
    assert.equal(cli.headers.get("cache-control"), "no-store");
    const info = OAuthClientInformationFullSchema.parse(cli.json);
    assert.deepStrictEqual(info.redirect_uris, ["http://localhost:5555/callback"]);
    assert.equal(info.client_secret, undefined);
    const web = await reg({
      client_name: "claude.ai",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
      token_endpoint_auth_method: "client_secret_post",
    });
    assert.equal(web.status, 201);
    assert.match(web.json.client_secret, /^sdcs_/);
    assert.equal(web.json.client_secret_expires_at, 0);
    const evil = await reg({ redirect_uris: ["http://evil.example/cb"] });
    assert.equal(evil.status, 400);
    assert.equal(evil.json.error, "invalid_redirect_uri");
    const none = await reg({ client_name: "no redirects" });
    assert.equal(none.status, 400);
    assert.equal(none.json.error, "invalid_redirect_uri");
    const badType = await reg({
      redirect_uris: ["https://a.example/cb"],
      response_types: ["token"],
    });
    assert.equal(badType.json.error, "invalid_client_metadata");
  } finally {
    await rig.close();
  }
});

Deno.test("authorize: PKCE required and S256 only; errors go back with state and iss", async () => {
  const rig = await mcpRig();
  try {
    const { clientId } = await grantFor(rig, rig.pro);
    const cookie = await rig.sessionCookie(rig.pro);
    const base = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: "http://localhost:40000/cb",
      state: "abc",
    };
    const cases: [Record<string, string>, string][] = [
      [{}, "invalid_request"],
      [{ code_challenge: pkcePair().challenge }, "invalid_request"],
      [{ code_challenge: pkcePair().challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256",
        resource: "https://other.example/",
      }, "invalid_target"],
      [
        { code_challenge: pkcePair().challenge, code_challenge_method: "S256", scope: "admin" },
        "invalid_scope",
      ],
    ];
    for (const [extra, error] of cases) {
      const u = new URL(`${rig.url}/oauth/authorize`);
      u.search = new URLSearchParams({ ...base, ...extra }).toString();
      const res = await fetch(u, { headers: { cookie }, redirect: "manual" });
      await res.body?.cancel();
      assert.equal(res.status, 302, JSON.stringify(extra));
      const back = new URL(res.headers.get("location")!);
      assert.equal(back.searchParams.get("error"), error, JSON.stringify(extra));
      assert.equal(back.searchParams.get("state"), "abc");
      assert.equal(back.searchParams.get("iss"), rig.url);
    }
    const unknown = await fetch(`${rig.url}/oauth/authorize?client_id=nope&response_type=code`, {
      redirect: "manual",
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers.get("location"), null);
    assert.match(await unknown.text(), /not registered/);
  } finally {
    await rig.close();
  }
});

Deno.test("resource names: MCP URL, trailing slash and origin accepted; the consent page cannot be framed", async () => {
  const rig = await mcpRig();
  try {
    const reg = await fetch(`${rig.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["http://127.0.0.1/cb"],
        token_endpoint_auth_method: "none",
      }),
    }).then((r) => r.json());
    for (const resource of [rig.mcpUrl, `${rig.mcpUrl}/`, rig.url, `${rig.url}/`]) {
      const { verifier, challenge } = pkcePair();
      const u = new URL(`${rig.url}/oauth/authorize`);
      u.search = new URLSearchParams({
        response_type: "code",
        client_id: reg.client_id,
        redirect_uri: "http://127.0.0.1:6274/cb",
        code_challenge: challenge,
        code_challenge_method: "S256",
        resource,
      }).toString();
      const page = await fetch(u, { headers: { cookie: await rig.sessionCookie(rig.pro) } });
      await page.body?.cancel();
      assert.equal(page.headers.get("x-frame-options"), "DENY");
      const { location } = await consent(u, await rig.sessionCookie(rig.pro));
      const t = await postForm(`${rig.url}/oauth/token`, {
        grant_type: "authorization_code",
        code: location.searchParams.get("code")!,
        redirect_uri: "http://127.0.0.1:6274/cb",
        code_verifier: verifier,
        client_id: reg.client_id,
        resource,
      });
      assert.equal(t.status, 200, resource);
      assert.equal(await toolsList(rig, t.json!.access_token!), 200);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("client authentication: Basic and post secrets checked; a bad secret is 401 invalid_client", async () => {
  const rig = await mcpRig();
  try {
    const reg = await fetch(`${rig.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://app.example/cb"] }),
    }).then((r) => r.json());
    assert.equal(reg.token_endpoint_auth_method, "client_secret_basic");
    const basic = (secret: string) => `Basic ${btoa(`${reg.client_id}:${secret}`)}`;
    const bad = await postForm(`${rig.url}/oauth/token`, {
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: "https://app.example/cb",
      code_verifier: pkcePair().verifier,
    }, { authorization: basic("wrong") });
    assert.equal(bad.status, 401);
    assert.equal(bad.json?.error, "invalid_client");
    assert.match(bad.headers.get("www-authenticate") ?? "", /^Basic/);
    const good = await postForm(`${rig.url}/oauth/token`, {
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: "https://app.example/cb",
      code_verifier: pkcePair().verifier,
      client_id: reg.client_id,
    }, { authorization: basic(reg.client_secret) });
    assert.equal(good.json?.error, "invalid_grant", "client accepted; the code is what is wrong");
    const grant = await postForm(`${rig.url}/oauth/token`, {
      grant_type: "password",
      client_id: reg.client_id,
    });
    assert.equal(grant.json?.error, "unsupported_grant_type");
    const json = await fetch(`${rig.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal((await json.json()).error, "invalid_request");
  } finally {
    await rig.close();
  }
});

Deno.test("refresh: rotated; a repeat inside 60 s gets the same pair; later it revokes the family", async () => {
  const rig = await mcpRig();
  try {
    const g = await grantFor(rig, rig.pro);
    const form = { grant_type: "refresh_token", refresh_token: g.refresh, client_id: g.clientId };
    const [a, b] = await Promise.all([
      postForm(`${rig.url}/oauth/token`, form),
      postForm(`${rig.url}/oauth/token`, form),
    ]);
    assert.equal(a.status, 200);
    assert.deepStrictEqual(b.json, a.json);
    const pair = OAuthTokensSchema.parse(a.json);
    assert.notEqual(pair.refresh_token, g.refresh);
    assert.equal(await toolsList(rig, pair.access_token), 200);
    rig.clock.advance(61_000);
    const late = await postForm(`${rig.url}/oauth/token`, form);
    assert.equal(late.status, 400);
    assert.equal(late.json?.error, "invalid_grant");
    assert.equal(await toolsList(rig, pair.access_token), 401, "family revoked");
  } finally {
    await rig.close();
  }
});

Deno.test("revocation: a revoked access token gets 401; revoking the refresh token ends the grant", async () => {
  const rig = await mcpRig();
  try {
    const g = await grantFor(rig, rig.pro);
    const r1 = await postForm(`${rig.url}/oauth/revoke`, {
      token: g.access,
      client_id: g.clientId,
    });
    assert.equal(r1.status, 200);
    assert.equal(await toolsList(rig, g.access), 401);
    const refreshed = await postForm(`${rig.url}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: g.refresh,
      client_id: g.clientId,
    });
    assert.equal(refreshed.status, 200);
    await postForm(`${rig.url}/oauth/revoke`, {
      token: refreshed.json!.refresh_token!,
      client_id: g.clientId,
    });
    assert.equal(await toolsList(rig, refreshed.json!.access_token!), 401);
    const unknown = await postForm(`${rig.url}/oauth/revoke`, {
      token: "nope",
      client_id: g.clientId,
    });
    assert.equal(unknown.status, 200);
  } finally {
    await rig.close();
  }
});

Deno.test("an OAuth access token is refused on the REST API", async () => {
  const rig = await mcpRig();
  try {
    const g = await grantFor(rig, rig.pro);
    const res = await fetch(`${rig.url}/api/services`, {
      headers: { authorization: `Bearer ${g.access}` },
    });
    const body = await res.json();
    assert.equal(res.status, 401);
    assert.match(body.message, /only for \/api\/mcp/);
  } finally {
    await rig.close();
  }
});

Deno.test("a Free account sees why it cannot approve, and approving anyway is access_denied", async () => {
  const rig = await mcpRig();
  try {
    const reg = await fetch(`${rig.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["http://localhost/cb"],
        token_endpoint_auth_method: "none",
      }),
    }).then((r) => r.json());
    const u = new URL(`${rig.url}/oauth/authorize`);
    u.search = new URLSearchParams({
      response_type: "code",
      client_id: reg.client_id,
      redirect_uri: "http://localhost:9/cb",
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
    }).toString();
    const { page, location } = await consent(u, await rig.sessionCookie(rig.free), "approve");
    assert.match(page, /needs the PRO plan or above/);
    assert.ok(!page.includes('value="approve"'));
    assert.equal(location.searchParams.get("error"), "access_denied");
    const denied = await consent(u, await rig.sessionCookie(rig.pro), "deny");
    assert.equal(denied.location.searchParams.get("error"), "access_denied");
  } finally {
    await rig.close();
  }
});

Deno.test("Settings > MCP: URL, connected client disconnect, MCP key minted and usable", async () => {
  const rig = await mcpRig();
  try {
    const g = await grantFor(rig, rig.pro);
    const cookie = await rig.sessionCookie(rig.pro);
    const page = await fetch(`${rig.url}/settings/mcp`, { headers: { cookie } });
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.ok(html.includes(`<code id="mcp-url">${rig.mcpUrl}</code>`));
    assert.match(html, /Rig client/);
    assert.match(html, /localhost:40000/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const cut = await fetch(`${rig.url}/settings/mcp/clients/${g.clientId}/revoke`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf }),
      redirect: "manual",
    });
    await cut.body?.cancel();
    assert.equal(cut.status, 303);
    assert.equal(await toolsList(rig, g.access), 401);
    const after = await (await fetch(`${rig.url}/settings/mcp`, { headers: { cookie } })).text();
    assert.match(after, /No application is connected/);
    const minted = await fetch(`${rig.url}/settings/mcp/keys`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, name: "headless agent" }),
    });
    const mintedHtml = await minted.text();
    assert.equal(minted.status, 201);
    const key = /<code id="new-key">(sd_live_[^<]+)<\/code>/.exec(mintedHtml)![1]!;
    assert.equal(await toolsList(rig, key), 200);
    const forged = await fetch(`${rig.url}/settings/mcp/keys`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: "forged", name: "x" }),
    });
    await forged.body?.cancel();
    assert.equal(forged.status, 403);
    const anon = await fetch(`${rig.url}/settings/mcp`, { redirect: "manual" });
    await anon.body?.cancel();
    assert.equal(anon.status, 303);
  } finally {
    await rig.close();
  }
});

Deno.test("/.well-known/mcp.json matches the live server", async () => {
  const rig = await mcpRig();
  try {
    const m = await getJson(`${rig.url}/.well-known/mcp.json`);
    assert.equal(m.status, 200);
    assert.equal(m.json.transport.type, "streamable-http");
    assert.equal(m.json.transport.endpoint, rig.mcpUrl);
    assert.equal(m.json.protocolVersion, "2025-06-18");
    assert.equal(
      m.json.authentication.protectedResourceMetadata,
      `${rig.url}/.well-known/oauth-protected-resource/api/mcp`,
    );
    const init = await fetch(rig.mcpUrl, {
      method: "POST",
      headers: {
        "x-api-key": rig.keys.all,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "0" },
        },
      }),
    }).then((r) => r.json());
    assert.deepStrictEqual(m.json.serverInfo, init.result.serverInfo);
    assert.deepStrictEqual(m.json.capabilities, init.result.capabilities);
    const list = await fetch(rig.mcpUrl, {
      method: "POST",
      headers: {
        "x-api-key": rig.keys.all,
        "content-type": "application/json",
        accept: "application/json",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    }).then((r) => r.json());
    assert.deepStrictEqual(
      m.json.tools.map((t: { name: string }) => t.name),
      list.result.tools.map((t: { name: string }) => t.name),
    );
  } finally {
    await rig.close();
  }
});
