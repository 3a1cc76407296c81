/**
 * Turns a presented credential into a Principal.
 * @module
 */
import { ANONYMOUS, type Principal, Unauthorized } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { authenticateKey, looksLikeKey } from "./keys.ts";
import { isOAuthAccessToken, verifyAccessToken } from "./oauth/mod.ts";

/**
 * Resolves the credential sent with a request (an API key or an OAuth access token; null when
 * none was sent). A credential that is presented is always checked: unknown or revoked → Unauthorized.
 */
export async function authenticate(
  ctx: AppContext,
  credential: string | null,
): Promise<Principal> {
  if (credential === null) return ANONYMOUS;
  if (looksLikeKey(credential)) return await authenticateKey(ctx, credential);
  // OAuth access tokens issued by statusd's own authorization server (app/oauth/).
  if (isOAuthAccessToken(credential)) return await verifyAccessToken(ctx, credential);
  throw new Unauthorized("Unknown or malformed credential");
}
