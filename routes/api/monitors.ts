/**
 * `/api/user/monitors`: list, create, read, update and delete the services an
 * account watches. Reads hold `monitors:read`, writes `monitors:write` (declared once per
 * operation). A monitor's `ETag` is its configuration version: `If-Match` on PATCH and DELETE
 * refuses a stale write with 412. Another account's monitor is a 404.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  idempotentCreate,
  type IdempotentResult,
  listMonitors,
  type MonitorView,
  READ_MONITORS,
  updateMonitor,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { type EpochMs, InvalidRequest, toIso } from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import {
  incidentJson,
  IncidentSchema,
  pageJson,
  PageQuery,
  pageSchema,
  readingJson,
  ReadingSchema,
  StatusLevelSchema,
} from "./schemas.ts";

/** A monitor (the `Monitor` schema). */
export const MonitorSchema = z.object({
  id: z.string().openapi({ example: "mon_k3v9q2xw8t4m" }),
  service: z.string().openapi({ description: "Slug of the watched service", example: "aws" }),
  serviceName: z.string().nullable().openapi({
    description: "Its name; null when the service has left the catalog (the monitor is kept)",
  }),
  components: z.array(z.string()).openapi({
    description: "Watched component names; empty: the whole service",
    example: ["Amazon EC2 (eu-west-1)"],
  }),
  label: z.string().nullable(),
  slaTarget: z.number().nullable().openapi({
    description: "Percent overriding the account's SLA target; null: the account's",
  }),
  paused: z.boolean(),
  currentStatus: StatusLevelSchema.openapi({
    description: "Worst level of the watched components now (of the service when none chosen)",
  }),
  uptime30d: z.number().nullable().openapi({
    description: "Uptime percent of the watched selection over 30 days; null when unobserved",
  }),
  state: z.enum(["ok", "service_missing", "components_missing"]).openapi({
    description: "Whether what the monitor watches still exists",
  }),
  missingComponents: z.array(z.string()).openapi({
    description: "Chosen components no longer on the vendor's page",
  }),
  openIncidents: z.array(IncidentSchema),
  lastCheckedAt: z.string().nullable(),
  reading: ReadingSchema.nullable(),
  version: z.number().int().openapi({ description: "Configuration version (the ETag)" }),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("Monitor");

const MonitorPageSchema = pageSchema(MonitorSchema, "MonitorPage", "monitors");

const CreateBody = z.object({
  service: z.string().openapi({ example: "aws" }),
  components: z.array(z.string()).optional(),
  label: z.string().nullable().optional(),
  slaTarget: z.number().nullable().optional(),
  paused: z.boolean().optional(),
}).strict().openapi("MonitorCreate");

const PatchBody = z.object({
  components: z.array(z.string()).optional(),
  label: z.string().nullable().optional(),
  slaTarget: z.number().nullable().optional(),
  paused: z.boolean().optional(),
}).strict().openapi("MonitorPatch");

const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({
    param: { name: "id", in: "path" },
    example: "mon_k3v9q2xw8t4m",
  }),
});

/** The `If-Match` request header of versioned writes. */
export const IfMatch = z.object({
  "if-match": z.string().max(200).optional().openapi({
    description: "The ETag you read; a stale one is refused with 412",
  }),
});

/** The `ETag` response header of versioned resources. */
export const etagHeader = z.object({
  ETag: z.string().openapi({ description: "Configuration version" }),
});
/** The 412 response of versioned writes. */
export const stale = {
  description: "`precondition_failed`: the monitor changed since the ETag in `If-Match`",
  content: { "application/json": { schema: ErrorSchema } },
};

/** The optional `Idempotency-Key` request header of creates. */
export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().max(300).optional().openapi({
    description: "Any unique token (a UUID): a retried POST with the same key and body gets " +
      "the first answer again (`Idempotent-Replayed: true`) and creates nothing more; the same " +
      "key with another body is a 422. Kept 24 hours.",
  }),
});

/** The responses a create with `Idempotency-Key` can add. */
export const idempotencyResponses = {
  409: {
    description: "`conflict`: a request with this Idempotency-Key is still being processed",
    content: { "application/json": { schema: ErrorSchema } },
  },
  422: {
    description: "`idempotency_key_reused`: this Idempotency-Key came with a different request",
    content: { "application/json": { schema: ErrorSchema } },
  },
};

/** A create's answer (first or replayed) as the 201 response. */
export function createdResponse(answer: IdempotentResult): Response {
  const version = (JSON.parse(answer.body) as { version: number }).version;
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      "Content-Type": "application/json",
      ...NO_STORE,
      ...(answer.location ? { Location: answer.location } : {}),
      ETag: `"v${version}"`,
      ...(answer.replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  });
}

/** `"v3"` → 3; `*` or absent → null (any); anything else is a 400. */
export function versionOf(ifMatch: string | undefined): number | null {
  if (ifMatch === undefined || ifMatch.trim() === "*") return null;
  const m = /^\s*(?:W\/)?"v(\d{1,9})"\s*$/.exec(ifMatch);
  if (!m) {
    throw new InvalidRequest([{
      parameter: "If-Match",
      message: 'expected an ETag this API gave, like "v3"',
    }]);
  }
  return Number(m[1]);
}

/** A monitor as JSON. */
export function monitorJson(m: MonitorView, now: EpochMs): z.infer<typeof MonitorSchema> {
  return {
    id: m.id,
    service: m.serviceSlug,
    serviceName: m.serviceName,
    components: [...m.components],
    label: m.label,
    slaTarget: m.slaTarget,
    paused: m.paused,
    currentStatus: m.currentStatus,
    uptime30d: m.uptime30d,
    state: m.state,
    missingComponents: [...m.missingComponents],
    openIncidents: m.openIncidents.map((i) => incidentJson(i, now)),
    lastCheckedAt: toIso(m.lastCheckedAt),
    reading: m.reading === null ? null : readingJson(m.reading),
    version: m.version,
    createdAt: toIso(m.createdAt)!,
    updatedAt: toIso(m.updatedAt)!,
  };
}

const tags = ["Monitors"];

const listRoute = defineRoute({
  method: "get",
  path: "/api/user/monitors",
  operationId: "listMonitors",
  summary: "The account's monitors, with what each reads now",
  description: "The calling account's monitors, oldest first, each with the level, 30-day " +
    "uptime and open incidents of what it watches. `status` keeps only monitors whose watched " +
    "selection is at that level now (every broken thing in your stack: `status=MAJOR_OUTAGE`).",
  tags,
  request: {
    query: z.object({ ...PageQuery, status: StatusLevelSchema.optional() }),
  },
  responses: {
    200: {
      description: "One page of monitors",
      content: { "application/json": { schema: MonitorPageSchema } },
    },
  },
}, READ_MONITORS);

const createRouteDef = defineRoute({
  method: "post",
  path: "/api/user/monitors",
  operationId: "createMonitor",
  summary: "Watch a service (optionally some of its components)",
  description: "An unknown service or component is a 400 naming the field, with close matches. " +
    "A FREE account keeps up to 10 monitors (403 `plan_required` past that). A monitor of a " +
    "service the account already monitors with the same components (in any order) is a 409 " +
    "naming that monitor.",
  tags,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "application/json": { schema: CreateBody } }, required: true },
  },
  responses: {
    201: {
      description: "Created (or, for a retry with the same Idempotency-Key, the first answer)",
      headers: z.object({ Location: z.string(), ETag: z.string() }),
      content: { "application/json": { schema: MonitorSchema } },
    },
    ...idempotencyResponses,
    409: {
      description: "`conflict`: the account already monitors this service with the same " +
        "components, or a request with this Idempotency-Key is still being processed",
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
}, WRITE_MONITORS);

const getRoute = defineRoute({
  method: "get",
  path: "/api/user/monitors/{id}",
  operationId: "getMonitor",
  summary: "One monitor",
  description: "One of the calling account's monitors with what it reads now. The `ETag` is " +
    "its configuration version: send it back in `If-Match` to change or delete it safely. " +
    "Another account's monitor is a 404.",
  tags,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The monitor",
      headers: etagHeader,
      content: { "application/json": { schema: MonitorSchema } },
    },
  },
}, READ_MONITORS);

const patchRoute = defineRoute({
  method: "patch",
  path: "/api/user/monitors/{id}",
  operationId: "updateMonitor",
  summary: "Change a monitor (fields given only)",
  description: "Changes the fields given (components, label, SLA target, paused); the service " +
    "cannot change. With `If-Match`, a monitor changed since that ETag is refused with 412 " +
    "`precondition_failed` and stays as it was.",
  tags,
  request: {
    params: IdParam,
    headers: IfMatch,
    body: { content: { "application/json": { schema: PatchBody } }, required: true },
  },
  responses: {
    200: {
      description: "The changed monitor",
      headers: etagHeader,
      content: { "application/json": { schema: MonitorSchema } },
    },
    412: stale,
  },
}, WRITE_MONITORS);

const deleteRoute = defineRoute({
  method: "delete",
  path: "/api/user/monitors/{id}",
  operationId: "deleteMonitor",
  summary: "Stop watching",
  description: "Deletes the monitor (204). With `If-Match`, a monitor changed since that ETag " +
    "is refused with 412 `precondition_failed` and kept.",
  tags,
  request: { params: IdParam, headers: IfMatch },
  responses: { 204: { description: "Deleted" }, 412: stale },
}, WRITE_MONITORS);

const etag = (m: MonitorView) => `"v${m.version}"`;
/** Account data is never stored by caches. */
export const NO_STORE = { "Cache-Control": "no-store" };

/** Mounts the monitors API. */
export const registerMonitorsApi: Register = (api) => {
  api.openapi(listRoute, async (c) => {
    const { limit, page, status } = c.req.valid("query");
    const found = await listMonitors(c.get("app"), c.get("principal"), { limit, page }, {
      status,
    });
    return c.json(pageJson(found, (m) => monitorJson(m, c.get("app").clock.now())), 200, NO_STORE);
  });
  api.openapi(createRouteDef, async (c) => {
    const body = c.req.valid("json");
    const answer = await idempotentCreate(
      c.get("app"),
      c.get("principal"),
      c.req.valid("header")["idempotency-key"],
      "createMonitor",
      body,
      async () => {
        const m = await createMonitor(c.get("app"), c.get("principal"), body);
        return {
          status: 201,
          body: JSON.stringify(monitorJson(m, c.get("app").clock.now())),
          location: `/api/user/monitors/${m.id}`,
        };
      },
    );
    return createdResponse(answer) as never;
  });
  api.openapi(getRoute, async (c) => {
    const m = await getMonitor(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(monitorJson(m, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(m) });
  });
  api.openapi(patchRoute, async (c) => {
    const m = await updateMonitor(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      c.req.valid("json"),
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.json(monitorJson(m, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(m) });
  });
  api.openapi(deleteRoute, async (c) => {
    await deleteMonitor(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.body(null, 204);
  });
};
