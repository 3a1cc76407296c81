/**
 * Reads `X-API-Key: <key>` or `Authorization: Bearer <key>` and sets `principal`.
 * A credential that is presented is always checked (DESIGN §8).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../../app/mod.ts";
import { Unauthorized } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

/** The credential a request carries, or null. */
export function credentialOf(req: Request): string | null {
  const key = req.headers.get("x-api-key");
  if (key !== null) return key.trim();
  const auth = req.headers.get("authorization");
  if (auth === null) return null;
  const m = /^Bearer[ \t]+([^ \t].*)$/i.exec(auth.trim());
  return m ? m[1]!.trim() : auth.trim();
}

/** Sets `c.get("principal")` from the request's credential (anonymous when none). */
export const principal: MiddlewareHandler<Env> = async function principal(c, next) {
  // /api/mcp authenticates itself: its refusals carry the MCP Bearer challenge and CORS headers.
  if (c.req.path === "/api/mcp") return await next();
  const who = await authenticate(c.get("app"), credentialOf(c.req.raw));
  // OAuth access tokens are issued for the MCP resource only (no token passthrough).
  if (who.kind === "oauth") {
    throw new Unauthorized("OAuth access tokens are valid only for /api/mcp");
  }
  c.set("principal", who);
  await next();
};
