/**
 * Slack status API v2 `current` (FORMATS §10): `ok` | `active` plus the active incidents, each
 * naming the Slack services it touches (emitted as components so incidents can point at them).
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  IncidentUpdate,
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

const PLATFORM = "slack";

/** Top-level `status` → level, used when no incident is listed. */
export const PAGE_STATUS: Readonly<Record<string, StatusLevel>> = {
  ok: "OPERATIONAL",
  active: "DEGRADED_PERFORMANCE",
};

/** Incident `type` → impact (`incident` as a partial outage is FORMATS' [guess]). */
export const TYPE_IMPACT: Readonly<Record<string, Impact>> = {
  notice: "NONE",
  incident: "MAJOR",
  outage: "CRITICAL",
};

/** Incident `status` → status. */
export const INCIDENT_STATUS: Readonly<Record<string, IncidentStatus>> = {
  active: "INVESTIGATING",
  resolved: "RESOLVED",
  scheduled: "SCHEDULED",
  completed: "COMPLETED",
  cancelled: "COMPLETED",
};

const incident = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  url: z.string().nullish(),
  date_created: iso,
  date_updated: iso.optional(),
  services: z.array(z.string()).default([]),
  /** Read one by one: a malformed note is dropped with a note, not the incident. */
  notes: z.array(z.unknown()).default([]),
});

const note = z.looseObject({ date_created: iso, body: z.string() });

/** The current status; a malformed active incident is dropped with a note. */
const payload = z.looseObject({
  status: z.string(),
  active_incidents: z.array(z.unknown()).nullish(),
});

function toIncident(
  i: z.infer<typeof incident>,
  path: readonly PropertyKey[],
  ctx: ParseContext,
): IncidentSnapshot {
  const status = lookup(
    INCIDENT_STATUS,
    i.status,
    "incident status",
    "INVESTIGATING",
    ctx.unknownValue,
  );
  const maintenance = status === "SCHEDULED" || status === "COMPLETED";
  const earlier: IncidentStatus = maintenance ? "SCHEDULED" : "INVESTIGATING";
  const notes = oldestFirst(
    validateEach(i.notes, note, [...path, "notes"], ctx).map((n) => ({
      at: n.date_created,
      status: earlier,
      body: n.body,
    })),
  );
  const updates: IncidentUpdate[] = notes.map((n, k) =>
    k === notes.length - 1 ? { ...n, status } : n
  );
  const updatedAt = Math.max(i.date_updated ?? i.date_created, updates.at(-1)?.at ?? 0);
  const closed = status === "RESOLVED" || status === "COMPLETED";
  return {
    externalId: i.id,
    title: i.title,
    status,
    impact: maintenance
      ? "MAINTENANCE"
      : lookup(TYPE_IMPACT, i.type, "type", "MINOR", ctx.unknownValue),
    startedAt: i.date_created,
    updatedAt,
    resolvedAt: closed ? updatedAt : null,
    url: i.url ?? null,
    componentIds: i.services,
    updates,
  };
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const doc = checked(PLATFORM, payload, decodeJson(PLATFORM, body));
  const incidents = validateEach(
    doc.active_incidents,
    incident,
    ["active_incidents"],
    ctx,
    (i, path) => toIncident(i, path, ctx),
  );
  const page = lookup(PAGE_STATUS, doc.status, "status", "UNKNOWN", ctx.unknownValue);
  // the listed incidents say how bad; `active` with none listed still reads degraded
  const indicator = incidents.length > 0 ? indicatorFromIncidents(incidents) : page;
  const services = [...new Set(incidents.flatMap((i) => i.componentIds))];
  const components = services.map((name): ComponentSnapshot => ({
    externalId: name,
    name,
    group: null,
    status: worst([
      "OPERATIONAL",
      ...incidents.filter((i) => i.componentIds.includes(name)).map(incidentLevel),
    ]),
  }));
  return { indicator, components, incidents };
}

/** Slack adapter: `api/v2.0.0/current` on the status host. */
export const slackAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: () => new URL("https://slack-status.com/api/v2.0.0/current"),
  parse,
};
