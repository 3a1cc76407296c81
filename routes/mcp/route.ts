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
import { Forbidden } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import type { Register } from "../register.ts";
import { mcpChallenge } from "./challenge.ts";

export { mcpChallenge };

/** The endpoint path. */
export const MCP_PATH = "/api/mcp";

const ALLOW = "POST, OPTIONS";

/** No Origin (CLIs, server-side connectors, SDK clients) or our own origin; else 403. */
function checkOrigin(c: Context<Env>): void {
  const origin = c.req.header("origin");
  if (origin === undefined) return;
  const own = new URL(c.get("app").settings.publicUrl).origin;
  if (origin !== own) throw new Forbidden(`Origin ${origin} may not call this MCP server`);
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
  // The handler, and with it the MCP SDK, is loaded with the first POST (11 MB of
  // heap a server that no agent calls need not hold).
  app.post(MCP_PATH, async (c) => (await import("./handle.ts")).handlePost(c));
  // Stateless: nothing to stream unprompted and no session to end.
  app.all(MCP_PATH, (c) => c.body(null, 405, { Allow: ALLOW }));
  return app;
}

/** Mounts `/api/mcp`. */
export const registerMcp: Register = (api) => {
  api.route("/", mcpApi());
};
