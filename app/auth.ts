/**
 * Turns a presented credential into a Principal.
 * @module
 */
import { ANONYMOUS, type Principal, Unauthorized } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { authenticateKey, looksLikeKey } from "./keys.ts";
import { isOAuthAccessToken, verifyAccessToken } from "./oauth.ts";

/**
 * Resolves the credential sent with a request (an API key or an OAuth access token; null when
 * none was sent). A credential that is presented is always checked: unknown or revoked → Unauthorized.
 */
export function authenticate(ctx: AppContext, credential: string | null): Principal {
  if (credential === null) return ANONYMOUS;
  if (looksLikeKey(credential)) return authenticateKey(ctx, credential);
  // OAuth access tokens issued by statusd's own authorization server (app/oauth.ts).
  if (isOAuthAccessToken(credential)) return verifyAccessToken(ctx, credential);
  throw new Unauthorized("Unknown or malformed credential");
}
