/**
 * `/api/maintenances`: unfinished vendor maintenance with its planned window, filterable by
 * service, provider and how soon it starts (what `status gate` and calendars ask).
 * @module
 */
import { z } from "@hono/zod-openapi";
import { listMaintenances, MAINTENANCES_MAX, OPEN } from "../../app/mod.ts";
import { parseDuration } from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { incidentJson, IncidentPageSchema, pageJson, PageQuery } from "./schemas.ts";

/** Most slugs one `service` list may name. */
export const SERVICE_LIST_MAX = 50;

const SLUG = /^[a-z0-9][a-z0-9._-]{0,199}$/;

/** `service`: one slug or several, comma-separated (each checked, at most 50). */
export const ServiceListParam = z.string().max(SERVICE_LIST_MAX * 201)
  .transform((text, ctx) => {
    const slugs = [...new Set(text.split(",").map((s) => s.trim().toLowerCase()))];
    const bad = slugs.find((s) => !SLUG.test(s));
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `"${bad}" is not a service slug` });
      return z.NEVER;
    }
    if (slugs.length > SERVICE_LIST_MAX) {
      ctx.addIssue({ code: "custom", message: `at most ${SERVICE_LIST_MAX} slugs` });
      return z.NEVER;
    }
    return slugs;
  });

/** `provider`: a provider slug. */
export const ProviderParam = z.string().min(1).max(100);

/** The `service` and `provider` query fields (documented for `where`). */
export function scopeQuery(where: string) {
  return {
    service: ServiceListParam.optional().openapi({
      param: { name: "service", in: "query" },
      description: `Only ${where} of these services: one slug or several, comma-separated ` +
        `(at most ${SERVICE_LIST_MAX}); an unknown slug answers 404 with suggestions`,
      example: "github,stripe",
    }),
    provider: ProviderParam.optional().openapi({
      param: { name: "provider", in: "query" },
      description: `Only ${where} of this provider's services (provider slug)`,
      example: "google",
    }),
  };
}

const MaintenanceQuery = z.object({
  ...scopeQuery("maintenances"),
  within: z.string().max(10).transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === null) {
      ctx.addIssue({
        code: "custom",
        message: "expected a duration such as 30m, 2h or 7d (at most 90 days)",
      });
      return z.NEVER;
    }
    return ms;
  }).optional().openapi({
    param: { name: "within", in: "query" },
    description: "Only maintenances in progress, or planned to start within this long from " +
      "now: minutes, hours or days (`30m`, `2h`, `7d`; at most 90 days)",
    example: "2h",
  }),
  ...PageQuery,
});

const listMaintenancesRoute = defineRoute({
  method: "get",
  path: "/api/maintenances",
  operationId: "listMaintenances",
  tags: ["Status"],
  summary: "Upcoming and in-progress vendor maintenance",
  description: "Maintenances that are not finished (status SCHEDULED or IN_PROGRESS, or impact " +
    "MAINTENANCE and still open), earliest planned start first. `scheduledStartAt` and " +
    "`scheduledEndAt` are the window the vendor announced (null where its platform publishes " +
    "none; `startedAt` is then the best known start). `within=2h` keeps those in progress or " +
    "planned to start in the next two hours and not past their announced end (a maintenance " +
    "a vendor left SCHEDULED after its window is not due): the question a deploy gate asks " +
    "(`status gate`). " +
    `At most ${MAINTENANCES_MAX} are considered. No credential needed.`,
  request: { query: MaintenanceQuery },
  responses: {
    200: {
      content: { "application/json": { schema: IncidentPageSchema } },
      description: "A page envelope of maintenances",
    },
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: a parameter is malformed or out of range",
    },
    404: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`not_found`: a `service` slug does not exist",
    },
  },
}, OPEN);

/** Mounts the maintenance list. */
export const registerMaintenances: Register = (api, deps) => {
  const cache = deps.responseCache;
  api.openapi(listMaintenancesRoute, (c) => {
    const { limit, page, service, provider, within } = c.req.valid("query");
    const scope = {
      ...(service !== undefined ? { services: service } : {}),
      ...(provider !== undefined ? { provider } : {}),
      ...(within !== undefined ? { withinMs: within } : {}),
    };
    return cache.json(
      c,
      async () =>
        pageJson(
          await listMaintenances(c.get("app"), scope, { limit, page }),
          (i) => incidentJson(i, c.get("app").clock.now()),
        ),
    );
  });
};
