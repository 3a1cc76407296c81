/**
 * Turns a presented credential into a Principal.
 * @module
 */
import { ANONYMOUS, type Principal, Unauthorized } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";

/**
 * Resolves the credential sent with a request (an API key or an OAuth access token; null when
 * none was sent). A credential that is presented is always checked: unknown or revoked → Unauthorized.
 */
export function authenticate(_ctx: AppContext, credential: string | null): Principal {
  if (credential === null) return ANONYMOUS;
  // Key and token verification arrive with the accounts issue (#4): until then no
  // credential can be valid.
  throw new Unauthorized();
}
