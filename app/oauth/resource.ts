/**
 * The authorization server's fixed facts: token lives, the scopes a client may ask for, the one
 * protected resource (`/api/mcp`) and the issuer, and reading what a client asks for.
 * @module
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, type Scope, SECOND_MS } from "../../domain/mod.ts";
import type { AppContext } from "../context.ts";
import { OAuthError } from "./errors.ts";

/** Access-token life. */
export const ACCESS_TOKEN_TTL_MS = HOUR_MS;
/** Refresh-token life (sliding: each refresh starts a new one). */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;
/** Absolute cap on a grant: no refresh token outlives it. */
export const GRANT_MAX_AGE_MS = 180 * DAY_MS;
/** Authorization-code life. */
export const CODE_TTL_MS = 5 * MINUTE_MS;
/** How long a just-rotated refresh token still returns the same new pair. */
export const REFRESH_GRACE_MS = 60 * SECOND_MS;

/**
 * Scopes an OAuth client may ask for: the MCP gate, the reads, and the account's monitors and
 * alerts (the tools that read or change them).
 */
export const OAUTH_SCOPES: readonly Scope[] = [
  "mcp:invoke",
  "status:read",
  "incidents:read",
  "sla:read",
  "monitors:read",
  "monitors:write",
  "alerts:read",
  "alerts:write",
];

/** What a client that names no scope gets: the gate and the reads of public data, no more. */
export const DEFAULT_OAUTH_SCOPES: readonly Scope[] = [
  "mcp:invoke",
  "status:read",
  "incidents:read",
  "sla:read",
];

/** Every access token starts with this (an API key starts with `sd_live_`). */
export const ACCESS_PREFIX = "sd_oat_";
/** Every refresh token starts with this. */
export const REFRESH_PREFIX = "sd_ort_";

/** The canonical name of the one protected resource: `{publicUrl}/api/mcp`. */
export function mcpResource(ctx: AppContext): string {
  return `${ctx.settings.publicUrl}/api/mcp`;
}

/** The issuer string: `publicUrl` verbatim (no trailing slash), the same everywhere. */
export function issuer(ctx: AppContext): string {
  return ctx.settings.publicUrl;
}

/** True when a presented credential looks like an access token issued here (not an API key). */
export function isOAuthAccessToken(credential: string): boolean {
  return credential.startsWith(ACCESS_PREFIX);
}

function normalisedUrl(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  if (u.hash || value.includes("#")) return null;
  // URL already lower-cases scheme and host and drops a default port.
  const path = u.pathname.endsWith("/") ? u.pathname.slice(0, -1) : u.pathname;
  return `${u.protocol}//${u.host}${path}${u.search}`;
}

/**
 * The RFC 8707 `resource` a client named, as the canonical MCP resource. Absent → the MCP
 * resource; the MCP URL or the bare origin, with or without one trailing slash → the MCP
 * resource; anything else → invalid_target.
 */
export function canonicalResource(ctx: AppContext, value: string | null | undefined): string {
  const canonical = mcpResource(ctx);
  if (value === null || value === undefined || value === "") return canonical;
  const n = normalisedUrl(value);
  if (n !== null && (n === normalisedUrl(canonical) || n === normalisedUrl(issuer(ctx)))) {
    return canonical;
  }
  throw new OAuthError("invalid_target", `This server only issues tokens for ${canonical}`);
}

/** Scopes asked for (space-separated) → the ones granted; unknown extras are dropped. */
export function grantableScopes(requested: string | null | undefined): Scope[] {
  if (requested === null || requested === undefined || requested.trim() === "") {
    return [...DEFAULT_OAUTH_SCOPES];
  }
  const asked = requested.trim().split(/\s+/);
  const out = OAUTH_SCOPES.filter((s) => asked.includes(s));
  if (out.length === 0) {
    throw new OAuthError(
      "invalid_scope",
      `Ask for one or more of: ${OAUTH_SCOPES.join(" ")}`,
    );
  }
  return out;
}
