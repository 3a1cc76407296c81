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
import { mcpCaller } from "../../app/mod.ts";
import { Forbidden, InsufficientScope, Unauthorized } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { credentialOf } from "../middleware/principal.ts";
import type { Register } from "../register.ts";
import { PRM_PATH } from "../oauth/metadata.ts";
import { admit } from "./jsonrpc.ts";
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import { buildMcpServer } from "./server.ts";
import type { ToolCaller } from "./tool.ts";

/** The endpoint path. */
export const MCP_PATH = "/api/mcp";

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

/**
 * The caller (app `mcpCaller` decides who may use MCP), or its refusal with the Bearer
 * challenge that starts an SDK client's OAuth flow. A plan refusal carries no challenge: it is
 * not an OAuth scope matter, and SDK clients would loop into re-consent.
 */
async function callerOf(c: Context<Env>): Promise<ToolCaller> {
  const ctx = c.get("app");
  const credential = credentialOf(c.req.raw);
  try {
    return await mcpCaller(ctx, credential);
  } catch (err) {
    const publicUrl = ctx.settings.publicUrl;
    if (err instanceof Unauthorized) {
      c.header(
        "WWW-Authenticate",
        credential === null || credential === ""
          ? mcpChallenge(publicUrl)
          : mcpChallenge(publicUrl, { code: "invalid_token", description: err.message }),
      );
    } else if (err instanceof InsufficientScope) {
      c.header(
        "WWW-Authenticate",
        mcpChallenge(publicUrl, { code: "insufficient_scope", scope: err.requiredScope }),
      );
    }
    throw err;
  }
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

/** True for `application/json`, parameters (e.g. `charset=utf-8`) ignored. */
function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** The body of an HTTP-level refusal (the SDK transport's shape: code -32000, no id). */
function transportError(message: string) {
  return { jsonrpc: "2.0", id: null, error: { code: -32000, message } } as const;
}

async function handlePost(c: Context<Env>): Promise<Response> {
  const ctx = c.get("app");
  const caller = await callerOf(c);
  c.set("principal", caller);
  const raw = c.req.raw;
  // Transport-level refusals come before the body is looked at, as the SDK orders them.
  const accept = acceptFor(raw.headers.get("accept") ?? undefined);
  if (accept === null) {
    return c.json(transportError("Not Acceptable: accept application/json"), 406);
  }
  if (!isJsonMediaType(raw.headers.get("content-type"))) {
    return c.json(transportError("Unsupported Media Type: send application/json"), 415);
  }
  const text = await c.req.text();
  const admission = admit(text, raw.headers.get("mcp-protocol-version"));
  if (admission.kind === "reply") return c.json(admission.body, admission.status);
  const headers = new Headers(raw.headers);
  headers.set("accept", accept);
  const request = new Request(raw.url, { method: "POST", headers, body: text });

  const server = buildMcpServer(ctx, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: admission.message });
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
