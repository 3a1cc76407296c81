/**
 * Salesforce Trust API v1 (FORMATS §11): one instance's status (`/instances/<key>/status`), or,
 * for a vendor without an instance, the active incidents list (`/incidents/active`).
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
  checked,
  decodeJson,
  incidentLevel,
  indicatorFromIncidents,
  lookup,
  oldestFirst,
} from "./_feed_common.ts";
import { isoInstant as iso } from "./_feed_time.ts";
import { validateEach } from "./_json_payload.ts";

const PLATFORM = "salesforce";
const API = "https://api.status.salesforce.com/v1";

/** Instance `status` → level (`_NONCORE` majors read as partial, FORMATS §11 [guess]). */
export const INSTANCE_LEVEL: Readonly<Record<string, StatusLevel>> = {
  OK: "OPERATIONAL",
  INFORMATIONAL_CORE: "OPERATIONAL",
  INFORMATIONAL_NONCORE: "OPERATIONAL",
  MINOR_INCIDENT_CORE: "DEGRADED_PERFORMANCE",
  MINOR_INCIDENT_NONCORE: "DEGRADED_PERFORMANCE",
  MAJOR_INCIDENT_CORE: "MAJOR_OUTAGE",
  MAJOR_INCIDENT_NONCORE: "PARTIAL_OUTAGE",
  MAINTENANCE_CORE: "UNDER_MAINTENANCE",
  MAINTENANCE_NONCORE: "UNDER_MAINTENANCE",
};

/** Incident impact `severity` → impact. */
export const SEVERITY_IMPACT: Readonly<Record<string, Impact>> = {
  minor: "MINOR",
  major: "CRITICAL",
};

/** Maintenance `message.eventStatus` → status; null = decided by the planned window. */
export const MAINTENANCE_STATUS: Readonly<Record<string, IncidentStatus | null>> = {
  confirmed: null,
  resolved: "COMPLETED",
  completed: "COMPLETED",
  canceled: "COMPLETED",
  cancelled: "COMPLETED",
};

const event = z.looseObject({ message: z.string().default(""), createdAt: iso });

const incident = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  affectsAll: z.boolean().default(false),
  createdAt: iso,
  updatedAt: iso.optional(),
  IncidentImpacts: z.array(z.looseObject({
    startTime: iso,
    endTime: iso.nullable(),
    type: z.string().default(""),
    severity: z.string(),
  })).default([]),
  /** Read one by one: a malformed event is dropped with a note, not the incident. */
  IncidentEvents: z.array(z.unknown()).default([]),
  serviceKeys: z.array(z.string()).default([]),
});

const maintenance = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  name: z.string(),
  message: z.looseObject({ eventStatus: z.string().default("confirmed") }).optional(),
  plannedStartTime: iso,
  plannedEndTime: iso,
  createdAt: iso.optional(),
  updatedAt: iso.optional(),
  MaintenanceEvents: z.array(z.unknown()).default([]),
  serviceKeys: z.array(z.string()).default([]),
});

const instance = z.looseObject({
  key: z.string(),
  status: z.string(),
  Services: z.array(z.looseObject({ key: z.string() })).default([]),
  /** Read one by one: a malformed incident or maintenance is dropped with a note. */
  Incidents: z.array(z.unknown()).default([]),
  Maintenances: z.array(z.unknown()).default([]),
});

type ServiceKeys = readonly string[];

function toIncident(
  i: z.infer<typeof incident>,
  path: readonly PropertyKey[],
  allServices: ServiceKeys,
  ctx: ParseContext,
): IncidentSnapshot {
  const impacts = i.IncidentImpacts;
  const open = impacts.length === 0 ||
    impacts.some((x) => x.endTime === null || x.endTime > ctx.fetchedAt);
  const status: IncidentStatus = open ? "INVESTIGATING" : "RESOLVED";
  const severities = impacts.map((x) =>
    lookup(SEVERITY_IMPACT, x.severity, "severity", "MINOR", ctx.unknownValue)
  );
  const impact: Impact = severities.includes("CRITICAL") ? "CRITICAL" : "MINOR";
  const events = validateEach(i.IncidentEvents, event, [...path, "IncidentEvents"], ctx);
  const updates = oldestFirst(events.map((e) => ({
    at: e.createdAt,
    status: "INVESTIGATING" as IncidentStatus,
    body: e.message.trim(),
  })));
  if (!open && updates.length > 0) updates[updates.length - 1] = { ...updates.at(-1)!, status };
  const ends = impacts.map((x) => x.endTime).filter((t): t is EpochMs => t !== null);
  const lastAt = Math.max(i.updatedAt ?? i.createdAt, updates.at(-1)?.at ?? 0);
  return {
    externalId: `incident-${i.id}`,
    title: impacts[0]?.type ? `Incident ${i.id}: ${impacts[0].type}` : `Incident ${i.id}`,
    status,
    impact,
    startedAt: Math.min(i.createdAt, ...impacts.map((x) => x.startTime)),
    updatedAt: lastAt,
    resolvedAt: open ? null : Math.max(...ends),
    url: `https://status.salesforce.com/incidents/${i.id}`,
    componentIds: i.affectsAll ? allServices : i.serviceKeys,
    updates,
  };
}

function toMaintenance(
  m: z.infer<typeof maintenance>,
  path: readonly PropertyKey[],
  ctx: ParseContext,
): IncidentSnapshot {
  const raw = m.message?.eventStatus ?? "confirmed";
  const stated = lookup(MAINTENANCE_STATUS, raw, "eventStatus", null, ctx.unknownValue);
  const status: IncidentStatus = stated ??
    (ctx.fetchedAt < m.plannedStartTime
      ? "SCHEDULED"
      : ctx.fetchedAt < m.plannedEndTime
      ? "IN_PROGRESS"
      : "COMPLETED");
  const events = validateEach(m.MaintenanceEvents, event, [...path, "MaintenanceEvents"], ctx);
  const updates = oldestFirst(events.map((e) => ({
    at: e.createdAt,
    status: "SCHEDULED" as IncidentStatus,
    body: e.message.trim(),
  })));
  const closed = status === "COMPLETED";
  return {
    externalId: `maintenance-${m.id}`,
    title: m.name,
    status,
    impact: "MAINTENANCE",
    startedAt: m.plannedStartTime,
    updatedAt: Math.max(m.updatedAt ?? m.createdAt ?? 0, updates.at(-1)?.at ?? 0) ||
      m.plannedStartTime,
    resolvedAt: closed ? m.plannedEndTime : null,
    url: `https://status.salesforce.com/maintenances/${m.id}`,
    componentIds: m.serviceKeys,
    updates,
  };
}

function parseInstance(value: unknown, ctx: ParseContext): Snapshot {
  const doc = checked(PLATFORM, instance, value);
  const keys = doc.Services.map((s) => s.key);
  const incidents = [
    ...validateEach(
      doc.Incidents,
      incident,
      ["Incidents"],
      ctx,
      (i, path) => toIncident(i, path, keys, ctx),
    ),
    ...validateEach(
      doc.Maintenances,
      maintenance,
      ["Maintenances"],
      ctx,
      (m, path) => toMaintenance(m, path, ctx),
    ),
  ];
  const components = keys.map((key): ComponentSnapshot => ({
    externalId: key,
    name: key,
    group: null,
    status: worst([
      "OPERATIONAL",
      ...incidents.filter((i) => i.componentIds.includes(key)).map(incidentLevel),
    ]),
  }));
  const indicator = lookup(
    INSTANCE_LEVEL,
    doc.status,
    "instance status",
    "UNKNOWN",
    ctx.unknownValue,
  );
  return { indicator, components, incidents };
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const value = decodeJson(PLATFORM, body);
  if (!Array.isArray(value)) return parseInstance(value, ctx);
  const incidents = validateEach(
    value,
    incident,
    [],
    ctx,
    (i, path) => toIncident(i, path, [], ctx),
  );
  return { indicator: indicatorFromIncidents(incidents), components: [], incidents };
}

/** Salesforce Trust adapter: an instance's status when the page URL names one, else active incidents. */
export const salesforceAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => {
    const key = /\/instances?\/([A-Za-z0-9]+)/.exec(new URL(vendor.statusPageUrl).pathname)?.[1];
    return key
      ? new URL(`${API}/instances/${key.toUpperCase()}/status?childProducts=false`)
      : new URL(`${API}/incidents/active`);
  },
  parse,
};
