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
  READ_MONITORS,
  updateMonitor,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { idParam, registerAccountDocApi } from "./account_doc_routes.ts";
import { monitorJson, MonitorSchema, pageSchema, StatusLevelSchema } from "./schemas.ts";

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
