/**
 * The account's monitors for an agent: `list_monitors` ("what is broken in my
 * stack"), `add_monitor` and `remove_monitor`. They run the same verbs as the REST API.
 * @module
 */
import { z } from "zod";
import {
  boardBySlug,
  createMonitor,
  deleteMonitor,
  listMonitors,
  type MonitorView,
} from "../../../app/mod.ts";
import type { EpochMs } from "../../../domain/mod.ts";
import {
  boardJson,
  BoardSchema,
  EntrySchema,
  IncidentSchema,
  MonitorBriefSchema,
  monitorJson,
  MonitorSchema,
} from "../../../wire/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug, Status } from "./_shapes.ts";

/** A monitor as tools show it: the REST `Monitor`, its open incidents in brief. */
const MonitorShape = MonitorBriefSchema.extend({
  openIncidents: z.array(IncidentSchema.pick({
    title: true,
    status: true,
    impact: true,
    startedAt: true,
  })),
});

function monitorShape(m: MonitorView, now: EpochMs): z.input<typeof MonitorShape> {
  const { slaTarget: _, reading: _r, version: _v, createdAt: _c, updatedAt: _u, ...shown } =
    monitorJson(m, now);
  return {
    ...shown,
    openIncidents: shown.openIncidents.map(({ title, status, impact, startedAt }) => ({
      title,
      status,
      impact,
      startedAt,
    })),
  };
}

/** `list_monitors`. */
export const listMonitorsTool = defineTool({
  name: "list_monitors",
  title: "List my monitors",
  description:
    "The services your account watches (its monitors), each with the worst level of what it " +
    'watches now, 30-day uptime and open incidents. Use it to answer "is anything we depend on ' +
    'broken?": pass `status` (e.g. MAJOR_OUTAGE) to get only those at that level.',
  scopes: ["monitors:read"],
  input: z.object({
    status: Status.optional(),
    limit: z.number().int().min(1).max(200).default(100),
  }),
  output: z.object({
    total: z.number().int(),
    monitors: z.array(MonitorShape),
  }),
  async run(ctx, caller, args) {
    const page = await listMonitors(ctx, caller, { page: 0, limit: args.limit }, {
      status: args.status,
    });
    return {
      total: page.totalElements,
      monitors: page.content.map((m) => monitorShape(m, ctx.clock.now())),
    };
  },
});

/** `add_monitor`. */
export const addMonitorTool = defineTool({
  name: "add_monitor",
  title: "Watch a service",
  description:
    "Adds a monitor: your account starts watching `service` (a catalog slug), optionally only " +
    "some of its components (names as list_services/get_service_status show them). An unknown " +
    "slug or component is an error naming the closest ones.",
  hints: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  scopes: ["monitors:write"],
  input: z.object({
    service: Slug,
    components: z.array(z.string().min(1).max(255)).max(100).default([]),
    label: z.string().min(1).max(100).optional(),
  }),
  output: MonitorShape,
  async run(ctx, caller, args) {
    return monitorShape(
      await createMonitor(ctx, caller, {
        service: args.service,
        components: args.components,
        label: args.label ?? null,
      }),
      ctx.clock.now(),
    );
  },
});

/** `remove_monitor`. */
export const removeMonitorTool = defineTool({
  name: "remove_monitor",
  title: "Stop watching a service",
  description:
    "Deletes one of your monitors by id (from list_monitors). It cannot be undone; nothing " +
    "else is changed.",
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scopes: ["monitors:write"],
  input: z.object({ id: z.string().min(1).max(100) }),
  output: z.object({ removed: z.string() }),
  async run(ctx, caller, args) {
    await deleteMonitor(ctx, caller, args.id, null);
    return { removed: args.id };
  },
});

/** `get_board_status`. */
export const getBoardStatusTool = defineTool({
  name: "get_board_status",
  title: "Board status",
  description:
    "The status of a board (an account's layout of the services it depends on, by its slug " +
    "as in /b/<slug>): its overall level and each entry's — a group reads the worst of its " +
    "monitors — with their open incidents. Public boards are readable by any key; a private " +
    "one only by its own account's.",
  scopes: ["monitors:read"],
  input: z.object({
    slug: z.string().trim().min(1).max(100).describe("The board's slug, e.g. acme-stack"),
  }),
  output: BoardSchema.pick({ slug: true, title: true, public: true, currentStatus: true }).extend({
    entries: z.array(
      EntrySchema.pick({ kind: true, name: true, currentStatus: true }).extend({
        openIncidents: z.array(IncidentSchema.pick({ title: true, status: true })),
        monitors: z.array(MonitorSchema.pick({ service: true, currentStatus: true })),
      }),
    ),
  }),
  async run(ctx, caller, args) {
    const b = boardJson(await boardBySlug(ctx, caller, args.slug), ctx.clock.now());
    return {
      slug: b.slug,
      title: b.title,
      public: b.public,
      currentStatus: b.currentStatus,
      entries: b.entries.map(({ kind, name, currentStatus, openIncidents, monitors }) => ({
        kind,
        name,
        currentStatus,
        openIncidents: openIncidents.map(({ title, status }) => ({ title, status })),
        monitors: monitors.map(({ service, currentStatus }) => ({ service, currentStatus })),
      })),
    };
  },
});
