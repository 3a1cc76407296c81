/**
 * `GET /api/lookup`: which vendor is this host, URL or error line (#47). Public like the
 * catalog; a key must hold `status:read`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { LOOKUP_MATCHES_MAX, LOOKUP_VENDORS, lookupVendors } from "../../app/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { lookupJson, LookupSchema } from "./schemas.ts";

const LookupQuery = z.object({
  target: z.string().min(1).max(2_000).openapi({
    param: { name: "target", in: "query" },
    description: "A host, a URL, or a line of error text naming hosts",
    example: "getaddrinfo ENOTFOUND api.openai.com",
  }),
});

const lookupRoute = defineRoute({
  method: "get",
  path: "/api/lookup",
  operationId: "lookupVendor",
  tags: ["Status"],
  summary: "Which vendor is this host, URL or error?",
  description: "The vendors the target belongs to, best first (at most " +
    `${LOOKUP_MATCHES_MAX}), each with why (the host is one of its domains, under one, what ` +
    "statusd probes of it, or its status page), its level now and open incidents; when the " +
    "vendor names its components as hosts do (a region, a service: " +
    "`s3.eu-west-1.amazonaws.com`), the component and its level. Hosts are read from a URL, a " +
    "bare host (with a port) or anywhere in an error line (`getaddrinfo ENOTFOUND " +
    "registry.npmjs.org`). Nothing fitting is an empty `matches`, never a guess.",
  request: { query: LookupQuery },
  responses: {
    200: {
      description: "The vendors the target belongs to",
      content: { "application/json": { schema: LookupSchema } },
    },
  },
}, LOOKUP_VENDORS);

/** Mounts the lookup. */
export const registerLookupApi: Register = (api) => {
  api.openapi(lookupRoute, async (c) => {
    const matches = await lookupVendors(
      c.get("app"),
      c.get("principal"),
      c.req.valid("query").target,
    );
    return c.json(lookupJson(matches), 200, { "Cache-Control": "no-store" });
  });
};
