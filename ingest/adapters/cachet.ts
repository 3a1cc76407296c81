/**
 * Cachet, self-hosted (FORMATS.md §6). The poller reads `/api/v1/components` (2.x; pre-1.0
 * bodies have the same envelope with a `status_id`); `parse` also reads an incidents list,
 * told apart by `human_status`. `cachetUpdates` reads `/api/v1/incidents/<id>/updates`.
 * Cachet writes times as `YYYY-MM-DD HH:MM:SS` in the server's zone, which no payload names:
 * they are read as UTC.
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  IncidentSnapshot,
  IncidentStatus,
  IncidentUpdate,
  Snapshot,
  StatusLevel,
} from "../../domain/mod.ts";
import { worst } from "../../domain/mod.ts";
import { type Adapter, type ParseContext, PayloadError } from "./adapter.ts";
import { decodeJson, lookup, timeline, underPage, validate } from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const PLATFORM = "cachet";

/** Component `status` (2.x) or `status_id` (pre-1.0). 0 is Cachet's own "Unknown". */
export const COMPONENT_STATUS: Record<string, StatusLevel> = {
  "0": "UNKNOWN",
  "1": "OPERATIONAL",
  "2": "DEGRADED_PERFORMANCE",
  "3": "PARTIAL_OUTAGE",
  "4": "MAJOR_OUTAGE",
};

/** Incident and incident update `status`. */
export const INCIDENT_STATUS: Record<string, IncidentStatus> = {
  "0": "SCHEDULED",
  "1": "INVESTIGATING",
  "2": "IDENTIFIED",
  "3": "MONITORING",
  "4": "RESOLVED",
};

const id = z.union([z.number(), z.string()]).transform(String);

/** 2.x writes `status` as a number; pre-1.0 writes a display string plus `status_id`. */
const component = z.object({
  id,
  name: z.string(),
  status: z.union([z.number(), z.string()]),
  status_id: z.number().nullish(),
  group_id: z.number().nullish(),
  enabled: z.boolean().nullish(),
}).superRefine((c, ctx) => {
  if (typeof c.status !== "number" && typeof c.status_id !== "number") {
    ctx.addIssue({
      code: "custom",
      path: ["status_id"],
      message: "no numeric status or status_id",
    });
  }
});

const incident = z.object({
  id,
  name: z.string(),
  status: z.number(),
  message: z.string().nullish(),
  created_at: jsonTime,
  updated_at: jsonTime.nullish(),
  occurred_at: jsonTime.nullish(),
  scheduled_at: jsonTime.nullish(),
});

const update = z.object({
  id,
  incident_id: id,
  status: z.number(),
  message: z.string().nullish(),
  created_at: jsonTime,
});

/** The envelope every list shares (`meta.pagination` is not read: `per_page` may be a string). */
const list = z.object({ data: z.array(z.record(z.string(), z.unknown())) });

function toComponent(raw: z.output<typeof component>, ctx: ParseContext): ComponentSnapshot {
  const code = typeof raw.status === "number" ? raw.status : raw.status_id!;
  return {
    externalId: raw.id,
    name: raw.name.trim(),
    // The payload names the group by id only; its name is in /components/groups.
    group: null,
    status: lookup(COMPONENT_STATUS, code, "component.status", ctx, "UNKNOWN"),
  };
}

/** Cachet incidents carry no impact: scheduled ones are maintenance, the others NONE. */
function toIncident(raw: z.output<typeof incident>, ctx: ParseContext): IncidentSnapshot {
  const status = lookup(INCIDENT_STATUS, raw.status, "incident.status", ctx, "INVESTIGATING");
  const scheduled = status === "SCHEDULED";
  const updatedAt = raw.updated_at ?? raw.created_at;
  return {
    externalId: raw.id,
    title: raw.name,
    status,
    impact: scheduled ? "MAINTENANCE" : "NONE",
    startedAt: (scheduled ? raw.scheduled_at : raw.occurred_at) ?? raw.created_at,
    updatedAt,
    resolvedAt: status === "RESOLVED" ? updatedAt : null,
    url: underPage(ctx.pageUrl, `incidents/${encodeURIComponent(raw.id)}`).href,
    componentIds: [],
    updates: [],
  };
}

function decodeList(body: string): { json: unknown; data: Record<string, unknown>[] } {
  const json = decodeJson(PLATFORM, body);
  return { json, data: validate(PLATFORM, json, list).data };
}

/**
 * Components list → leaf components (disabled ones are not shown by Cachet, so skipped); the
 * level is their worst, Cachet having no page-level value. An incidents list gives incidents
 * and no level (UNKNOWN): Cachet incidents name no impact.
 */
function parse(body: string, ctx: ParseContext): Snapshot {
  const { json, data } = decodeList(body);
  const first = data[0];
  if (first && "incident_id" in first) {
    throw new PayloadError(
      PLATFORM,
      "data[0].incident_id",
      "an incident updates list: use cachetUpdates",
    );
  }
  if (first && "human_status" in first) {
    const doc = validate(PLATFORM, json, z.object({ data: z.array(incident) }));
    return {
      indicator: "UNKNOWN",
      components: [],
      incidents: doc.data.map((i) => toIncident(i, ctx)),
    };
  }
  const doc = validate(PLATFORM, json, z.object({ data: z.array(component) }));
  const components = doc.data.filter((c) => c.enabled !== false).map((c) => toComponent(c, ctx));
  return { indicator: worst(components.map((c) => c.status)), components, incidents: [] };
}

/** `/api/v1/incidents/<id>/updates` → each incident id's timeline, oldest first. */
export function cachetUpdates(body: string, ctx: ParseContext): Map<string, IncidentUpdate[]> {
  const { json } = decodeList(body);
  const doc = validate(PLATFORM, json, z.object({ data: z.array(update) }));
  const byIncident = new Map<string, (IncidentUpdate & { id: string })[]>();
  // Published newest first: reversed, so updates with equal times keep their real order.
  for (const u of doc.data.toReversed()) {
    const entry = {
      id: u.id,
      at: u.created_at,
      status: lookup(INCIDENT_STATUS, u.status, "update.status", ctx, "INVESTIGATING"),
      body: u.message ?? "",
    };
    byIncident.set(u.incident_id, [...(byIncident.get(u.incident_id) ?? []), entry]);
  }
  return new Map([...byIncident].map(([k, v]) => [k, timeline(v)]));
}

/** The Cachet adapter. */
export const cachet: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => underPage(vendor.statusPageUrl, "api/v1/components?per_page=100"),
  parse,
};
