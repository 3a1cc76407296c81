/**
 * The account API: API-key metadata, the scope list and the SLA report (SPEC §4).
 * Each operation declares its credential and scopes once, in `defineRoute`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { type KeyView, listKeys } from "../../app/mod.ts";
import { ALL_SCOPES, SCOPES, toIso } from "../../domain/mod.ts";
import type { Register } from "../mod.ts";
import { defineRoute } from "./define.ts";
import { ErrorSchema } from "../errors.ts";

const ScopeEnum = z.enum(ALL_SCOPES as [string, ...string[]]);

const ApiKeySchema = z.object({
  id: z.string().openapi({ description: "Key id (used by the settings page to revoke it)" }),
  name: z.string().openapi({ description: "Label given at creation", example: "CI pipeline" }),
  prefix: z.string().openapi({
    description: "First characters of the key, to recognise it; never the secret",
    example: "sd_live_Ab3x",
  }),
  scopes: z.array(ScopeEnum).openapi({ description: "Scopes the key holds" }),
  legacy: z.boolean().openapi({
    description: "True for a key made before scopes existed (it holds all nine)",
  }),
  createdAt: z.string().openapi({ description: "When the key was generated (ISO 8601 UTC)" }),
  lastUsedAt: z.string().nullable().openapi({
    description: "Last request made with the key (ISO 8601 UTC, minute precision); null if never",
  }),
}).openapi("ApiKey");

const ScopeSchema = z.object({
  scope: ScopeEnum.openapi({ example: "sla:read" }),
  grants: z.string().openapi({ description: "What the scope grants" }),
}).openapi("Scope");

function pageSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    totalPages: z.number().int(),
  }).openapi(name);
}

const errors = (...codes: (401 | 403 | 404 | 400)[]) =>
  Object.fromEntries(codes.map((code) => [code, {
    description: {
      400: "Invalid parameter (`invalid_request`, with `issues`)",
      401: "Missing, unknown, malformed or revoked key (`unauthorized`, with WWW-Authenticate)",
      403:
        "The key lacks the required scope (`insufficient_scope`) or the plan is too low (`plan_required`)",
      404: "No service with that slug (`not_found`, with suggestions)",
    }[code],
    content: { "application/json": { schema: ErrorSchema } },
  }]));

/** `GET /api/user/api-keys`. */
export const listApiKeysRoute = defineRoute({
  method: "get",
  path: "/api/user/api-keys",
  operationId: "listApiKeys",
  summary: "List the account's API keys",
  description:
    "Metadata of the account's active API keys, newest first: name, display prefix, scopes, " +
    "created and last used. Never the secret or its hash: the full key is shown once, when it " +
    "is created in Settings > API Keys. Requires an account on the Pro plan or above.",
  tags: ["Account"],
  responses: {
    200: {
      description: "The keys in a page envelope",
      content: { "application/json": { schema: pageSchema(ApiKeySchema, "ApiKeyPage") } },
    },
    ...errors(401, 403),
  },
}, { credential: "key", scopes: ["account:read"] });

/** `GET /api/user/api-keys/scopes`. */
export const listScopesRoute = defineRoute({
  method: "get",
  path: "/api/user/api-keys/scopes",
  operationId: "listApiKeyScopes",
  summary: "List the nine API-key scopes",
  description:
    "The nine scopes a key can hold, each with what it grants, so scripts can check a key " +
    "before using it. Any valid key may read it.",
  tags: ["Account"],
  responses: {
    200: {
      description: "The scopes in a page envelope",
      content: { "application/json": { schema: pageSchema(ScopeSchema, "ScopePage") } },
    },
    ...errors(401),
  },
}, { credential: "key", scopes: [] });

/** A key as the API shows it. */
export function keyJson(k: KeyView) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    legacy: k.legacy,
    createdAt: toIso(k.createdAt),
    lastUsedAt: toIso(k.lastUsedAt),
  };
}

/** Mounts the account API. */
export const registerUserApi: Register = (api) => {
  api.openapi(listApiKeysRoute, (c) => {
    const keys = listKeys(c.get("app"), c.get("principal")).map(keyJson);
    return c.json({
      content: keys,
      totalElements: keys.length,
      page: 0,
      size: keys.length,
      totalPages: keys.length ? 1 : 0,
    }, 200);
  });
  api.openapi(listScopesRoute, (c) => {
    const content = ALL_SCOPES.map((scope) => ({ scope, grants: SCOPES[scope] }));
    return c.json({
      content,
      totalElements: content.length,
      page: 0,
      size: content.length,
      totalPages: 1,
    }, 200);
  });
};
