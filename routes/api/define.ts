/**
 * `defineRoute` declares an operation once: path, schemas, operationId, description and the
 * scopes it needs. The same `scopes` value feeds `x-required-scopes` in the OpenAPI document
 * and the check run before the handler, so they cannot disagree.
 * @module
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { holdsScope, InsufficientScope, type Scope, Unauthorized } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

/**
 * Who may call: `open` (anyone; a presented key is still checked), `optional` (anonymous
 * callers allowed, a caller with a key must hold the scopes) or `key` (a key is required).
 */
export type Credential = "open" | "optional" | "key";

/** What an operation requires. */
export interface Access {
  readonly credential: Credential;
  readonly scopes: readonly Scope[];
}

/** Middleware enforcing `access` against `c.get("principal")`. */
export function requireAccess(access: Access): MiddlewareHandler<Env> {
  return async function requireAccess(c, next) {
    const p = c.get("principal");
    if (p.kind === "anonymous") {
      if (access.credential === "key") throw new Unauthorized();
    } else if (access.credential !== "open") {
      for (const scope of access.scopes) {
        if (!holdsScope(p, scope)) throw new InsufficientScope(scope);
      }
    }
    await next();
  };
}

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  open: [],
  optional: [{}, { apiKey: [] }, { bearer: [] }],
  key: [{ apiKey: [] }, { bearer: [] }],
};

/** `createRoute` plus the access rule: adds `x-required-scopes`, `security` and the check. */
export function defineRoute<const R extends RouteConfig>(route: R, access: Access) {
  return createRoute({
    ...route,
    "x-required-scopes": [...access.scopes],
    security: SECURITY[access.credential],
    middleware: [requireAccess(access)] as const,
  });
}
