/**
 * The one mapping from OAuth failures to RFC 6749 §5.2 / RFC 7591 §3.2.2 bodies:
 * `{"error": code, "error_description": text}`, never statusd's REST error shape, because SDK
 * clients key their recovery off these exact codes (PROTOCOLS §3.9).
 * @module
 */
import type { Context } from "hono";
import { OAuthError, type OAuthErrorCode } from "../../app/mod.ts";
import { AppError, RateLimited } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { errorBody } from "../error_body.ts";

const STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  server_error: 500,
};

/** Headers every token, registration and revocation reply carries. */
export const NO_STORE = { "Cache-Control": "no-store", "Pragma": "no-cache" } as const;

/** The RFC 6749 body and status for an OAuth failure. */
export function oauthErrorResponse(c: Context<Env>, err: OAuthError): Response {
  const status = STATUS[err.code] ?? 400;
  const headers: Record<string, string> = { ...NO_STORE };
  if (err.code === "invalid_client" && /^Basic\s/i.test(c.req.header("authorization") ?? "")) {
    headers["WWW-Authenticate"] = 'Basic realm="statusd"';
  }
  return c.json(
    { error: err.code, error_description: err.description },
    status as 400,
    headers,
  );
}

/**
 * `onError` for the OAuth endpoints: OAuth failures → their RFC body; a rate limit → 429 with
 * `Retry-After`; other typed errors → `invalid_request`; anything else → `server_error`
 * (logged, never echoed).
 */
export function oauthOnError(err: Error, c: Context<Env>): Response {
  if (err instanceof OAuthError) return oauthErrorResponse(c, err);
  if (err instanceof RateLimited) {
    // Not an OAuth protocol error: statusd's own `rate_limited` body, as on every other 429.
    const { body } = errorBody(err);
    return c.json(body, 429, { ...NO_STORE, "Retry-After": String(err.retryAfterSeconds) });
  }
  if (err instanceof AppError) {
    return oauthErrorResponse(c, new OAuthError("invalid_request", err.message));
  }
  c.get("app").log.error("oauth endpoint failed", { err: String(err), stack: err.stack });
  return oauthErrorResponse(c, new OAuthError("server_error", "Internal error"));
}
