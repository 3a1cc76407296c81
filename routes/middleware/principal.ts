/**
 * Reads `X-API-Key: <key>` or `Authorization: Bearer <key>` and sets `principal`.
 * A credential that is presented is always checked (DESIGN §8).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../../app/mod.ts";
import type { Env } from "../env.ts";

/** The credential a request carries, or null. */
export function credentialOf(req: Request): string | null {
  const key = req.headers.get("x-api-key");
  if (key !== null) return key.trim();
  const auth = req.headers.get("authorization");
  if (auth === null) return null;
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
  return m ? m[1]!.trim() : auth.trim();
}

/** Sets `c.get("principal")` from the request's credential (anonymous when none). */
export const principal: MiddlewareHandler<Env> = async function principal(c, next) {
  c.set("principal", await authenticate(c.get("app"), credentialOf(c.req.raw)));
  await next();
};
