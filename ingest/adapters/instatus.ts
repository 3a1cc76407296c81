/**
 * Instatus (FORMATS.md §3). The poller reads `<page>/summary.json` (page status, active
 * incidents and maintenances; no components); `parse` also reads `/v2|v3/components.json`,
 * told apart by its top-level `components`.
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  EpochMs,
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
  IMPACT_LEVEL,
  lookup,
  underPage,
  validate,
  validateEach,
} from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const PLATFORM = "instatus";

/** `page.status`. HASISSUES is a floor: open incidents' impact may say worse. */
export const PAGE_STATUS: Record<string, StatusLevel> = {
  UP: "OPERATIONAL",
  HASISSUES: "DEGRADED_PERFORMANCE",
  UNDERMAINTENANCE: "UNDER_MAINTENANCE",
};

/** `components[].status`. MINOROUTAGE sits between partial and major: read as partial. */
export const COMPONENT_STATUS: Record<string, StatusLevel> = {
  OPERATIONAL: "OPERATIONAL",
  UNDERMAINTENANCE: "UNDER_MAINTENANCE",
  DEGRADEDPERFORMANCE: "DEGRADED_PERFORMANCE",
  PARTIALOUTAGE: "PARTIAL_OUTAGE",
  MINOROUTAGE: "PARTIAL_OUTAGE",
  MAJOROUTAGE: "MAJOR_OUTAGE",
};

/** `activeIncidents[].impact` (the component vocabulary) as an incident impact. */
export const INCIDENT_IMPACT: Record<string, Impact> = {
  OPERATIONAL: "NONE",
  DEGRADEDPERFORMANCE: "MINOR",
  PARTIALOUTAGE: "MAJOR",
  MINOROUTAGE: "MAJOR",
  MAJOROUTAGE: "CRITICAL",
  UNDERMAINTENANCE: "MAINTENANCE",
};

/** `activeIncidents[].status`. */
export const INCIDENT_STATUS: Record<string, IncidentStatus> = {
  INVESTIGATING: "INVESTIGATING",
  IDENTIFIED: "IDENTIFIED",
  MONITORING: "MONITORING",
  RESOLVED: "RESOLVED",
};

/** `activeMaintenances[].status`. */
export const MAINTENANCE_STATUS: Record<string, IncidentStatus> = {
  NOTSTARTEDYET: "SCHEDULED",
  INPROGRESS: "IN_PROGRESS",
  COMPLETED: "COMPLETED",
};

const incident = z.object({
  id: z.string().nullish(),
  name: z.string(),
  status: z.string(),
  impact: z.string().nullish(),
  started: jsonTime,
  updatedAt: jsonTime.nullish(),
  url: z.string().nullish(),
});

const maintenance = z.object({
  id: z.string().nullish(),
  name: z.string(),
  status: z.string(),
  /** Absent on some in-progress maintenances: then it is kept, dated from what else is known. */
  start: jsonTime.nullish(),
  /** Planned length in minutes, published as a string (`"60"`). */
  duration: z.union([z.string(), z.number()]).nullish(),
  updatedAt: jsonTime.nullish(),
  url: z.string().nullish(),
});

/** The planned end: `start` plus `duration` minutes, when the duration is a positive number. */
function plannedEnd(raw: z.output<typeof maintenance>): EpochMs | null {
  const minutes = Number(raw.duration);
  return raw.start !== null && raw.start !== undefined && raw.duration !== null &&
      raw.duration !== undefined &&
      raw.duration !== "" && Number.isFinite(minutes) && minutes > 0
    ? raw.start + minutes * 60_000
    : null;
}

/**
 * `/summary.json`: absent active lists mean none (FORMATS §0.2). Their items are read one by
 * one: a malformed one is dropped with a note.
 */
const summary = z.object({
  page: z.object({ name: z.string().nullish(), status: z.string() }),
  activeIncidents: z.array(z.unknown()).nullish(),
  activeMaintenances: z.array(z.unknown()).nullish(),
});

const component = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  group: z.object({ id: z.string(), name: z.string() }).nullish(),
});

/** `/v2/components.json` and `/v3/components.json`; a malformed component is dropped. */
const componentsDoc = z.object({ components: z.array(z.unknown()) });

/** The vendor's id, else the last segment of the incident URL, else the name. */
function idOf(raw: { id?: string | null; url?: string | null; name: string }): string {
  if (raw.id) return raw.id;
  const last = raw.url?.split("/").filter(Boolean).pop();
  return last && raw.url!.includes("/") ? last : raw.name;
}

function toIncident(raw: z.output<typeof incident>, ctx: ParseContext): IncidentSnapshot {
  const status = lookup(INCIDENT_STATUS, raw.status, "incident.status", ctx, "INVESTIGATING");
  const updatedAt = raw.updatedAt ?? raw.started;
  return {
    externalId: idOf(raw),
    title: raw.name,
    status,
    impact: raw.impact
      ? lookup(INCIDENT_IMPACT, raw.impact, "incident.impact", ctx, "NONE")
      : "NONE",
    startedAt: raw.started,
    updatedAt,
    resolvedAt: status === "RESOLVED" ? updatedAt : null,
    url: raw.url ?? null,
    componentIds: [],
    updates: [],
  };
}

function toMaintenance(
  raw: z.output<typeof maintenance>,
  index: number,
  ctx: ParseContext,
): IncidentSnapshot {
  const status = lookup(MAINTENANCE_STATUS, raw.status, "maintenance.status", ctx, "SCHEDULED");
  // A maintenance under way that states no start is still under way: it is kept, from its last
  // update (or this reading), and the reading says its start was not stated.
  const start = raw.start ?? raw.updatedAt ?? ctx.fetchedAt;
  if (raw.start === null || raw.start === undefined) {
    ctx.dropped?.(
      `activeMaintenances[${index}].start`,
      "missing: the maintenance is kept, dated from its last update (or this reading)",
    );
  }
  const updatedAt = raw.updatedAt ?? start;
  return {
    externalId: idOf(raw),
    title: raw.name,
    status,
    impact: "MAINTENANCE",
    startedAt: start,
    updatedAt,
    resolvedAt: status === "COMPLETED" ? updatedAt : null,
    url: raw.url ?? null,
    componentIds: [],
    updates: [],
    scheduledStartAt: raw.start ?? null,
    scheduledEndAt: plannedEnd(raw),
  };
}

function parseSummary(doc: z.output<typeof summary>, ctx: ParseContext): Snapshot {
  const incidents = validateEach(doc.activeIncidents, incident, ["activeIncidents"], ctx)
    .map((i) => toIncident(i, ctx));
  const maintenances = validateEach(doc.activeMaintenances, maintenance, [
    "activeMaintenances",
  ], ctx).map((m, i) => toMaintenance(m, i, ctx));
  const page = lookup(PAGE_STATUS, doc.page.status, "page.status", ctx, "UNKNOWN");
  // Open incidents refine HASISSUES only; with UP they do not raise the level (FORMATS §0.1).
  const indicator = doc.page.status === "HASISSUES"
    ? worst([
      page,
      ...incidents.filter((i) => i.status !== "RESOLVED").map((i) => IMPACT_LEVEL[i.impact]),
    ])
    : page;
  return { indicator, components: [], incidents: [...incidents, ...maintenances] };
}

/** Group parents (ids some other component names as its group) are not leaf components. */
function parseComponents(doc: z.output<typeof componentsDoc>, ctx: ParseContext): Snapshot {
  const rows = validateEach(doc.components, component, ["components"], ctx);
  const parents = new Set(rows.flatMap((c) => (c.group ? [c.group.id] : [])));
  const components: ComponentSnapshot[] = rows
    .filter((c) => !parents.has(c.id))
    .map((c) => ({
      externalId: c.id,
      name: c.name,
      group: c.group?.name ?? null,
      status: lookup(COMPONENT_STATUS, c.status, "component.status", ctx, "UNKNOWN"),
    }));
  return { indicator: worst(components.map((c) => c.status)), components, incidents: [] };
}

/** The Instatus adapter. */
export const instatus: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => underPage(vendor.statusPageUrl, "summary.json"),
  parse(body: string, ctx: ParseContext): Snapshot {
    const json = decodeJson(PLATFORM, body);
    if (json !== null && typeof json === "object" && "components" in json && !("page" in json)) {
      return parseComponents(validate(PLATFORM, json, componentsDoc), ctx);
    }
    return parseSummary(validate(PLATFORM, json, summary), ctx);
  },
};
