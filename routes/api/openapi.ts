/**
 * `/openapi.json` and `/openapi.yaml`: the OpenAPI 3.1 document generated from the same
 * route declarations (zod schemas, operationIds, scopes) the app validates with.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "../env.ts";
import type { Register, ServerDeps } from "../register.ts";

/** Version of the REST API description (bumped with breaking changes). */
export const API_VERSION = "1.0.0";

/**
 * `info.license`. The repository declares no licence yet, so the document says so in npm's
 * words rather than inventing one; change this line when the project picks a licence.
 */
export const API_LICENSE = { name: "UNLICENSED" } as const;

function description(publicUrl: string): string {
  return [
    "statusd reads the official status pages of thousands of cloud and SaaS vendors, " +
    "normalises them into one shape and serves them here.",
    "",
    "**Credentials.** Public status reads need none. Account data needs an API key " +
    "(`sd_live_…`), sent as `X-API-Key: <key>` or `Authorization: Bearer <key>`. A key that " +
    "is sent is always checked: unknown or revoked → 401; a key without the operation's " +
    "scope → 403 `insufficient_scope`. OAuth access tokens issued by statusd are for the MCP " +
    "server only; this API answers them with 401. Each operation lists the scopes it needs " +
    "in `x-required-scopes`.",
    "",
    "**Conventions.** Bodies are JSON; timestamps are ISO 8601 in UTC; collections come in a " +
    "page envelope `{content, totalElements, page, size, totalPages}` driven by `page` " +
    "(0-based, default 0) and `limit` (1..500, default 50); a page past the end is empty.",
    "",
    "**Errors.** Every error is `{error, status, message}` plus its own fields: " +
    "`invalid_request` 400 (with `issues`: `[{parameter, message}]`), `unauthorized` 401, " +
    "`insufficient_scope` 403 (with `requiredScope`), `plan_required` 403, `not_found` 404 " +
    "(with `suggestions` for unknown slugs), `rate_limited` 429, `internal` 500.",
    "",
    "**Statuses.** OPERATIONAL < UNDER_MAINTENANCE < DEGRADED_PERFORMANCE < PARTIAL_OUTAGE < " +
    "MAJOR_OUTAGE, plus UNKNOWN (no fresh data).",
    "",
    `MCP server: ${publicUrl}/api/mcp. Discovery: ${publicUrl}/.well-known/api-catalog, ` +
    `${publicUrl}/llms.txt.`,
  ].join("\n");
}

/** The OpenAPI 3.1 document of `api` for this deployment (cached per app). */
export function openApiDocument(
  api: OpenAPIHono<Env>,
  deps: ServerDeps,
): Record<string, unknown> {
  const publicUrl = deps.app.settings.publicUrl;
  return api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "statusd API",
      version: API_VERSION,
      description: description(publicUrl),
      contact: { name: "The operator of this statusd", url: `${publicUrl}/` },
      license: API_LICENSE,
    },
    servers: [{ url: publicUrl, description: "This statusd" }],
    tags: [
      { name: "Status", description: "Public service status, incidents, history and uptime" },
      { name: "Live", description: "Server-Sent Events of changes as they are stored" },
      {
        name: "Account",
        description: "The calling account's API keys and SLA reports (an API key is required)",
      },
      {
        name: "Monitors",
        description:
          "The services the calling account watches, each narrowed to components when it " +
          "chooses, with what that selection reads now (`monitors:read` / `monitors:write`)",
      },
      {
        name: "Alerting",
        description:
          "Where the calling account's alerts go (webhook, Slack, Discord, Teams, email, " +
          "PagerDuty) and every alert delivered, with its attempts (`alerts:read` / `alerts:write`)",
      },
      {
        name: "Feeds",
        description: "Status badges, RSS/Atom incident feeds and the maintenance calendar",
      },
    ],
  }) as unknown as Record<string, unknown>;
}

/** Mounts `/openapi.json` and `/openapi.yaml` (built on first request, after every route). */
export const registerOpenApi: Register = (api, deps) => {
  let json: string | null = null;
  let yaml: string | null = null;
  const document = () => {
    json ??= JSON.stringify(openApiDocument(api, deps), null, 2);
    return json;
  };
  // The YAML form, and the `yaml` package, only once someone asks for it (memory).
  const yamlDocument = async () => {
    if (yaml === null) {
      const { stringify } = await import("yaml");
      yaml = stringify(JSON.parse(document()), { aliasDuplicateObjects: false });
    }
    return yaml;
  };
  const headers = { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" };
  api.get(
    "/openapi.json",
    (c) =>
      c.body(document(), 200, {
        ...headers,
        "Content-Type": "application/json; charset=utf-8",
      }),
  );
  api.get(
    "/openapi.yaml",
    async (c) =>
      c.body(await yamlDocument(), 200, {
        ...headers,
        "Content-Type": "application/yaml; charset=utf-8",
      }),
  );
};
