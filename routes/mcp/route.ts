/**
 * `/api/mcp`: MCP over Streamable HTTP, stateless, JSON replies (PROTOCOLS §1, §9).
 *
 * Order per request: CORS (a preflight never needs credentials) → Origin check → method
 * (only POST reaches the SDK transport: a stateless GET would open an SSE stream that never
 * closes) → credentials (API key with `mcp:invoke`, or an access token issued here for this
 * resource) → Pro plan → body checks (no batches; `initialize` counter-offered 2025-06-18)
 * → a new `McpServer` + transport for this one request.
 *
 * Auth failures are HTTP errors before the transport (ARCHITECTURE §2.6), with the Bearer
 * challenge that starts an SDK client's OAuth flow.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { authenticate, MCP_PLAN } from "../../app/mod.ts";
import {
  Forbidden,
  holdsScope,
  InsufficientScope,
  planAtLeast,
  PlanRequired,
  Unauthorized,
} from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { credentialOf } from "../middleware/principal.ts";
import type { Register } from "../mod.ts";
import { PRM_PATH } from "../oauth/metadata.ts";
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import { buildMcpServer, PROTOCOL_VERSION } from "./server.ts";
import type { ToolCaller } from "./tool.ts";

/** The endpoint path. */
export const MCP_PATH = "/api/mcp";

/** Versions an `initialize` may ask for and get back unchanged; anything else gets ours. */
const NEGOTIABLE = new Set([PROTOCOL_VERSION, "2025-03-26", "2024-11-05"]);

const ALLOW = "POST, OPTIONS";

/** The `WWW-Authenticate` value for /api/mcp (RFC 6750 §3 + RFC 9728 §5.1). */
export function mcpChallenge(
  publicUrl: string,
  error?: { code: "invalid_token" | "insufficient_scope"; description?: string; scope?: string },
): string {
  const parts: string[] = [];
  if (error) {
    parts.push(`error="${error.code}"`);
    if (error.description) {
      parts.push(`error_description="${error.description.replace(/"/g, "'")}"`);
    }
    if (error.scope) parts.push(`scope="${error.scope}"`);
  }
  parts.push(`resource_metadata="${publicUrl}${PRM_PATH}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** No Origin (CLIs, server-side connectors, SDK clients) or our own origin; else 403. */
function checkOrigin(c: Context<Env>): void {
  const origin = c.req.header("origin");
  if (origin === undefined) return;
  const own = new URL(c.get("app").settings.publicUrl).origin;
  if (origin !== own) throw new Forbidden(`Origin ${origin} may not call this MCP server`);
}

/** The caller, or an HTTP error with the right challenge. */
function callerOf(c: Context<Env>): ToolCaller {
  const ctx = c.get("app");
  const credential = credentialOf(c.req.raw);
  if (credential === null || credential === "") {
    c.header("WWW-Authenticate", mcpChallenge(ctx.settings.publicUrl));
    throw new Unauthorized("Send an API key with the mcp:invoke scope or an OAuth access token");
  }
  let p;
  try {
    p = authenticate(ctx, credential);
  } catch (err) {
    if (err instanceof Unauthorized) {
      c.header(
        "WWW-Authenticate",
        mcpChallenge(ctx.settings.publicUrl, { code: "invalid_token", description: err.message }),
      );
    }
    throw err;
  }
  if (p.kind !== "api_key" && p.kind !== "oauth") throw new Unauthorized();
  if (!holdsScope(p, "mcp:invoke")) {
    c.header(
      "WWW-Authenticate",
      mcpChallenge(ctx.settings.publicUrl, { code: "insufficient_scope", scope: "mcp:invoke" }),
    );
    throw new InsufficientScope("mcp:invoke");
  }
  // Not an OAuth scope matter: no challenge, or SDK clients would loop into re-consent.
  if (!planAtLeast(p.account.plan, MCP_PLAN)) throw new PlanRequired(MCP_PLAN, "MCP access");
  return p;
}

/**
 * Lenient `Accept` (PROTOCOLS §1.2): JSON when JSON, `application/*`, `*` or nothing is
 * acceptable; null when nothing usable is (the transport then answers 406).
 */
function acceptFor(accept: string | undefined): string | null {
  const types = (accept ?? "*/*").split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  const usable = types.some((t) =>
    t === "" || t === "*/*" || t === "application/*" || t === "application/json" ||
    t === "text/event-stream"
  );
  return usable ? "application/json, text/event-stream" : null;
}

/** True for a JSON-RPC `initialize` request. */
function isInitialize(
  body: unknown,
): body is { method: "initialize"; params: Record<string, unknown> } {
  return typeof body === "object" && body !== null && !Array.isArray(body) &&
    (body as { method?: unknown }).method === "initialize" &&
    typeof (body as { params?: unknown }).params === "object" &&
    (body as { params?: unknown }).params !== null;
}

async function handlePost(c: Context<Env>): Promise<Response> {
  const ctx = c.get("app");
  const caller = callerOf(c);
  c.set("principal", caller);
  const raw = c.req.raw;
  const text = await c.req.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left to the transport, which answers with the JSON-RPC parse error (-32700).
  }
  if (Array.isArray(parsed)) {
    // JSON-RPC batching was removed in 2025-06-18. This envelope is the transport's format.
    return c.json({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Batches are not supported (MCP 2025-06-18)" },
    }, 400);
  }
  // The SDK answers its own newest revision for anything it does not know; statusd promises
  // 2025-06-18, so counter-offer that in the request it sees.
  if (isInitialize(parsed) && !NEGOTIABLE.has(String(parsed.params.protocolVersion))) {
    parsed = { ...parsed, params: { ...parsed.params, protocolVersion: PROTOCOL_VERSION } };
  }
  const headers = new Headers(raw.headers);
  const accept = acceptFor(raw.headers.get("accept") ?? undefined);
  if (accept !== null) headers.set("accept", accept);
  const request = new Request(raw.url, { method: "POST", headers, body: text });

  const server = buildMcpServer(ctx, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(
      request,
      parsed === undefined ? undefined : { parsedBody: parsed },
    );
  } finally {
    await server.close();
  }
}

/** The MCP endpoint as one router. */
export function mcpApi(): Hono<Env> {
  const app = new Hono<Env>();
  app.use(
    MCP_PATH,
    cors({
      origin: "*",
      allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Accept",
        "MCP-Protocol-Version",
        "Mcp-Session-Id",
        "Last-Event-ID",
        "X-API-Key",
      ],
      exposeHeaders: ["WWW-Authenticate", "Mcp-Session-Id", "MCP-Protocol-Version"],
      maxAge: 86400,
    }),
  );
  app.use(MCP_PATH, async function origin(c, next) {
    checkOrigin(c);
    await next();
  });
  // The body limit (BODY_LIMITS.mcp, 413) is applied app-wide in routes/mod.ts.
  app.post(MCP_PATH, handlePost);
  // Stateless: nothing to stream unprompted and no session to end.
  app.all(MCP_PATH, (c) => c.body(null, 405, { Allow: ALLOW }));
  return app;
}

/** Mounts `/api/mcp`. */
export const registerMcp: Register = (api) => {
  api.route("/", mcpApi());
};
