/**
 * The account API: API-key metadata, the scope list and the SLA report (SPEC §4).
 * Each operation declares its credential and scopes once, in `defineRoute`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  type KeyView,
  LIST_KEYS,
  LIST_SCOPES,
  listKeys,
  listScopes,
  READ_SLA_REPORT,
  SLA_DAYS,
  type SlaReport,
  slaReport,
} from "../../app/mod.ts";
import { ALL_SCOPES, toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { ErrorSchema } from "../errors.ts";
import { queryInteger } from "./schemas.ts";

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
}, LIST_KEYS);

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
}, LIST_SCOPES);

const SlaIncidentSchema = z.object({
  id: z.string(),
  title: z.string(),
  impact: z.string(),
  startedAt: z.string().openapi({ description: "ISO 8601 UTC" }),
  resolvedAt: z.string().nullable().openapi({ description: "ISO 8601 UTC; null while open" }),
}).openapi("SlaIncident");

const BreachSchema = z.object({
  kind: z.enum(["day", "rolling"]).openapi({
    description: "`day`: one UTC day (clipped to the report window); " +
      "`rolling`: the rolling window of `rollingDays` days ending at `end`",
  }),
  start: z.string().openapi({ description: "Window start, ISO 8601 UTC" }),
  end: z.string().openapi({ description: "Window end (exclusive), ISO 8601 UTC" }),
  uptimePercent: z.number().openapi({ description: "Uptime of the window, below the target" }),
  incidents: z.array(SlaIncidentSchema).openapi({
    description: "The vendor's incidents that were open during the window",
  }),
}).openapi("SlaBreach");

const SlaReportSchema = z.object({
  slug: z.string(),
  name: z.string(),
  days: z.number().int(),
  windowStart: z.string().openapi({ description: "ISO 8601 UTC" }),
  windowEnd: z.string().openapi({ description: "ISO 8601 UTC (now)" }),
  targetPercent: z.number().openapi({
    description: "The account's SLA target (default 99.9, set with `statusd admin set-sla-target`)",
    example: 99.9,
  }),
  uptimePercent: z.number().nullable().openapi({
    description: "Uptime over the window (3 decimals); null while less than a day was observed",
  }),
  observedSeconds: z.number().int().openapi({
    description: "How much of the window statusd observed the service: the uptime covers only " +
      "that (a service first read an hour ago has an hour behind its figure, not `days` days)",
    example: 2592000,
  }),
  met: z.boolean().nullable().openapi({
    description: "Uptime at or above the target; null while less than a day was observed",
  }),
  note: z.string().nullable().openapi({
    description: "While less than a day was observed: what it says instead of a figure",
    example: "not enough data yet (4 min observed)",
  }),
  mttrMinutes: z.number().nullable().openapi({
    description: "Mean minutes to recovery of disruptions that ended in the window",
  }),
  latency: z.object({
    samples: z.number().int().openapi({
      description: "Measured fetches (full reads and pulses) that got an answer, in the UTC " +
        "days the window touches",
    }),
    p50: z.number().nullable(),
    p95: z.number().nullable(),
    p99: z.number().nullable(),
  }).openapi({
    description: "Latency percentiles (ms) of statusd's measured fetches of the vendor's status " +
      "endpoints that got an answer, over the UTC days the window touches, read from a daily " +
      "summary with fixed ×1.1 buckets: each within ±5 % (0.5 ms under 1 ms) of the exact " +
      "nearest-rank percentile",
  }),
  rollingDays: z.number().int().openapi({ description: "Length of the rolling breach windows" }),
  breaches: z.array(BreachSchema).openapi({ description: "Oldest first" }),
}).openapi("SlaReport");

/** `GET /api/user/services/{slug}/sla`. */
export const slaReportRoute = defineRoute({
  method: "get",
  path: "/api/user/services/{slug}/sla",
  operationId: "getServiceSlaReport",
  summary: "SLA report of one service",
  description:
    "SLA report of one service over the last `days` days (1..90, default 30) for the calling " +
    "account: uptime percent against the account's SLA target (default 99.9), MTTR, the " +
    "latency percentiles p50/p95/p99 of statusd's own measured fetches of the vendor's status " +
    "endpoint in the window (not the vendor's product latency), and the breach history: each " +
    "UTC day and each rolling 7-day window whose uptime fell below the target, with the " +
    "incidents open during it. Uptime counts MAJOR_OUTAGE time as down and PARTIAL_OUTAGE " +
    "time as 30 % down; unobserved time is left out. Requires the Pro plan or above.",
  tags: ["Account"],
  request: {
    params: z.object({
      slug: z.string().openapi({ description: "Service identifier", example: "github" }),
    }),
    query: z.object({
      days: queryInteger(SLA_DAYS.min, SLA_DAYS.max).default(SLA_DAYS.default)
        .openapi({ description: "Report window in days (1..90)", example: 30 }),
    }),
  },
  responses: {
    200: {
      description: "The SLA report",
      content: { "application/json": { schema: SlaReportSchema } },
    },
    ...errors(400, 401, 403, 404),
  },
}, READ_SLA_REPORT);

/** An SLA report as the API shows it. */
export function slaJson(r: SlaReport) {
  const { observedMs, ...rest } = r;
  return {
    ...rest,
    observedSeconds: Math.floor(observedMs / 1000),
    windowStart: toIso(r.windowStart),
    windowEnd: toIso(r.windowEnd),
    breaches: r.breaches.map((b) => ({
      ...b,
      start: toIso(b.start),
      end: toIso(b.end),
      incidents: b.incidents.map((i) => ({
        ...i,
        startedAt: toIso(i.startedAt),
        resolvedAt: toIso(i.resolvedAt),
      })),
    })),
  };
}

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
  api.openapi(listApiKeysRoute, async (c) => {
    const keys = (await listKeys(c.get("app"), c.get("principal"))).map(keyJson);
    return c.json({
      content: keys,
      totalElements: keys.length,
      page: 0,
      size: keys.length,
      totalPages: keys.length ? 1 : 0,
    }, 200);
  });
  api.openapi(slaReportRoute, async (c) => {
    const { slug } = c.req.valid("param");
    const { days } = c.req.valid("query");
    return c.json(slaJson(await slaReport(c.get("app"), c.get("principal"), slug, days)), 200);
  });
  api.openapi(listScopesRoute, (c) => {
    const content = listScopes(c.get("principal"));
    return c.json({
      content,
      totalElements: content.length,
      page: 0,
      size: content.length,
      totalPages: 1,
    }, 200);
  });
};
