/**
 * A group and a board as statusd shows them outside: their level, their monitors, a board's
 * entries with 90 days of daily history and open incidents, and its page's settings.
 * @module
 */
import { z } from "zod";
import { type BoardView, type EpochMs, type GroupView, toIso } from "../domain/mod.ts";
import { StatusLevelSchema } from "./basics.ts";
import { incidentJson, IncidentSchema } from "./incident.ts";
import { monitorJson, MonitorSchema } from "./monitor.ts";

/** A group of monitors. */
export const GroupSchema = z.object({
  id: z.string().meta({ example: "grp_q8w2e4r6t8y0" }),
  name: z.string().meta({ example: "payments path" }),
  currentStatus: StatusLevelSchema.meta({ description: "The worst level of its monitors" }),
  monitors: z.array(MonitorSchema).meta({ description: "Its monitors, in order" }),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** One UTC day of an entry's history. */
export const DaySchema = z.object({
  date: z.string().meta({ example: "2026-11-20" }),
  worstStatus: StatusLevelSchema,
});

/** One entry of a board: a group or a monitor. */
export const EntrySchema = z.object({
  kind: z.enum(["group", "monitor"]),
  id: z.string(),
  name: z.string(),
  currentStatus: StatusLevelSchema,
  history: z.array(DaySchema).meta({ description: "Worst level per UTC day, 90 days" }),
  openIncidents: z.array(IncidentSchema),
  monitors: z.array(MonitorSchema).meta({ description: "For a group: its monitors" }),
  services: z.array(z.string()).meta({
    description: "Slugs of the services the entry watches",
  }),
});

/** A board. */
export const BoardSchema = z.object({
  id: z.string().meta({ example: "brd_a1s2d3f4g5h6" }),
  slug: z.string().meta({ example: "acme-stack" }),
  title: z.string(),
  public: z.boolean().meta({ description: "Readable by anyone at /b/{slug}" }),
  url: z.string().meta({ description: "Its page, /b/{slug}" }),
  description: z.string().nullable().meta({
    description: "What its status page says under the title",
  }),
  accentColor: z.string().nullable().meta({
    description: "Its status page's accent colour, #rrggbb",
    example: "#0b5cad",
  }),
  links: z.array(z.object({ label: z.string(), url: z.string() })).meta({
    description: "Links its status page shows (at most 5)",
  }),
  host: z.string().nullable().meta({
    description: "A host of its own: requests for it are served this board's status page",
    example: "status.example.com",
  }),
  logoUrl: z.string().nullable().meta({
    description: "Where its logo is served (/b/{slug}/logo), or null without one",
  }),
  earlyWarning: z.boolean().meta({
    description: "Its status page shows statusd's own public early warnings of its vendors",
  }),
  currentStatus: StatusLevelSchema.meta({ description: "The worst level of its entries" }),
  items: z.array(z.object({ kind: z.enum(["group", "monitor"]), id: z.string() })),
  entries: z.array(EntrySchema),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A group as JSON. */
export function groupJson(g: GroupView, now: EpochMs): z.infer<typeof GroupSchema> {
  return {
    id: g.id,
    name: g.name,
    currentStatus: g.currentStatus,
    monitors: g.monitors.map((m) => monitorJson(m, now)),
    version: g.version,
    createdAt: toIso(g.createdAt)!,
    updatedAt: toIso(g.updatedAt)!,
  };
}

/** A board as JSON. */
export function boardJson(b: BoardView, now: EpochMs): z.infer<typeof BoardSchema> {
  return {
    id: b.id,
    slug: b.slug,
    title: b.title,
    public: b.public,
    url: `/b/${b.slug}`,
    description: b.description,
    accentColor: b.accentColor,
    links: b.links.map((l) => ({ label: l.label, url: l.url })),
    host: b.host,
    logoUrl: b.logo ? `/b/${b.slug}/logo` : null,
    earlyWarning: b.earlyWarning,
    currentStatus: b.currentStatus,
    items: b.items.map((i) => ({ kind: i.kind, id: i.id })),
    entries: b.entries.map((e) => ({
      kind: e.kind,
      id: e.id,
      name: e.name,
      currentStatus: e.currentStatus,
      history: e.history.map((d) => ({
        date: toIso(d.day)!.slice(0, 10),
        worstStatus: d.worstStatus,
      })),
      openIncidents: e.openIncidents.map((i) => incidentJson(i, now)),
      monitors: e.monitors.map((m) => monitorJson(m, now)),
      services: [...e.services],
    })),
    version: b.version,
    createdAt: toIso(b.createdAt)!,
    updatedAt: toIso(b.updatedAt)!,
  };
}
