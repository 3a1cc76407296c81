/**
 * The resource server's side: the principal behind an access token issued here.
 * @module
 */
import { type Principal, Unauthorized } from "../../domain/mod.ts";
import type { AppContext } from "../context.ts";
import { hashToken } from "../_tokens.ts";
import { scopesFor } from "../policy.ts";
import { mcpResource } from "./resource.ts";

/**
 * The principal behind an access token issued here: live, unexpired, its grant not revoked,
 * its audience the MCP resource. Anything else → Unauthorized.
 */
export async function verifyAccessToken(
  ctx: AppContext,
  token: string,
): Promise<Extract<Principal, { kind: "oauth" }>> {
  const now = ctx.clock.now();
  const found = await ctx.store.oauth.token(hashToken(token));
  if (!found || found.token.kind !== "access") throw new Unauthorized("Unknown access token");
  const { token: stored, grant, account } = found;
  if (stored.revokedAt !== null || grant.revokedAt !== null) {
    throw new Unauthorized("The access token was revoked");
  }
  if (stored.expiresAt <= now) throw new Unauthorized("The access token expired");
  if (grant.resource !== mcpResource(ctx)) {
    throw new Unauthorized("The access token was issued for another resource");
  }
  if (!account) throw new Unauthorized("The account behind this token no longer exists");
  await ctx.store.oauth.touchGrant(grant.id, now);
  return {
    kind: "oauth",
    account,
    clientId: grant.clientId,
    // Bounded by the current role of the member who approved it: a demotion takes effect at once.
    scopes: scopesFor(found.memberRole, stored.scopes),
    resource: grant.resource,
  };
}
