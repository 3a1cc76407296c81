/**
 * The discovery documents SDK clients read before anything else (PROTOCOLS §3.3, §3.4):
 * RFC 9728 protected-resource metadata for /api/mcp and RFC 8414 authorization-server
 * metadata. Built from `publicUrl` only (never the request's Host), public, CORS `*`.
 * @module
 */
import type { Hono } from "hono";
import { issuer, mcpResource, OAUTH_SCOPES } from "../../app/mod.ts";
import type { AppContext } from "../../app/mod.ts";
import type { Env } from "../env.ts";

const CACHE = { "Cache-Control": "public, max-age=3600" } as const;

/** Path of the protected-resource metadata of /api/mcp. */
export const PRM_PATH = "/.well-known/oauth-protected-resource/api/mcp";

/** RFC 9728 metadata for `resource` (the MCP URL). */
export function protectedResourceMetadata(ctx: AppContext, resource: string) {
  const base = ctx.settings.publicUrl;
  return {
    resource,
    authorization_servers: [issuer(ctx)],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "statusd MCP server",
    resource_documentation: `${base}/llms.txt`,
  };
}

/** RFC 8414 metadata; `issuer` is byte-identical to the PRM's `authorization_servers[0]`. */
export function authorizationServerMetadata(ctx: AppContext) {
  const base = ctx.settings.publicUrl;
  const methods = ["none", "client_secret_post", "client_secret_basic"];
  return {
    issuer: issuer(ctx),
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint_auth_methods_supported: methods,
    scopes_supported: [...OAUTH_SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/llms.txt`,
  };
}

/** Adds the metadata routes to `app` (CORS is applied by the caller). */
export function metadataRoutes(app: Hono<Env>): void {
  app.get(PRM_PATH, (c) => {
    const ctx = c.get("app");
    return c.json(protectedResourceMetadata(ctx, mcpResource(ctx)), 200, CACHE);
  });
  // Nothing at the root `/.well-known/oauth-protected-resource` (the catch-all answers a JSON
  // 404): a document there would name the whole origin as the protected resource, but the REST
  // API refuses OAuth access tokens. Clients that ignore the challenge try the path form first
  // (MCP 2025-11-25 discovery order) and find it.
  app.get("/.well-known/oauth-authorization-server", (c) => {
    return c.json(authorizationServerMetadata(c.get("app")), 200, CACHE);
  });
}
