/**
 * The Statuspage v2 JSON shape (summary.json, components.json, incidents.json,
 * scheduled-maintenances.json), shared by Atlassian Statuspage and incident.io's compatible API.
 * Each platform passes its own mapping tables, so a difference between them is a one-table diff.
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
import { isOpen, worst } from "../../domain/mod.ts";
import { type ParseContext, PayloadError } from "./adapter.ts";
import {
  levelFromOpenIncidents,
  lookup,
  timeline,
  underPage,
  validate,
  validateEach,
} from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const update = z.object({
  id: z.string(),
  status: z.string(),
  body: z.string().nullish(),
  created_at: jsonTime,
  display_at: jsonTime.nullish(),
  /** `null`, `[{code,name,old_status,new_status}]`, or a placeholder `[{name}]` on old pages. */
  affected_components: z.array(z.object({ code: z.string().nullish() })).nullish(),
});

const incident = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  impact: z.string(),
  created_at: jsonTime,
  updated_at: jsonTime.nullish(),
  started_at: jsonTime.nullish(),
  resolved_at: jsonTime.nullish(),
  scheduled_for: jsonTime.nullish(),
  scheduled_until: jsonTime.nullish(),
  shortlink: z.string().nullish(),
  components: z.array(z.object({ id: z.string() })).nullish(),
  /** Read one by one: a malformed update is dropped with a note, not the incident. */
  incident_updates: z.array(z.unknown()).nullish(),
});

const component = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  group: z.boolean().nullish(),
  group_id: z.string().nullish(),
});

/**
 * The parts of a Statuspage v2 document statusd reads; every top-level key is optional. The
 * lists' items are read one by one (`validateEach`): a malformed one is dropped with a note.
 */
export const statuspageDocument = z.object({
  status: z.object({ indicator: z.string() }).nullish(),
  components: z.array(z.unknown()).nullish(),
  /** Absent or null on incident.io when empty (FORMATS §0.2). */
  incidents: z.array(z.unknown()).nullish(),
  scheduled_maintenances: z.array(z.unknown()).nullish(),
});

/** A decoded Statuspage v2 document. */
export type StatuspageDocument = z.output<typeof statuspageDocument>;
type RawIncident = z.output<typeof incident>;

/** One platform's mapping tables for this shape (one Record per upstream enum). */
export interface StatuspageTables {
  readonly indicator: Readonly<Record<string, StatusLevel>>;
  readonly component: Readonly<Record<string, StatusLevel>>;
  readonly incidentStatus: Readonly<Record<string, IncidentStatus>>;
  readonly maintenanceStatus: Readonly<Record<string, IncidentStatus>>;
  readonly impact: Readonly<Record<string, Impact>>;
}

/** Leaf components with their group's name; `group: true` rows are groups, not components. */
function toComponents(
  rows: StatuspageDocument["components"],
  tables: StatuspageTables,
  ctx: ParseContext,
): ComponentSnapshot[] {
  const list = validateEach(rows, component, ["components"], ctx);
  const groupNames = new Map(list.filter((c) => c.group === true).map((c) => [c.id, c.name]));
  const missing = new Set<string>();
  const leaves = list.filter((c) => c.group !== true).map((c) => {
    const group = c.group_id ? groupNames.get(c.group_id) ?? null : null;
    if (c.group_id && group === null) missing.add(c.group_id);
    return {
      externalId: c.id,
      name: c.name,
      group,
      status: lookup(tables.component, c.status, "component.status", ctx, "UNKNOWN"),
    };
  });
  for (const id of missing) {
    ctx.dropped?.(
      "components[].group_id",
      `group ${id} is named by components but not listed: they are shown without a group`,
    );
  }
  return leaves;
}

function incidentUrl(raw: RawIncident, ctx: ParseContext): string {
  if (raw.shortlink) return raw.shortlink;
  return underPage(ctx.pageUrl, `incidents/${encodeURIComponent(raw.id)}`).href;
}

function toIncident(
  raw: RawIncident,
  path: readonly PropertyKey[],
  maintenance: boolean,
  tables: StatuspageTables,
  ctx: ParseContext,
): IncidentSnapshot {
  const rawUpdates = validateEach(raw.incident_updates, update, [...path, "incident_updates"], ctx);
  const statusTable = maintenance ? tables.maintenanceStatus : tables.incidentStatus;
  const kind = maintenance ? "maintenance" : "incident";
  const status = lookup(
    statusTable,
    raw.status,
    `${kind}.status`,
    ctx,
    maintenance ? "SCHEDULED" : "INVESTIGATING",
  );
  // Published newest first: reversed, so updates with equal times keep their real order.
  const updates = timeline(
    rawUpdates.toReversed().map((u) => ({
      id: u.id,
      at: u.display_at ?? u.created_at,
      status: lookup(statusTable, u.status, `${kind}_update.status`, ctx, status),
      body: u.body ?? "",
    })),
  );
  const affected = rawUpdates.flatMap((u) =>
    (u.affected_components ?? []).flatMap((a) => (a.code ? [a.code] : []))
  );
  const componentIds = raw.components?.length ? raw.components.map((c) => c.id) : affected;
  const updatedAt = Math.max(
    raw.updated_at ?? raw.created_at,
    ...updates.map((u) => u.at),
  );
  return {
    externalId: raw.id,
    title: raw.name,
    status,
    impact: lookup(
      tables.impact,
      raw.impact,
      `${kind}.impact`,
      ctx,
      maintenance ? "MAINTENANCE" : "NONE",
    ),
    startedAt: (maintenance ? raw.scheduled_for : null) ?? raw.started_at ?? raw.created_at,
    updatedAt,
    resolvedAt: isOpen(status) ? null : raw.resolved_at ?? updatedAt,
    url: incidentUrl(raw, ctx),
    componentIds: [...new Set(componentIds)],
    updates,
    ...(maintenance
      ? { scheduledStartAt: raw.scheduled_for ?? null, scheduledEndAt: raw.scheduled_until ?? null }
      : {}),
  };
}

/**
 * Reads any decoded Statuspage v2 document into a snapshot. In a summary (it has `status`), completed
 * maintenances are dropped: only scheduled and in-progress ones matter there. Without a page
 * indicator the level comes from the components, or, with neither, from the open incidents.
 */
export function readStatuspageShape(
  platform: string,
  json: unknown,
  tables: StatuspageTables,
  ctx: ParseContext,
): Snapshot {
  const doc = validate(platform, json, statuspageDocument);
  if (!doc.status && !doc.components && !doc.incidents && !doc.scheduled_maintenances) {
    throw new PayloadError(
      platform,
      "$",
      "none of status, components, incidents, scheduled_maintenances is present",
    );
  }
  const components = toComponents(doc.components, tables, ctx);
  const incidents = validateEach(
    doc.incidents,
    incident,
    ["incidents"],
    ctx,
    (i, path) => toIncident(i, path, false, tables, ctx),
  );
  const maintenances = validateEach(
    doc.scheduled_maintenances,
    incident,
    ["scheduled_maintenances"],
    ctx,
    (i, path) => toIncident(i, path, true, tables, ctx),
  ).filter((m) => !doc.status || isOpen(m.status));
  const all = [...incidents, ...maintenances];
  const indicator: StatusLevel = doc.status
    ? lookup(tables.indicator, doc.status.indicator, "status.indicator", ctx, "UNKNOWN")
    : components.length
    ? worst(components.map((c) => c.status))
    : levelFromOpenIncidents(all);
  return { indicator, components, incidents: all };
}

/** Page-level `status.indicator`. */
const INDICATOR: Record<string, StatusLevel> = {
  none: "OPERATIONAL",
  minor: "DEGRADED_PERFORMANCE",
  major: "PARTIAL_OUTAGE",
  critical: "MAJOR_OUTAGE",
  maintenance: "UNDER_MAINTENANCE",
};

/** `components[].status`. */
const COMPONENT_STATUS: Record<string, StatusLevel> = {
  operational: "OPERATIONAL",
  degraded_performance: "DEGRADED_PERFORMANCE",
  partial_outage: "PARTIAL_OUTAGE",
  major_outage: "MAJOR_OUTAGE",
  under_maintenance: "UNDER_MAINTENANCE",
};

/** `incidents[].status` and their updates' `status`. */
const INCIDENT_STATUS: Record<string, IncidentStatus> = {
  investigating: "INVESTIGATING",
  identified: "IDENTIFIED",
  monitoring: "MONITORING",
  resolved: "RESOLVED",
  postmortem: "RESOLVED",
};

/** `scheduled_maintenances[].status` and their updates' `status`. */
const MAINTENANCE_STATUS: Record<string, IncidentStatus> = {
  scheduled: "SCHEDULED",
  in_progress: "IN_PROGRESS",
  verifying: "IN_PROGRESS",
  completed: "COMPLETED",
};

/** `impact` of incidents and maintenances. */
const IMPACT: Record<string, Impact> = {
  none: "NONE",
  minor: "MINOR",
  major: "MAJOR",
  critical: "CRITICAL",
  maintenance: "MAINTENANCE",
};

/**
 * Statuspage v2's words, which incident.io's compatible API speaks too: a platform of the family
 * with other words passes its own tables.
 */
export const STATUSPAGE_TABLES: StatuspageTables = {
  indicator: INDICATOR,
  component: COMPONENT_STATUS,
  incidentStatus: INCIDENT_STATUS,
  maintenanceStatus: MAINTENANCE_STATUS,
  impact: IMPACT,
};
