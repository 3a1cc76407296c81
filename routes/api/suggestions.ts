/**
 * `/api/user/monitors/suggestions`: which catalog services a team's dependency,
 * lock, Terraform and domain files imply, with the reason for each, and accepting a choice of
 * them as monitors in one call (all or nothing).
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  acceptSuggestions,
  idempotentCreate,
  READ_MONITORS,
  type SuggestionReport,
  suggestMonitors,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { READABLE_FILES } from "../../lib/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { IdempotencyHeader, idempotencyResponses, NO_STORE } from "./account_doc_routes.ts";
import { monitorJson, MonitorSchema } from "./schemas.ts";

const SuggestBody = z.object({
  files: z.array(
    z.object({
      name: z.string().openapi({ example: "package.json" }),
      content: z.string().openapi({
        description: "The file's text (at most 2,000,000 characters; the whole body 4 MiB)",
        example: '{"dependencies":{"stripe":"^17.0.0","@sentry/node":"^9.0.0"}}',
      }),
    }).strict(),
  ).max(20).optional().openapi({
    description: `Files statusd reads, by name: ${READABLE_FILES.join(", ")}`,
  }),
  domains: z.array(z.string()).max(1_000).optional().openapi({
    description: "Host names or URLs your product calls",
    example: ["api.stripe.com", "https://hooks.slack.com/services"],
  }),
}).strict().openapi("SuggestionRequest");

const SuggestionSchema = z.object({
  service: z.string().openapi({ example: "stripe" }),
  serviceName: z.string().openapi({ example: "Stripe" }),
  components: z.array(z.string()).openapi({
    description: "Components of a region the files name; empty: the whole service",
  }),
  reasons: z.array(z.string()).openapi({
    example: ["npm package stripe (package.json)", "domain api.stripe.com"],
  }),
  monitorId: z.string().nullable().openapi({
    description: "Your monitor of this service already, or null",
  }),
}).openapi("Suggestion");

const SuggestionReportSchema = z.object({
  suggestions: z.array(SuggestionSchema),
  files: z.array(z.object({
    name: z.string(),
    packages: z.number().int().openapi({ description: "Packages or providers read" }),
    regions: z.array(z.string()),
    domains: z.number().int(),
    services: z.number().int().openapi({ description: "Catalog services it points to" }),
  })),
}).openapi("SuggestionReport");

const AcceptBody = z.object({
  monitors: z.array(
    z.object({
      service: z.string(),
      components: z.array(z.string()).optional(),
      label: z.string().nullable().optional(),
      slaTarget: z.number().nullable().optional(),
      paused: z.boolean().optional(),
    }).strict(),
  ).min(1).max(100),
}).strict().openapi("SuggestionAccept");

const tags = ["Monitors"];

const suggestRoute = defineRoute({
  method: "post",
  path: "/api/user/monitors/suggestions",
  operationId: "suggestMonitors",
  summary: "Which services your dependency files imply",
  description: "Reads package manifests and lock files (npm, PyPI, Go), Terraform lock and " +
    "configuration files and lists of domains, and answers the catalog services they point " +
    "to, with the reason for each (`npm package stripe`, `Terraform provider hashicorp/aws, " +
    "region eu-west-1`, `domain api.stripe.com`) and the components of a named region. Nothing " +
    "is created: send your choice to `acceptSuggestions`. A file statusd cannot read is a 400 " +
    "naming it (`files.<i>`).",
  tags,
  request: {
    body: { content: { "application/json": { schema: SuggestBody } }, required: true },
  },
  responses: {
    200: {
      description: "The suggestions, most reasons first",
      content: { "application/json": { schema: SuggestionReportSchema } },
    },
  },
}, READ_MONITORS);

const acceptRoute = defineRoute({
  method: "post",
  path: "/api/user/monitors/suggestions/accept",
  operationId: "acceptSuggestions",
  summary: "Create the chosen monitors in one call",
  description: "Creates every monitor given, or none: a bad one is a 400 naming " +
    "`monitors.<i>.<field>`, and more than the plan keeps is a 403 (`plan_required` on FREE, " +
    "10 monitors) before anything is stored.",
  tags,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "application/json": { schema: AcceptBody } }, required: true },
  },
  responses: {
    201: {
      description: "Created (or, for a retry with the same Idempotency-Key, the first answer)",
      content: {
        "application/json": { schema: z.object({ monitors: z.array(MonitorSchema) }) },
      },
    },
    ...idempotencyResponses,
  },
}, WRITE_MONITORS);

function reportJson(r: SuggestionReport): z.infer<typeof SuggestionReportSchema> {
  return {
    suggestions: r.suggestions.map((s) => ({
      ...s,
      components: [...s.components],
      reasons: [...s.reasons],
    })),
    files: r.files.map((f) => ({ ...f, regions: [...f.regions] })),
  };
}

/** Mounts the suggestions API. */
export const registerSuggestionsApi: Register = (api) => {
  api.openapi(suggestRoute, async (c) => {
    const report = await suggestMonitors(c.get("app"), c.get("principal"), c.req.valid("json"));
    return c.json(reportJson(report), 200, NO_STORE);
  });
  api.openapi(acceptRoute, async (c) => {
    const body = c.req.valid("json");
    const answer = await idempotentCreate(
      c.get("app"),
      c.get("principal"),
      c.req.valid("header")["idempotency-key"],
      "acceptSuggestions",
      body,
      async () => {
        const made = await acceptSuggestions(c.get("app"), c.get("principal"), body);
        return {
          status: 201,
          body: JSON.stringify({
            monitors: made.map((m) => monitorJson(m, c.get("app").clock.now())),
          }),
          location: "/api/user/monitors",
        };
      },
    );
    return new Response(answer.body, {
      status: answer.status,
      headers: {
        "Content-Type": "application/json",
        ...NO_STORE,
        ...(answer.replayed ? { "Idempotent-Replayed": "true" } : {}),
      },
    }) as never;
  });
};
