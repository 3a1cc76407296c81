/**
 * A real statusd HTTP server on 127.0.0.1 (port 0) whose public URL is its own address, with
 * vendors, a Pro and a Free account and keys of various scopes; plus the MCP SDK client
 * imports (under `@ts-types`, TOOLCHAIN §6.1) and helpers to approve an OAuth consent the way
 * a person would (GET the consent page with the session cookie, POST Approve with its CSRF).
 */
import {
  type AppContext,
  createAppContext,
  createKey,
  type Membership,
  startSession,
} from "../../../app/mod.ts";
import { DAY_MS, fixedClock, HOUR_MS, type Scope } from "../../../domain/mod.ts";
import { silentLogger } from "../../../log.ts";
import { createServer } from "../../../routes/mod.ts";
import { addComponent, addIncident, addTransitions, addVendor, T0 } from "../../support/api.ts";
import { memoryStore, pollerStats } from "../../support/store.ts";
import { account, TEST_PASSWORD_COST } from "../../support/accounts.ts";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
export {
  type OAuthClientProvider,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
export {
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export { T0 };

/** A running server with seeded data. */
export interface McpRig {
  readonly ctx: AppContext;
  readonly clock: ReturnType<typeof fixedClock>;
  /** `http://127.0.0.1:PORT` (= STATUSD_PUBLIC_URL). */
  readonly url: string;
  /** `${url}/api/mcp`. */
  readonly mcpUrl: string;
  readonly pro: Membership;
  readonly free: Membership;
  /** Secrets: all scopes (Pro), no mcp:invoke (Pro), mcp + status only (Pro), all (Free). */
  readonly keys: { all: string; noMcp: string; statusOnly: string; free: string };
  /** Every request path the server saw, with method and status (to assert "no 3xx"). */
  readonly log: { method: string; path: string; status: number }[];
  /** A signed-in session cookie header for `who`. */
  sessionCookie(who: Membership): Promise<string>;
  close(): Promise<void>;
}

async function key(
  ctx: AppContext,
  who: Membership,
  name: string,
  scopes: Scope[],
): Promise<string> {
  return (await createKey(ctx, { kind: "admin", account: who.account }, { name, scopes })).secret;
}

/** Seeds three vendors: github (partial outage, open incident), stripe, cloudflare. */
async function seed(ctx: AppContext): Promise<void> {
  const store = ctx.store;
  await addVendor(store, { slug: "github", name: "GitHub", category: "devtools" });
  await addTransitions(store, "github", [
    [T0 - 40 * DAY_MS, "OPERATIONAL"],
    [T0 - 3 * DAY_MS, "MAJOR_OUTAGE"],
    [T0 - 3 * DAY_MS + 2 * HOUR_MS, "OPERATIONAL"],
    [T0 - HOUR_MS, "PARTIAL_OUTAGE"],
  ]);
  await addComponent(store, "github", {
    externalId: "api",
    name: "API Requests",
    status: "PARTIAL_OUTAGE",
  });
  await addComponent(store, "github", {
    externalId: "git",
    name: "Git Operations",
    status: "OPERATIONAL",
  });
  await addComponent(store, "github", {
    externalId: "actions-eu",
    name: "Actions EU",
    group: "Actions",
    status: "OPERATIONAL",
  });
  await addIncident(store, "github", {
    externalId: "inc-1",
    title: "Degraded API performance",
    status: "INVESTIGATING",
    impact: "MAJOR",
    startedAt: T0 - HOUR_MS,
    componentIds: ["api"],
    updates: [{ at: T0 - HOUR_MS, status: "INVESTIGATING", body: "We are investigating." }],
  });
  await addVendor(store, { slug: "stripe", name: "Stripe", category: "payments" });
  await addTransitions(store, "stripe", [[T0 - 40 * DAY_MS, "OPERATIONAL"], [T0, "OPERATIONAL"]]);
  await addVendor(store, {
    slug: "cloudflare",
    name: "Cloudflare",
    category: "cdn-dns",
    status: "OPERATIONAL",
  });
}

/** Starts the rig. Close it in `finally`. */
export async function mcpRig(): Promise<McpRig> {
  const clock = fixedClock(T0);
  const log: McpRig["log"] = [];
  let handler: (req: Request) => Response | Promise<Response> = () => new Response(null);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const res = await handler(req);
      log.push({ method: req.method, path: new URL(req.url).pathname, status: res.status });
      return res;
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const ctx: AppContext = createAppContext({
    store: memoryStore(),
    clock,
    log: silentLogger,
    settings: {
      publicUrl: url,
      pollStableSeconds: 300,
      pollMovingSeconds: 60,
      passwordCost: TEST_PASSWORD_COST,
    },
  });
  const app = createServer({ app: ctx, pollerStats: () => pollerStats(true) });
  handler = (req) => app.fetch(req);
  await seed(ctx);
  const pro = await account(ctx, "owner@pro.test", "PRO");
  const free = await account(ctx, "owner@free.test", "FREE");
  const keys = {
    all: await key(ctx, pro, "agent", []),
    noMcp: await key(ctx, pro, "reader", ["status:read", "incidents:read", "sla:read"]),
    statusOnly: await key(ctx, pro, "status-only", ["mcp:invoke", "status:read"]),
    // A FREE account cannot create keys; store one as a downgraded account would hold it.
    free: (await createKey(ctx, { kind: "admin", account: { ...free.account, plan: "PRO" } }, {
      name: "old",
      scopes: [],
    })).secret,
  };
  return {
    ctx,
    clock,
    url,
    mcpUrl: `${url}/api/mcp`,
    pro,
    free,
    keys,
    log,
    async sessionCookie(who) {
      return `sd_session=${(await startSession(ctx, who)).sessionId}`;
    },
    async close() {
      await server.shutdown();
      await ctx.store.close();
    },
  };
}

/** The hidden inputs of the first form on an HTML page. */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  // The consent form (the header's sign-out form comes first on a signed-in page).
  const start = html.indexOf('<form method="post" action="/oauth/authorize"');
  const form = html.slice(start, html.indexOf("</form>", start));
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    out[m[1]!] = m[2]!.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<").replaceAll("&gt;", ">");
  }
  return out;
}

/**
 * Plays the person at the browser: opens `authorizationUrl` signed in as `cookie`, checks the
 * consent page, presses Approve (or Deny) and returns where statusd redirected to.
 */
export async function consent(
  authorizationUrl: URL | string,
  cookie: string,
  decision: "approve" | "deny" = "approve",
): Promise<{ page: string; location: URL }> {
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${html.slice(0, 300)}`);
  const fields = formFields(html);
  const origin = new URL(authorizationUrl).origin;
  const res = await fetch(`${origin}/oauth/authorize`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ ...fields, decision }),
    redirect: "manual",
  });
  await res.body?.cancel();
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) throw new Error(`consent POST: ${res.status}`);
  return { page: html, location: new URL(location) };
}

/** A fresh PKCE pair (S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

/** POSTs a form to an OAuth endpoint; returns status, headers and the JSON body (or null). */
export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, string> | null }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

/** Registers a public client redirecting to `redirect`; its client id. */
export async function registerClient(rig: McpRig, redirect: string): Promise<string> {
  const reg = await fetch(`${rig.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Rig client",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    }),
  });
  return (await reg.json()).client_id as string;
}

/** The authorization request a client makes, PKCE with `challenge`, asking for `scope` if given. */
export function authorizeUrl(
  rig: McpRig,
  clientId: string,
  redirect: string,
  challenge: string,
  scope?: string,
): URL {
  const u = new URL(`${rig.url}/oauth/authorize`);
  u.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s",
    ...(scope ? { scope } : {}),
  }).toString();
  return u;
}

/**
 * Registers a public client, has `who` approve it, and redeems the code: the whole grant a
 * connected MCP client holds.
 */
export async function grantFor(
  rig: McpRig,
  who: Membership,
  redirect = "http://localhost:40000/cb",
  scope?: string,
): Promise<{ clientId: string; access: string; refresh: string }> {
  const clientId = await registerClient(rig, redirect);
  const { verifier, challenge } = pkcePair();
  const u = authorizeUrl(rig, clientId, redirect, challenge, scope);
  const { location } = await consent(u, await rig.sessionCookie(who));
  const t = await postForm(`${rig.url}/oauth/token`, {
    grant_type: "authorization_code",
    code: location.searchParams.get("code")!,
    redirect_uri: redirect,
    code_verifier: verifier,
    client_id: clientId,
  });
  if (t.status !== 200) throw new Error(`token: ${t.status} ${JSON.stringify(t.json)}`);
  return { clientId, access: t.json!.access_token!, refresh: t.json!.refresh_token! };
}
