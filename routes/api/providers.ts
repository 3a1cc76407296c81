/**
 * `/api/status/providers-overview`: one aggregate row per provider.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { OPEN, providersOverview } from "../../app/mod.ts";
import { pageOf } from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { pageJson, PageQuery, providerJson, ProviderPageSchema } from "./schemas.ts";

const providersRoute = defineRoute({
  method: "get",
  path: "/api/status/providers-overview",
  operationId: "getProvidersOverview",
  tags: ["Status"],
  summary: "One aggregate row per provider",
  description:
    "Services grouped by owning company (`provider`, e.g. `google` owns `google-cloud` and " +
    "`google-workspace`), ordered by provider slug: how many services, how many at each " +
    "current level (`byStatus`), the worst current level, open incidents, and the mean 30-day " +
    "uptime of its services. No credential needed.",
  request: { query: z.object(PageQuery) },
  responses: {
    200: {
      content: { "application/json": { schema: ProviderPageSchema } },
      description: "A page envelope of provider rows",
    },
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: a parameter is malformed or out of range",
    },
  },
}, OPEN);

/** Mounts the provider overview. */
export const registerProviders: Register = (api, deps) => {
  const cache = deps.responseCache;
  api.openapi(providersRoute, (c) => {
    const { limit, page } = c.req.valid("query");
    return cache.json(c, async () => {
      const rows = await providersOverview(c.get("app"));
      const slice = rows.slice(page * limit, page * limit + limit);
      return pageJson(pageOf(slice, rows.length, { limit, page }), providerJson);
    });
  });
};
