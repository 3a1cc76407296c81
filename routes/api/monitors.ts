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
  listMonitors,
  type MonitorView,
  READ_MONITORS,
  updateMonitor,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { type EpochMs, toIso } from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { idParam, registerAccountDocApi } from "./account_doc_routes.ts";
import {
  incidentJson,
  IncidentSchema,
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

/** Mounts the monitors API. */
export const registerMonitorsApi: Register = (api) => {
  registerAccountDocApi(api, {
    path: "/api/user/monitors",
    tags: ["Monitors"],
    idParam: idParam("mon_k3v9q2xw8t4m"),
    schema: MonitorSchema,
    pageSchema: MonitorPageSchema,
    createBody: CreateBody,
    patchBody: PatchBody,
    read: READ_MONITORS,
    write: WRITE_MONITORS,
    list: {
      operationId: "listMonitors",
      summary: "The account's monitors, with what each reads now",
      description: "The calling account's monitors, oldest first, each with the level, 30-day " +
        "uptime and open incidents of what it watches. `status` keeps only monitors whose " +
        "watched selection is at that level now (every broken thing in your stack: " +
        "`status=MAJOR_OUTAGE`).",
      answer: "One page of monitors",
      query: { status: StatusLevelSchema.optional() },
    },
    create: {
      operationId: "createMonitor",
      summary: "Watch a service (optionally some of its components)",
      description: "An unknown service or component is a 400 naming the field, with close " +
        "matches. A FREE account keeps up to 10 monitors (403 `plan_required` past that). A " +
        "monitor of a service the account already monitors with the same components (in any " +
        "order) is a 409 naming that monitor.",
      responses: {
        409: {
          description: "`conflict`: the account already monitors this service with the same " +
            "components, or a request with this Idempotency-Key is still being processed",
          content: { "application/json": { schema: ErrorSchema } },
        },
      },
    },
    get: {
      operationId: "getMonitor",
      summary: "One monitor",
      description: "One of the calling account's monitors with what it reads now. The `ETag` " +
        "is its configuration version: send it back in `If-Match` to change or delete it " +
        "safely. Another account's monitor is a 404.",
      answer: "The monitor",
    },
    update: {
      operationId: "updateMonitor",
      summary: "Change a monitor (fields given only)",
      description: "Changes the fields given (components, label, SLA target, paused); the " +
        "service cannot change. With `If-Match`, a monitor changed since that ETag is refused " +
        "with 412 `precondition_failed` and stays as it was.",
      answer: "The changed monitor",
    },
    remove: {
      operationId: "deleteMonitor",
      summary: "Stop watching",
      description: "Deletes the monitor (204). With `If-Match`, a monitor changed since that " +
        "ETag is refused with 412 `precondition_failed` and kept.",
    },
    verbs: {
      list: listMonitors,
      create: createMonitor,
      get: getMonitor,
      update: updateMonitor,
      remove: deleteMonitor,
    },
    json: monitorJson,
  });
};
