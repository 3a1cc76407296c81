/**
 * A monitor as statusd shows it outside: what it watches, and what that reads now.
 * @module
 */
import { z } from "zod";
import { type EpochMs, type MonitorView, toIso } from "../domain/mod.ts";
import { StatusLevelSchema } from "./basics.ts";
import { incidentJson, IncidentSchema } from "./incident.ts";
import { readingJson, ReadingSchema } from "./reading.ts";

/** A monitor (the `Monitor` schema). */
export const MonitorSchema = z.object({
  id: z.string().meta({ example: "mon_k3v9q2xw8t4m" }),
  service: z.string().meta({ description: "Slug of the watched service", example: "aws" }),
  serviceName: z.string().nullable().meta({
    description: "Its name; null when the service has left the catalog (the monitor is kept)",
  }),
  components: z.array(z.string()).meta({
    description: "Watched component names; empty: the whole service",
    example: ["Amazon EC2 (eu-west-1)"],
  }),
  label: z.string().nullable(),
  slaTarget: z.number().nullable().meta({
    description: "Percent overriding the account's SLA target; null: the account's",
  }),
  paused: z.boolean(),
  currentStatus: StatusLevelSchema.meta({
    description: "Worst level of the watched components now (of the service when none chosen)",
  }),
  uptime30d: z.number().nullable().meta({
    description: "Uptime percent of the watched selection over 30 days; null when unobserved",
  }),
  state: z.enum(["ok", "service_missing", "components_missing"]).meta({
    description: "Whether what the monitor watches still exists",
  }),
  missingComponents: z.array(z.string()).meta({
    description: "Chosen components no longer on the vendor's page",
  }),
  openIncidents: z.array(IncidentSchema),
  lastCheckedAt: z.string().nullable(),
  reading: ReadingSchema.nullable(),
  version: z.number().int().meta({ description: "Configuration version (the ETag)" }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

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

/** A monitor in brief: what it watches and reads now, without its settings and reading. */
export const MonitorBriefSchema = MonitorSchema.pick({
  id: true,
  service: true,
  serviceName: true,
  components: true,
  label: true,
  paused: true,
  currentStatus: true,
  uptime30d: true,
  state: true,
  missingComponents: true,
  lastCheckedAt: true,
});
