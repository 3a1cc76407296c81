/**
 * Heroku status API (FORMATS §12): v4 `current-status` (systems Apps/Data/Tools as components,
 * incidents, scheduled maintenances); the legacy v3 current-status and v3 issue are read too.
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  IncidentSnapshot,
  IncidentStatus,
  Snapshot,
  StatusLevel,
} from "../../domain/mod.ts";
import { worst } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import { checked, closedSince, decodeJson, lookup, oldestFirst } from "./_feed_common.ts";
import { isoInstant as iso } from "./_feed_time.ts";

const PLATFORM = "heroku";

/** System colour → level. */
export const COLOUR_LEVEL: Readonly<Record<string, StatusLevel>> = {
  green: "OPERATIONAL",
  yellow: "DEGRADED_PERFORMANCE",
  red: "MAJOR_OUTAGE",
};

/** Update `update_type` → timeline status; null = no change (`update`). */
export const UPDATE_STATUS: Readonly<Record<string, IncidentStatus | null>> = {
  issue: "INVESTIGATING",
  update: null,
  monitoring: "MONITORING",
  resolved: "RESOLVED",
  scheduled: "SCHEDULED",
  "in progress": "IN_PROGRESS",
  in_progress: "IN_PROGRESS",
  completed: "COMPLETED",
};

const update = z.looseObject({
  contents: z.string().default(""),
  update_type: z.string(),
  created_at: iso,
});

const issue = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  title: z.string(),
  resolved: z.boolean().default(false),
  full_url: z.string().nullish(),
  created_at: iso,
  updated_at: iso.optional(),
  updates: z.array(update).default([]),
});

const v4 = z.looseObject({
  status: z.array(z.looseObject({ system: z.string(), status: z.string() })),
  incidents: z.array(issue).default([]),
  scheduled: z.array(issue).default([]),
});

const v3 = z.looseObject({
  status: z.record(z.string(), z.string()),
  issues: z.array(issue).default([]),
});

type Issue = z.infer<typeof issue>;

function toIncident(i: Issue, maintenance: boolean, ctx: ParseContext): IncidentSnapshot {
  const fallback: IncidentStatus = maintenance ? "SCHEDULED" : "INVESTIGATING";
  let current: IncidentStatus = fallback;
  const updates = oldestFirst(i.updates.map((u) => ({
    at: u.created_at,
    status: fallback,
    body: u.contents.replace(/\r\n/g, "\n").trim(),
    type: u.update_type,
  }))).map(({ type, ...u }) => {
    current = lookup(UPDATE_STATUS, type, "update_type", null, ctx.unknownValue) ?? current;
    return { ...u, status: current };
  });
  const lastStatus = updates.at(-1)?.status ?? fallback;
  // maintenances keep "scheduled" updates and `resolved:false` after they end (FORMATS §16):
  // never raise UNDER_MAINTENANCE from scheduled[] alone
  const status: IncidentStatus = i.resolved ? (maintenance ? "COMPLETED" : "RESOLVED") : lastStatus;
  const lastAt = Math.max(i.updated_at ?? i.created_at, updates.at(-1)?.at ?? i.created_at);
  const closed = status === "RESOLVED" || status === "COMPLETED";
  return {
    externalId: i.id,
    title: i.title,
    status,
    impact: maintenance ? "MAINTENANCE" : "MINOR",
    startedAt: updates[0]?.at ?? i.created_at,
    updatedAt: lastAt,
    resolvedAt: closed ? closedSince(updates) ?? lastAt : null,
    url: i.full_url ?? `https://status.heroku.com/incidents/${i.id}`,
    componentIds: [],
    updates,
  };
}

function system(name: string, colour: string, ctx: ParseContext): ComponentSnapshot {
  const status = lookup(COLOUR_LEVEL, colour, "system status", "UNKNOWN", ctx.unknownValue);
  return { externalId: name, name, group: null, status };
}

function snapshot(components: ComponentSnapshot[], incidents: IncidentSnapshot[]): Snapshot {
  // Heroku publishes system colours: they, not the incidents, set the level (FORMATS §0.1)
  const indicator = components.length > 0 ? worst(components.map((c) => c.status)) : "UNKNOWN";
  return { indicator, components, incidents };
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const value = decodeJson(PLATFORM, body);
  const obj = typeof value === "object" && value !== null ? value as Record<string, unknown> : {};
  if (Array.isArray(obj.status)) {
    const doc = checked(PLATFORM, v4, value);
    return snapshot(
      doc.status.map((s) => system(s.system, s.status, ctx)),
      [
        ...doc.incidents.map((i) => toIncident(i, false, ctx)),
        ...doc.scheduled.map((i) => toIncident(i, true, ctx)),
      ],
    );
  }
  if ("issues" in obj || (typeof obj.status === "object" && obj.status !== null)) {
    const doc = checked(PLATFORM, v3, value);
    return snapshot(
      Object.entries(doc.status).map(([name, colour]) => system(name, colour, ctx)),
      doc.issues.map((i) => toIncident(i, false, ctx)),
    );
  }
  // a single v3 issue (`/api/v3/issues/<id>`)
  const one = checked(PLATFORM, issue, value);
  const incident = toIncident(one, false, ctx);
  return {
    indicator: incident.status === "RESOLVED" ? "OPERATIONAL" : "DEGRADED_PERFORMANCE",
    components: [],
    incidents: [incident],
  };
}

/** Heroku adapter: `api/v4/current-status` on the status host. */
export const herokuAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: () => new URL("https://status.heroku.com/api/v4/current-status"),
  parse,
};
