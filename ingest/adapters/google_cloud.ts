/**
 * Google Cloud (and Workspace) `incidents.json` (FORMATS §7): an incident history with no
 * "all clear" flag; a product is operational while no open incident touches it.
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

const PLATFORM = "google-cloud";

/** Resolved incidents older than this (by `end`) are left out of the snapshot. */
export const RECENT_MS = 7 * 24 * 60 * 60 * 1000;

/** `status_impact` → impact; `SERVICE_DISRUPTION` is refined by {@link DISRUPTION_SEVERITY}. */
export const STATUS_IMPACT: Readonly<Record<string, Impact>> = {
  SERVICE_INFORMATION: "NONE",
  SERVICE_DISRUPTION: "MAJOR",
  SERVICE_OUTAGE: "CRITICAL",
};

/** A disruption's `severity` → impact (`low` reads as degraded, FORMATS §7 [guess]). */
export const DISRUPTION_SEVERITY: Readonly<Record<string, Impact>> = {
  low: "MINOR",
  medium: "MAJOR",
  high: "MAJOR",
};

/** Update `status` → timeline status: `AVAILABLE` means recovered. */
export const UPDATE_STATUS: Readonly<Record<string, IncidentStatus>> = {
  SERVICE_INFORMATION: "INVESTIGATING",
  SERVICE_DISRUPTION: "INVESTIGATING",
  SERVICE_OUTAGE: "INVESTIGATING",
  AVAILABLE: "RESOLVED",
};

const update = z.looseObject({
  created: iso,
  when: iso.optional(),
  text: z.string().default(""),
  status: z.string(),
});

const incident = z.looseObject({
  id: z.string(),
  begin: iso,
  created: iso.optional(),
  end: iso.nullish(),
  modified: iso.optional(),
  external_desc: z.string(),
  severity: z.string().nullish(),
  status_impact: z.string(),
  uri: z.string().nullish(),
  affected_products: z.array(z.looseObject({ id: z.string(), title: z.string() })).default([]),
  /** Read one by one: a malformed update is dropped with a note, not the incident. */
  updates: z.array(z.unknown()).default([]),
});

/** The incidents list; a malformed incident is dropped with a note. */
const payload = z.array(z.unknown());

type GcpIncident = z.infer<typeof incident> & {
  readonly read: readonly z.infer<typeof update>[];
};

function impactOf(i: GcpIncident, ctx: ParseContext): Impact {
  const impact = lookup(STATUS_IMPACT, i.status_impact, "status_impact", "MINOR", ctx.unknownValue);
  if (i.status_impact !== "SERVICE_DISRUPTION" || !i.severity) return impact;
  return lookup(DISRUPTION_SEVERITY, i.severity, "severity", impact, ctx.unknownValue);
}

function toIncident(i: GcpIncident, ctx: ParseContext): IncidentSnapshot {
  const updates = oldestFirst(i.read.map((u) => ({
    at: u.when ?? u.created,
    status: lookup(UPDATE_STATUS, u.status, "update status", "INVESTIGATING", ctx.unknownValue),
    body: u.text.trim(),
  })));
  const ended = i.end !== null && i.end !== undefined && i.end <= ctx.fetchedAt;
  const recovered = updates.at(-1)?.status === "RESOLVED";
  const status: IncidentStatus = ended ? "RESOLVED" : recovered ? "MONITORING" : "INVESTIGATING";
  const lastAt = updates.at(-1)?.at ?? i.begin;
  return {
    externalId: i.id,
    title: i.external_desc.trim(),
    status,
    // an open incident whose latest update says AVAILABLE no longer affects the level
    impact: status === "MONITORING" ? "NONE" : impactOf(i, ctx),
    startedAt: i.begin,
    updatedAt: Math.max(i.modified ?? lastAt, lastAt),
    resolvedAt: ended ? i.end! : null,
    url: i.uri ? new URL(i.uri, "https://status.cloud.google.com/").href : null,
    componentIds: i.affected_products.map((p) => p.id),
    updates,
  };
}

/** Products named by the kept incidents, each at the worst level of its open incidents. */
function products(raw: readonly GcpIncident[], incidents: readonly IncidentSnapshot[]) {
  const names = new Map<string, string>();
  for (const i of raw) for (const p of i.affected_products) names.set(p.id, p.title);
  return [...names].map(([id, name]): ComponentSnapshot => ({
    externalId: id,
    name,
    group: null,
    status: worst([
      "OPERATIONAL",
      ...incidents.filter((i) => i.componentIds.includes(id)).map(incidentLevel),
    ]),
  }));
}

function isRecent(i: GcpIncident, now: EpochMs): boolean {
  return i.end === null || i.end === undefined || i.end > now || now - i.end <= RECENT_MS;
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const list = checked(PLATFORM, payload, decodeJson(PLATFORM, body));
  const raw = validateEach(list, incident, [], ctx, (i, path): GcpIncident => ({
    ...i,
    read: validateEach(i.updates, update, [...path, "updates"], ctx),
  })).filter((i) => isRecent(i, ctx.fetchedAt));
  const incidents = raw.map((i) => toIncident(i, ctx));
  return {
    indicator: indicatorFromIncidents(incidents),
    components: products(raw, incidents),
    incidents,
    keepsHistory: true,
  };
}

/** Google Cloud adapter: `incidents.json` on the status host (Workspace uses the same schema). */
export const googleCloudAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => {
    const page = new URL(vendor.statusPageUrl);
    if (page.hostname === "www.google.com" && page.pathname.startsWith("/appsstatus")) {
      return new URL("https://www.google.com/appsstatus/dashboard/incidents.json");
    }
    return new URL("https://status.cloud.google.com/incidents.json");
  },
  parse,
};
