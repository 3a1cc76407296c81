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
import { validateEach } from "./_json_payload.ts";

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
  /** Read one by one: a malformed update is dropped with a note, not the issue. */
  updates: z.array(z.unknown()).default([]),
});

const system_ = z.looseObject({ system: z.string(), status: z.string() });

/** v4 current-status; a malformed system or issue is dropped with a note. */
const v4 = z.looseObject({
  status: z.array(z.unknown()),
  incidents: z.array(z.unknown()).default([]),
  scheduled: z.array(z.unknown()).default([]),
});

const v3 = z.looseObject({
  status: z.record(z.string(), z.string()),
  issues: z.array(z.unknown()).default([]),
});

type Issue = z.infer<typeof issue>;

/** Issues read one by one, each with its updates read one by one. */
function issues(
  list: readonly unknown[],
  at: string,
  maintenance: boolean,
  ctx: ParseContext,
): IncidentSnapshot[] {
  return validateEach(list, issue, [at], ctx, (i, path) => toIncident(i, path, maintenance, ctx));
}

function toIncident(
  i: Issue,
  path: readonly PropertyKey[],
  maintenance: boolean,
  ctx: ParseContext,
): IncidentSnapshot {
  const fallback: IncidentStatus = maintenance ? "SCHEDULED" : "INVESTIGATING";
  let current: IncidentStatus = fallback;
  const read = validateEach(i.updates, update, [...path, "updates"], ctx);
  const updates = oldestFirst(read.map((u) => ({
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
      validateEach(doc.status, system_, ["status"], ctx).map((s) =>
        system(s.system, s.status, ctx)
      ),
      [
        ...issues(doc.incidents, "incidents", false, ctx),
        ...issues(doc.scheduled, "scheduled", true, ctx),
      ],
    );
  }
  if ("issues" in obj || (typeof obj.status === "object" && obj.status !== null)) {
    const doc = checked(PLATFORM, v3, value);
    return snapshot(
      Object.entries(doc.status).map(([name, colour]) => system(name, colour, ctx)),
      issues(doc.issues, "issues", false, ctx),
    );
  }
  // a single v3 issue (`/api/v3/issues/<id>`)
  const one = checked(PLATFORM, issue, value);
  const incident = toIncident(one, [], false, ctx);
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
