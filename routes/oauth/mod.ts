/**
 * statusd's built-in OAuth 2.1 authorization server for /api/mcp: the discovery documents,
 * registration, token and revocation endpoints (JSON, CORS `*`, RFC 6749 errors) and the
 * browser consent pages.
 * @module
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { Env } from "../env.ts";
import { LIMITS, rateLimit } from "../middleware/rate_limit.ts";
import type { Register } from "../register.ts";
import { authorizePages } from "./authorize.tsx";
import { oauthOnError } from "./errors.ts";
import { metadataRoutes } from "./metadata.ts";
import { registerRoutes } from "./register.ts";
import { tokenRoutes } from "./token.ts";

/** The JSON endpoints as one router with its own error mapping. */
export function oauthApi(): Hono<Env> {
  const app = new Hono<Env>();
  app.onError(oauthOnError);
  // Public documents and endpoints for browser-based clients: no cookies are used here, so a
  // wildcard origin cannot ride anyone's credentials. SDK clients send MCP-Protocol-Version on
  // metadata fetches, which makes browsers preflight them.
  const headers = cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept", "MCP-Protocol-Version"],
    exposeHeaders: ["WWW-Authenticate"],
    maxAge: 86400,
  });
  app.use("/.well-known/oauth-*", headers);
  app.use("/oauth/register", headers);
  // After CORS, so a 429 carries the same CORS headers as every other answer here; only
  // registrations that succeed count against the limit.
  app.use("/oauth/register", rateLimit(LIMITS.register));
  app.use("/oauth/token", headers);
  app.use("/oauth/revoke", headers);
  metadataRoutes(app);
  registerRoutes(app);
  tokenRoutes(app);
  return app;
}

/** Mounts the OAuth endpoints and consent pages. */
export const registerOAuth: Register = (api) => {
  api.route("/", oauthApi());
  api.route("/", authorizePages());
};
