/**
 * Cachet, self-hosted (FORMATS.md §6), in both generations:
 *
 * - 2.x: `/api/v1/components` (pre-1.0 bodies have the same envelope with a `status_id`);
 *   incidents lists are told apart by `human_status`; `cachetUpdates` reads
 *   `/api/v1/incidents/<id>/updates`.
 * - 3.x (cachethq/core): JSON:API under `/api` — `/api/components`, `/api/incidents` — with
 *   `data[].attributes` and statuses as `{human, value}`; times as `{human, string}`.
 *
 * Which one a vendor runs is read from its page (`discovery`): a 3.x page loads its assets from
 * `vendor/cachethq/cachet/`; any other page is read as 2.x, as before. A stored endpoint that
 * answers 404/410 is discovered again, so a vendor that upgrades is followed. `parse` tells the
 * shapes apart by themselves. Cachet writes times as `YYYY-MM-DD HH:MM:SS` in the server's
 * zone, which no payload names: they are read as UTC. A malformed item is dropped with a note.
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
import {
  decodeJson,
  lookup,
  timeline,
  underPage,
  validate,
  validateEach,
} from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const PLATFORM = "cachet";

/**
 * Component `status` (2.x number, 3.x `value`) or `status_id` (pre-1.0). 0 is 2.x's own
 * "Unknown", 5 is 3.x's; 6 is 3.x's "Under maintenance" (2.x has no 5 or 6).
 */
export const COMPONENT_STATUS: Record<string, StatusLevel> = {
  "0": "UNKNOWN",
  "1": "OPERATIONAL",
  "2": "DEGRADED_PERFORMANCE",
  "3": "PARTIAL_OUTAGE",
  "4": "MAJOR_OUTAGE",
  "5": "UNKNOWN",
  "6": "UNDER_MAINTENANCE",
};

/**
 * Incident and incident update `status`. 2.x: 0 is Scheduled (maintenance); 3.x moved
 * maintenance to schedules and reads 0 as "Reported" — a 3.x 0 is read INVESTIGATING.
 */
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

/** 3.x `{human, value}`: `value` is the code; `human` is a translated label (not read). */
const humanValue = z.object({ value: z.number() });
/** 3.x `{human, string}` time: `string` is "Y-m-d H:i:s" (server zone), `human` "2 days ago". */
const humanTime = z.object({ string: jsonTime });

/** One 3.x JSON:API resource object of `type`, its attributes checked by `attributes`. */
function resource<S extends z.ZodType>(type: string, attributes: S) {
  return z.object({ id, type: z.literal(type), attributes });
}

/** 3.x component: `latest_status` is the effective one (incidents applied), else `status`. */
const component3 = resource(
  "components",
  z.object({
    name: z.string(),
    status: humanValue,
    latest_status: humanValue.nullish(),
    enabled: z.boolean().nullish(),
  }),
);

/** 3.x incident: `status` is its latest status; `occurred` may be empty on a new incident. */
const incident3 = resource(
  "incidents",
  z.object({
    name: z.string(),
    status: z.object({ value: z.number().nullish() }),
    occurred: z.object({ string: jsonTime.nullish() }).nullish(),
    created: humanTime,
    updated: z.object({ string: jsonTime.nullish() }).nullish(),
  }),
);

/** The envelope every list shares (`meta.pagination` is not read: `per_page` may be a string). */
const list = z.object({ data: z.array(z.unknown()) });

function toComponent(raw: z.output<typeof component>, ctx: ParseContext): ComponentSnapshot {
  const code = typeof raw.status === "number" ? raw.status : raw.status_id!;
  return {
    externalId: raw.id,
    name: raw.name.trim(),
    // The payload names the group by id only (see `grouped`).
    group: null,
    status: lookup(COMPONENT_STATUS, code, "component.status", ctx, "UNKNOWN"),
  };
}

function toComponent3(raw: z.output<typeof component3>, ctx: ParseContext): ComponentSnapshot {
  const code = (raw.attributes.latest_status ?? raw.attributes.status).value;
  return {
    externalId: raw.id,
    name: raw.attributes.name.trim(),
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
    // Cachet publishes when a scheduled incident starts, never when it ends.
    ...(scheduled ? { scheduledStartAt: raw.scheduled_at ?? null, scheduledEndAt: null } : {}),
  };
}

/** 3.x incident: no scheduled state (maintenance lives in schedules); 0 "Reported" is open. */
function toIncident3(raw: z.output<typeof incident3>, ctx: ParseContext): IncidentSnapshot {
  const a = raw.attributes;
  const code = a.status.value ?? 0;
  const status = code === 0
    ? "INVESTIGATING"
    : lookup(INCIDENT_STATUS, code, "incident.status", ctx, "INVESTIGATING");
  const updatedAt = a.updated?.string ?? a.created.string;
  return {
    externalId: raw.id,
    title: a.name,
    status,
    impact: "NONE",
    startedAt: a.occurred?.string ?? a.created.string,
    updatedAt,
    resolvedAt: status === "RESOLVED" ? updatedAt : null,
    url: underPage(ctx.pageUrl, `incidents/${encodeURIComponent(raw.id)}`).href,
    componentIds: [],
    updates: [],
  };
}

function decodeList(body: string): { json: unknown; data: unknown[] } {
  const json = decodeJson(PLATFORM, body);
  return { json, data: validate(PLATFORM, json, list).data };
}

function field(item: unknown, key: string): unknown {
  return item !== null && typeof item === "object" ? (item as Record<string, unknown>)[key] : null;
}

/** Disabled components are not shown by Cachet, so skipped; the level is the worst. */
function componentsSnapshot(components: readonly ComponentSnapshot[]): Snapshot {
  return { indicator: worst(components.map((c) => c.status)), components, incidents: [] };
}

/**
 * Components list → leaf components (disabled ones skipped); the level is their worst, Cachet
 * having no page-level value in the list. An incidents list gives incidents and no level
 * (UNKNOWN): Cachet incidents name no impact. 3.x lists are told apart by `data[].attributes`.
 */
function parse(body: string, ctx: ParseContext): Snapshot {
  const { data } = decodeList(body);
  const first = data[0];
  const jsonApi = data.find((x) =>
    field(x, "attributes") !== undefined && typeof field(x, "type") === "string"
  );
  if (jsonApi !== undefined) {
    if (field(jsonApi, "type") === "incidents") {
      const incidents = validateEach(data, incident3, ["data"], ctx).map((i) =>
        toIncident3(i, ctx)
      );
      return { indicator: "UNKNOWN", components: [], incidents };
    }
    const rows = validateEach(data, component3, ["data"], ctx);
    return componentsSnapshot(
      rows.filter((c) => c.attributes.enabled !== false).map((c) => toComponent3(c, ctx)),
    );
  }
  if (first && field(first, "incident_id") !== undefined) {
    throw new PayloadError(
      PLATFORM,
      "data[0].incident_id",
      "an incident updates list: use cachetUpdates",
    );
  }
  if (first && field(first, "human_status") !== undefined) {
    const incidents = validateEach(data, incident, ["data"], ctx).map((i) => toIncident(i, ctx));
    return { indicator: "UNKNOWN", components: [], incidents };
  }
  const rows = validateEach(data, component, ["data"], ctx);
  return componentsSnapshot(grouped(rows.filter((c) => c.enabled !== false), ctx));
}

/**
 * 2.x names a component's group by id only (`groupRef`): the poller fills the names from
 * `/api/v1/components/groups` (`groupNames` below). Components that share a name are told apart
 * by their group's id ("API (group 2)"), so they stay apart whatever the groups document says.
 */
function grouped(rows: z.output<typeof component>[], ctx: ParseContext): ComponentSnapshot[] {
  const inGroup = (c: z.output<typeof component>) => (c.group_id ?? 0) > 0;
  const named = Map.groupBy(rows, (c) => c.name.trim());
  return rows.map((c) => {
    const read = {
      ...toComponent(c, ctx),
      ...(inGroup(c) ? { groupRef: String(c.group_id) } : {}),
    };
    const twins = named.get(c.name.trim())!;
    const distinct = new Set(twins.map((t) => t.group_id ?? 0)).size > 1;
    return distinct && inGroup(c) ? { ...read, name: `${read.name} (group ${c.group_id})` } : read;
  });
}

/** One 2.x component group (`/api/v1/components/groups`). */
const group = z.object({ id, name: z.string() });

/** `/api/v1/components/groups` → each group's id → its name (a malformed group is left out). */
export function cachetGroupNames(body: string): Map<string, string> {
  const { data } = decodeList(body);
  const out = new Map<string, string>();
  for (const raw of data) {
    const g = group.safeParse(raw);
    if (g.success && g.data.name.trim() !== "") out.set(g.data.id, g.data.name.trim());
  }
  return out;
}

/** `/api/v1/incidents/<id>/updates` → each incident id's timeline, oldest first. */
export function cachetUpdates(body: string, ctx: ParseContext): Map<string, IncidentUpdate[]> {
  const { data } = decodeList(body);
  const byIncident = new Map<string, (IncidentUpdate & { id: string })[]>();
  // Published newest first: reversed, so updates with equal times keep their real order.
  for (const u of validateEach(data, update, ["data"], ctx).toReversed()) {
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

/** The 2.x components API under a page. */
function v2Endpoint(page: string | URL): URL {
  return underPage(page, "api/v1/components?per_page=100");
}

/** A page URL that already is one of the components APIs (a self-hoster may configure it). */
const API_PATH = /\/api(\/v1)?\/components\/?$/;

/** Marks a Cachet 3.x page: its assets are published under `vendor/cachethq/cachet/`. */
const V3_ASSETS = /\/vendor\/cachethq\/cachet\//;

/**
 * The data endpoint a Cachet page names: 3.x (`<root>/api/components`, the root taken from the
 * page's `og:url`, Cachet's own path, when it gives one on the same host) when the page loads
 * 3.x assets, else the 2.x endpoint under the page.
 */
export function cachetEndpointFromPage(html: string, pageUrl: URL): URL {
  if (!V3_ASSETS.test(html)) return v2Endpoint(pageUrl);
  const og = /<meta\s+property=["']og:url["']\s+content=["']([^"']+)["']/i.exec(html)?.[1];
  let root = pageUrl;
  if (og) {
    try {
      const u = new URL(og, pageUrl);
      if (u.host === pageUrl.host) root = u;
    } catch {
      // an unreadable og:url: keep the page itself
    }
  }
  return underPage(root, "api/components?per_page=100");
}

/** The Cachet adapter (2.x and 3.x). */
export const cachet: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => {
    const u = new URL(vendor.statusPageUrl);
    return API_PATH.test(u.pathname)
      ? new URL(`${u.origin}${u.pathname.replace(/\/$/, "")}?per_page=100`)
      : v2Endpoint(vendor.statusPageUrl);
  },
  parse,
  discovery: {
    needed: (vendor) => !API_PATH.test(new URL(vendor.statusPageUrl).pathname),
    find: cachetEndpointFromPage,
  },
  groupNames: {
    endpoint: (main) => {
      const u = new URL(main);
      u.pathname = `${u.pathname.replace(/\/$/, "")}/groups`;
      return u;
    },
    parse: cachetGroupNames,
  },
};
