/**
 * `/api/incidents`: the cross-vendor incident feed.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { listIncidents, OPEN } from "../../app/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { incidentJson, IncidentPageSchema, pageJson, PageQuery } from "./schemas.ts";

const IncidentQuery = z.object({
  active: z.enum(["true", "false"]).optional().openapi({
    param: { name: "active", in: "query" },
    description: "`true`: only open incidents and maintenances (not RESOLVED or COMPLETED)",
    example: "true",
  }),
  service: z.string().min(1).max(200).optional().openapi({
    param: { name: "service", in: "query" },
    description: "Only this service's incidents (slug; an unknown slug answers 404)",
    example: "github",
  }),
  since: z.iso.datetime({ offset: true }).optional().openapi({
    param: { name: "since", in: "query" },
    description: "Only incidents updated at or after this ISO 8601 instant",
    example: "2026-11-20T00:00:00Z",
  }),
  ...PageQuery,
});

const listIncidentsRoute = defineRoute({
  method: "get",
  path: "/api/incidents",
  operationId: "listIncidents",
  tags: ["Status"],
  summary: "Cross-vendor incident feed",
  description:
    "Incidents and maintenances of every service, newest first (by `startedAt`, then id), " +
    "each with its affected components and full timeline. `active=true` keeps the open ones; " +
    "`since` keeps the ones updated since an instant, which makes polling cheap: remember the " +
    "time of your last call and pass it. No credential needed.",
  request: { query: IncidentQuery },
  responses: {
    200: {
      content: { "application/json": { schema: IncidentPageSchema } },
      description: "A page envelope of incidents",
    },
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: a parameter is malformed or out of range",
    },
    404: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`not_found`: the `service` slug does not exist",
    },
  },
}, OPEN);

/** Mounts the incident feed. */
export const registerIncidents: Register = (api, deps) => {
  const cache = deps.responseCache;
  api.openapi(listIncidentsRoute, (c) => {
    const { limit, page, active, service, since } = c.req.valid("query");
    const filter = {
      active: active === "true",
      ...(service !== undefined ? { service } : {}),
      ...(since !== undefined ? { since: Date.parse(since) } : {}),
    };
    return cache.json(
      c,
      async () =>
        pageJson(
          await listIncidents(c.get("app"), filter, { limit, page }),
          (i) => incidentJson(i, c.get("app").clock.now()),
        ),
    );
  });
};
