/**
 * incident.io status pages (FORMATS.md §2). The poller reads the Statuspage-compatible
 * `/api/v2/summary.json`; `parse` also reads the widget API (`/api/v1/summary`), told apart
 * by its shape (`ongoing_incidents`).
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  Snapshot,
  StatusLevel,
} from "../../domain/mod.ts";
import { worst } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import {
  decodeJson,
  levelFromOpenIncidents,
  lookup,
  underPage,
  validate,
  validateEach,
} from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";
import { digestText } from "./_pulse.ts";
import { readStatuspageShape, STATUSPAGE_TABLES } from "./_statuspage_shape.ts";

const PLATFORM = "incidentio";

/** The compatible API speaks Statuspage's words. */
export {
  COMPONENT_STATUS,
  IMPACT,
  INCIDENT_STATUS,
  INDICATOR,
  MAINTENANCE_STATUS,
} from "./statuspage.ts";

/** Widget API `affected_components[].current_status`. */
export const WIDGET_COMPONENT_STATUS: Record<string, StatusLevel> = {
  operational: "OPERATIONAL",
  degraded_performance: "DEGRADED_PERFORMANCE",
  partial_outage: "PARTIAL_OUTAGE",
  full_outage: "MAJOR_OUTAGE",
};

/** Widget API `current_worst_impact` of an ongoing incident. */
export const WIDGET_IMPACT: Record<string, Impact> = {
  degraded_performance: "MINOR",
  partial_outage: "MAJOR",
  full_outage: "CRITICAL",
};

/** Widget API `status` of incidents and maintenances. */
export const WIDGET_STATUS: Record<string, IncidentStatus> = {
  investigating: "INVESTIGATING",
  identified: "IDENTIFIED",
  monitoring: "MONITORING",
  maintenance_in_progress: "IN_PROGRESS",
  maintenance_scheduled: "SCHEDULED",
};

const affected = z.object({
  id: z.string(),
  name: z.string(),
  group_name: z.string().nullish(),
  current_status: z.string(),
});

const item = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  url: z.string().nullish(),
  last_update_at: jsonTime,
  last_update_message: z.string().nullish(),
  current_worst_impact: z.string().nullish(),
  /** Read one by one: a malformed one is dropped with a note. */
  affected_components: z.array(z.unknown()).nullish(),
  /** In-progress maintenance window. */
  started_at: jsonTime.nullish(),
  scheduled_end_at: jsonTime.nullish(),
  /** Scheduled maintenance window. */
  starts_at: jsonTime.nullish(),
  ends_at: jsonTime.nullish(),
});
type WidgetItem = z.output<typeof item>;

/**
 * The widget API answer (`<page>/api/v1/summary`); the lists are empty, not absent, when quiet.
 * Their items are read one by one: a malformed one is dropped with a note.
 */
const widget = z.object({
  page_title: z.string().nullish(),
  ongoing_incidents: z.array(z.unknown()),
  in_progress_maintenances: z.array(z.unknown()).nullish(),
  scheduled_maintenances: z.array(z.unknown()).nullish(),
});

/** A widget item with its affected components read (malformed ones dropped with a note). */
type ReadItem = Omit<WidgetItem, "affected_components"> & {
  readonly components: readonly z.output<typeof affected>[];
};

function readItems(
  list: readonly unknown[] | null | undefined,
  at: string,
  ctx: ParseContext,
): ReadItem[] {
  return validateEach(list, item, [at], ctx, (raw, path) => ({
    ...raw,
    components: validateEach(raw.affected_components, affected, [
      ...path,
      "affected_components",
    ], ctx),
  }));
}

function widgetIncident(
  raw: ReadItem,
  kind: "incident" | "maintenance",
  fallback: IncidentStatus,
  ctx: ParseContext,
): IncidentSnapshot {
  const status = lookup(WIDGET_STATUS, raw.status, `${kind}.status`, ctx, fallback);
  const impact: Impact = kind === "maintenance"
    ? "MAINTENANCE"
    : raw.current_worst_impact
    ? lookup(WIDGET_IMPACT, raw.current_worst_impact, "incident.current_worst_impact", ctx, "NONE")
    : "NONE";
  return {
    externalId: raw.id,
    title: raw.name,
    status,
    impact,
    // Incidents carry no start time in this API: the latest update is the earliest we know.
    startedAt: raw.started_at ?? raw.starts_at ?? raw.last_update_at,
    updatedAt: raw.last_update_at,
    resolvedAt: null,
    url: raw.url ?? underPage(ctx.pageUrl, `incidents/${encodeURIComponent(raw.id)}`).href,
    componentIds: raw.components.map((c) => c.id),
    updates: raw.last_update_message
      ? [{ at: raw.last_update_at, status, body: raw.last_update_message }]
      : [],
    ...(kind === "maintenance"
      ? {
        scheduledStartAt: raw.starts_at ?? raw.started_at ?? null,
        scheduledEndAt: raw.ends_at ?? raw.scheduled_end_at ?? null,
      }
      : {}),
  };
}

/**
 * Widget API → snapshot. It lists no component unless affected, so the components are the
 * affected ones (each at its worst), and the indicator, with no page-level value published,
 * is the worst of those components, the ongoing incidents' impact and in-progress maintenance.
 */
function parseWidget(doc: z.output<typeof widget>, ctx: ParseContext): Snapshot {
  const ongoing = readItems(doc.ongoing_incidents, "ongoing_incidents", ctx);
  const incidents = [
    ...ongoing.map((i) => widgetIncident(i, "incident", "INVESTIGATING", ctx)),
    ...readItems(doc.in_progress_maintenances, "in_progress_maintenances", ctx).map((m) =>
      widgetIncident(m, "maintenance", "IN_PROGRESS", ctx)
    ),
    ...readItems(doc.scheduled_maintenances, "scheduled_maintenances", ctx).map((m) =>
      widgetIncident(m, "maintenance", "SCHEDULED", ctx)
    ),
  ];
  const byId = new Map<string, ComponentSnapshot>();
  for (const raw of ongoing.flatMap((i) => i.components)) {
    const status = lookup(
      WIDGET_COMPONENT_STATUS,
      raw.current_status,
      "component.current_status",
      ctx,
      "UNKNOWN",
    );
    const seen = byId.get(raw.id);
    byId.set(raw.id, {
      externalId: raw.id,
      name: raw.name,
      group: raw.group_name ?? null,
      status: seen ? worst([seen.status, status]) : status,
    });
  }
  const components = [...byId.values()];
  const indicator = worst([levelFromOpenIncidents(incidents), ...components.map((c) => c.status)]);
  return { indicator, components, incidents };
}

/** Keys only the widget API has. */
function isWidget(json: unknown): boolean {
  return json !== null && typeof json === "object" && !Array.isArray(json) &&
    ("ongoing_incidents" in json || "page_title" in json);
}

/**
 * The incident.io adapter. Its pulse is the widget API (`<page>/api/v1/summary`, about 200
 * bytes on a quiet page): the ongoing incidents (with their status, last update and affected
 * components), in-progress and scheduled maintenances; the fingerprint is a digest of all of
 * it. (The compatible API sends no ETag or Last-Modified, so a conditional request is no
 * signal there.)
 */
export const incidentio: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => underPage(vendor.statusPageUrl, "api/v2/summary.json"),
  pulse: {
    endpoint: (vendor) => underPage(vendor.statusPageUrl, "api/v1/summary"),
    fingerprint(body) {
      const json = decodeJson(PLATFORM, body);
      validate(PLATFORM, json, widget);
      return digestText(JSON.stringify(json));
    },
  },
  parse(body: string, ctx: ParseContext): Snapshot {
    const json = decodeJson(PLATFORM, body);
    if (isWidget(json)) return parseWidget(validate(PLATFORM, json, widget), ctx);
    return readStatuspageShape(PLATFORM, json, STATUSPAGE_TABLES, ctx);
  },
};
