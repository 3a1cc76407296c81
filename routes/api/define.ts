/**
 * `defineRoute` declares an operation once: path, schemas, operationId, description, and the
 * access its verb declares in app/ (credential, scopes, plan). The same declaration feeds
 * `x-required-scopes` and `security` in the OpenAPI document and the check the verb runs, so
 * they cannot disagree; and the error responses the shared middleware can give (400, 401, 403,
 * 404, 429, 500) are added to every declaration from the same facts, so the document lists
 * every status an operation can answer.
 * @module
 */
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { type Access, authorize, type Credential } from "../../app/mod.ts";
import type { Env } from "../env.ts";
import { ErrorSchema } from "../errors.ts";

/**
 * Middleware checking `access` (the verb's own declaration, app/policy.ts) against the caller
 * before anything else runs, so a cached answer is never served to a caller the verb would
 * refuse. The verb checks again; the rule is the one `authorize` in app/.
 */
export function requireAccess(access: Access): MiddlewareHandler<Env> {
  return async function requireAccess(c, next) {
    authorize(c.get("principal"), access);
    await next();
  };
}

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  open: [],
  optional: [{}, { apiKey: [] }, { bearer: [] }],
  key: [{ apiKey: [] }, { bearer: [] }],
};

type Responses = RouteConfig["responses"];

function errorResponse(description: string, headers?: z.ZodObject) {
  return {
    description,
    content: { "application/json": { schema: ErrorSchema } },
    ...(headers ? { headers } : {}),
  };
}

/**
 * The error responses `route` can give whatever its handler does: `400` when it takes any
 * parameter (validation), `401` always (a key that is sent is checked, and OAuth access tokens
 * are refused), `403` when a key must hold scopes, `404` when its path names a resource, `429`
 * (rate limits) and `500` (an unexpected failure, answered with a request id).
 */
export function commonResponses(route: RouteConfig, access: Access): Responses {
  const out: Responses = {};
  const request = route.request ?? {};
  if (request.params || request.query || request.headers || request.body) {
    out[400] = errorResponse(
      "`invalid_request`: a parameter is malformed or out of range; `issues` names each one",
    );
  }
  out[401] = errorResponse(
    access.credential === "key"
      ? "`unauthorized`: no API key was sent, or it is unknown or revoked, or an OAuth access " +
        "token was sent (those work only at /api/mcp)"
      : "`unauthorized`: a credential was sent and it is not a valid API key (unknown or " +
        "revoked key, or an OAuth access token, which works only at /api/mcp)",
    z.object({
      "WWW-Authenticate": z.string().openapi({ description: "The Bearer challenge" }),
    }),
  );
  if (access.credential !== "open" && access.scopes.length > 0) {
    out[403] = errorResponse(
      `\`insufficient_scope\`: the key lacks ${access.scopes.map((s) => `\`${s}\``).join(", ")}; ` +
        "`requiredScope` names it",
    );
  }
  if (route.path.includes("{")) {
    out[404] = errorResponse(
      "`not_found`: nothing has this identifier; `suggestions` lists close ones",
    );
  }
  out[429] = errorResponse(
    "`rate_limited`: too many requests; retry after `Retry-After`",
    z.object({
      "Retry-After": z.number().int().openapi({ description: "Seconds to wait" }),
    }),
  );
  out[500] = errorResponse(
    "`internal`: an unexpected failure; `requestId` identifies it in the log",
  );
  return out;
}

/** The route's own responses plus the common ones it does not declare, in status order. */
function withCommonResponses(route: RouteConfig, access: Access): Responses {
  const merged: Responses = { ...commonResponses(route, access), ...route.responses };
  return Object.fromEntries(
    Object.entries(merged).sort(([a], [b]) => Number(a) - Number(b)),
  ) as Responses;
}

/** What every PATCH says of itself in the OpenAPI document. */
const MERGE_PATCH = " Merge-patch (RFC 7396): a field left out stays as it is; `null` clears a " +
  "field that may be null.";

/**
 * `createRoute` plus the access rule: adds `x-required-scopes`, `security`, the check and the
 * common error responses; a PATCH says it is a merge-patch.
 */
export function defineRoute<const R extends RouteConfig>(route: R, access: Access) {
  return createRoute({
    ...route,
    ...(route.method === "patch"
      ? { description: `${route.description ?? ""}${MERGE_PATCH}` }
      : {}),
    responses: withCommonResponses(route, access) as R["responses"],
    "x-required-scopes": [...access.scopes],
    // The least role a signed-in person needs (keys and tokens are bounded by their scopes).
    ...(access.role ? { "x-required-role": access.role.least } : {}),
    security: SECURITY[access.credential],
    middleware: [requireAccess(access)] as const,
  });
}
