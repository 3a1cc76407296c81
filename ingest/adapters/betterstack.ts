/**
 * Better Stack (Better Uptime) status pages (FORMATS.md §5): `<page>/index.json`, JSON:API.
 * The page carries `aggregate_state`; `included[]` holds sections (groups), resources
 * (components), status reports (incidents and maintenances) and their status updates.
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
import { severity } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import {
  decode,
  IMPACT_LEVEL,
  lookup,
  timeline,
  underPage,
  validateEach,
  validateItem,
} from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const PLATFORM = "betterstack";

/** Page `aggregate_state`. */
export const AGGREGATE_STATE: Record<string, StatusLevel> = {
  operational: "OPERATIONAL",
  degraded: "DEGRADED_PERFORMANCE",
  downtime: "MAJOR_OUTAGE",
  maintenance: "UNDER_MAINTENANCE",
};

/** Resource `status`; `not_monitored` is a known value that says nothing about health. */
export const RESOURCE_STATUS: Record<string, StatusLevel> = {
  operational: "OPERATIONAL",
  degraded: "DEGRADED_PERFORMANCE",
  downtime: "MAJOR_OUTAGE",
  maintenance: "UNDER_MAINTENANCE",
  not_monitored: "UNKNOWN",
};

/** A report's `aggregate_state`, or an affected resource's `status` in a report, as an impact. */
export const REPORT_IMPACT: Record<string, Impact> = {
  operational: "NONE",
  degraded: "MINOR",
  downtime: "CRITICAL",
  maintenance: "MAINTENANCE",
};

/** Whether a report with this `aggregate_state` is still open. */
export const REPORT_OPEN: Record<string, boolean> = {
  operational: true,
  degraded: true,
  downtime: true,
  maintenance: true,
  resolved: false,
};

const id = z.union([z.string(), z.number()]).transform(String);
const affected = z.array(z.object({ status_page_resource_id: id, status: z.string() })).nullish();

const section = z.object({ name: z.string() });
const resource = z.object({
  public_name: z.string(),
  status: z.string(),
  status_page_section_id: id.nullish(),
});
const report = z.object({
  title: z.string(),
  report_type: z.string(),
  starts_at: jsonTime,
  ends_at: jsonTime.nullish(),
  aggregate_state: z.string(),
  affected_resources: affected,
});
const update = z.object({
  message: z.string().nullish(),
  published_at: jsonTime,
  affected_resources: affected,
});

/** One `included[]` member's envelope; its attributes are checked by its `type` below. */
const member = z.object({
  id: id,
  type: z.string(),
  attributes: z.unknown(),
  relationships: z.object({
    status_updates: z.object({ data: z.array(z.object({ id: id })) }).nullish(),
  }).nullish(),
});

/** The JSON:API envelope. A malformed `included[]` member is dropped with a note. */
const document = z.object({
  data: z.object({
    id: id,
    type: z.literal("status_page"),
    attributes: z.object({ aggregate_state: z.string() }),
  }),
  included: z.array(z.unknown()).nullish(),
});

type Included = z.output<typeof member> & { path: readonly PropertyKey[] };
type Report = z.output<typeof report> & { id: string; updateIds: string[] };
type Update = z.output<typeof update> & { id: string };

/**
 * Members of one `type`, their attributes validated; a member whose attributes do not match is
 * dropped with a note naming `included[i].attributes…`.
 */
function membersOf<S extends z.ZodObject>(
  included: readonly Included[],
  type: string,
  schema: S,
  ctx: ParseContext,
): (z.output<S> & { id: string; updateIds: string[] })[] {
  return included.flatMap((item) => {
    if (item.type !== type) return [];
    const attributes = validateItem(item.attributes, schema, [...item.path, "attributes"], ctx);
    if (attributes === null) return [];
    return [{
      ...attributes,
      id: item.id,
      updateIds: item.relationships?.status_updates?.data.map((d) => d.id) ?? [],
    }];
  });
}

/** The most severe of the impacts a report names (its state and its resources' states). */
function peakImpact(rep: Report, updates: readonly Update[], ctx: ParseContext): Impact {
  if (rep.report_type === "maintenance") return "MAINTENANCE";
  const states = [
    rep.aggregate_state,
    ...(rep.affected_resources ?? []).map((a) => a.status),
    ...updates.flatMap((u) => (u.affected_resources ?? []).map((a) => a.status)),
  ].filter((s) => s !== "resolved");
  return states
    .map((s) => lookup(REPORT_IMPACT, s, "report.status", ctx, "NONE"))
    .reduce<Impact>(
      (a, b) => (severity(IMPACT_LEVEL[b])! > severity(IMPACT_LEVEL[a])! ? b : a),
      "NONE",
    );
}

/**
 * Better Stack updates carry no lifecycle word: an open report is INVESTIGATING (maintenance:
 * SCHEDULED before `starts_at`, IN_PROGRESS from it); a closed one is RESOLVED (COMPLETED),
 * and its last update carries that closing status.
 */
function toIncident(rep: Report, byId: Map<string, Update>, ctx: ParseContext): IncidentSnapshot {
  const maintenance = rep.report_type === "maintenance";
  const open = lookup(REPORT_OPEN, rep.aggregate_state, "report.aggregate_state", ctx, true);
  const phaseAt = (t: number): IncidentStatus =>
    maintenance ? (t < rep.starts_at ? "SCHEDULED" : "IN_PROGRESS") : "INVESTIGATING";
  const closed: IncidentStatus = maintenance ? "COMPLETED" : "RESOLVED";
  const status = open ? phaseAt(ctx.fetchedAt) : closed;
  const own = rep.updateIds.flatMap((u) => byId.get(u) ?? []);
  const ordered = timeline(own.map((u) => ({
    id: u.id,
    at: u.published_at,
    status: phaseAt(u.published_at),
    body: u.message ?? "",
  })));
  const updates = ordered.map((u, i) => (!open && i === ordered.length - 1 ? { ...u, status } : u));
  const updatedAt = Math.max(rep.starts_at, ...updates.map((u) => u.at));
  return {
    externalId: rep.id,
    title: rep.title,
    status,
    impact: peakImpact(rep, own, ctx),
    startedAt: rep.starts_at,
    updatedAt,
    resolvedAt: open ? null : rep.ends_at ?? updatedAt,
    url: null,
    componentIds: (rep.affected_resources ?? []).map((a) => a.status_page_resource_id),
    updates,
  };
}

/** The Better Stack adapter. */
export const betterstack: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => underPage(vendor.statusPageUrl, "index.json"),
  parse(body: string, ctx: ParseContext): Snapshot {
    const doc = decode(PLATFORM, body, document);
    const included = validateEach(
      doc.included,
      member,
      ["included"],
      ctx,
      (m, path) => ({ ...m, path }),
    );
    const sections = new Map(
      membersOf(included, "status_page_section", section, ctx).map((s) => [s.id, s.name.trim()]),
    );
    const components: ComponentSnapshot[] = membersOf(
      included,
      "status_page_resource",
      resource,
      ctx,
    )
      .map((r) => ({
        externalId: r.id,
        name: r.public_name.trim(),
        group: (r.status_page_section_id && sections.get(r.status_page_section_id)) || null,
        status: lookup(RESOURCE_STATUS, r.status, "resource.status", ctx, "UNKNOWN"),
      }));
    const updates = new Map(
      membersOf(included, "status_update", update, ctx).map((u) => [u.id, u] as const),
    );
    const incidents = membersOf(included, "status_report", report, ctx)
      .map((r) => toIncident(r, updates, ctx));
    const indicator = lookup(
      AGGREGATE_STATE,
      doc.data.attributes.aggregate_state,
      "aggregate_state",
      ctx,
      "UNKNOWN",
    );
    return { indicator, components, incidents };
  },
};
