/**
 * `/calendar.ics`: vendor maintenance as an iCalendar (RFC 5545) feed that calendar apps
 * subscribe to, built with `ical-generator`. One event per maintenance with a UID that never
 * changes, so a rescheduled maintenance moves on people's calendars instead of duplicating.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  CALENDAR_KEEP_FINISHED_DAYS,
  maintenanceCalendar,
  type MaintenanceScope,
  type NamedIncident,
  OPEN,
} from "../../app/mod.ts";
import { maintenanceWindow, toIso } from "../../domain/mod.ts";
import { defineRoute } from "../api/define.ts";
import { scopeQuery } from "../api/maintenances.ts";
import { ErrorSchema } from "../errors.ts";
import type { Env } from "../env.ts";
import type { Register } from "../register.ts";
import { incidentPageUrl } from "./incidents.ts";
import { xmlSafe } from "./_text.ts";

/** Media type of the calendar. */
export const CALENDAR_TYPE = "text/calendar; charset=utf-8";

/** The stable UID of a maintenance's event (`<slug>-<id>@<host>`). */
export function eventUid(publicUrl: string, slug: string, id: string): string {
  return `maintenance-${slug}-${id}@${new URL(publicUrl).host}`;
}

function when(t: number): string {
  return toIso(t).replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

function describe(publicUrl: string, { incident: i, serviceName }: NamedIncident): string {
  const { end } = maintenanceWindow(i);
  const lines = [
    `${serviceName} maintenance · status ${i.status}`,
    ...(end === null ? ["The vendor has not announced when it ends."] : []),
    ...(i.components.length ? [`Affects: ${i.components.join(", ")}`] : []),
    ...i.updates.slice(-3).toReversed().map((u) => `${when(u.at)} ${u.status}: ${u.body}`),
    `On statusd: ${incidentPageUrl(publicUrl, i.serviceSlug, i.id)}`,
    ...(i.url ? [`On the vendor's page: ${i.url}`] : []),
  ];
  return xmlSafe(lines.join("\n"));
}

/**
 * The calendar document for `items`, named after what it is filtered to. `ical-generator` is
 * loaded with the first calendar asked for (memory at rest).
 */
export async function renderCalendar(
  publicUrl: string,
  items: readonly NamedIncident[],
  name: string,
): Promise<string> {
  const { default: ical, ICalEventStatus, ICalEventTransparency } = await import("ical-generator");
  const cal = ical({
    name,
    description: "Upcoming and in-progress maintenance of cloud and SaaS vendors, by statusd",
    prodId: { company: "statusd", product: "maintenance calendar", language: "EN" },
    url: `${publicUrl}/calendar.ics`,
    ttl: 60 * 60,
    timezone: "UTC",
  });
  for (const item of items) {
    const i = item.incident;
    const { start, end } = maintenanceWindow(i);
    cal.createEvent({
      id: eventUid(publicUrl, i.serviceSlug, i.id),
      // Grows with every timeline entry, so calendar apps take the newer copy.
      sequence: i.updates.length,
      stamp: new Date(i.updatedAt),
      lastModified: new Date(i.updatedAt),
      created: new Date(i.startedAt < i.updatedAt ? i.startedAt : i.updatedAt),
      start: new Date(start),
      ...(end !== null ? { end: new Date(end) } : {}),
      summary: xmlSafe(`${item.serviceName}: ${i.title}`),
      description: describe(publicUrl, item),
      url: incidentPageUrl(publicUrl, i.serviceSlug, i.id),
      status: ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.TRANSPARENT,
      categories: [{ name: "Maintenance" }, { name: xmlSafe(item.serviceName) }],
    });
  }
  // RFC 5545 §3.1: every content line ends with CRLF, the last one too.
  const text = cal.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

/** The answers every calendar shares: the calendar, or 304. */
const CALENDAR_OK = {
  200: {
    content: { "text/calendar": { schema: z.string() } },
    description: "The calendar",
  },
  304: { description: "Not modified (the `If-None-Match` ETag still holds)" },
} as const;

const CalendarQuery = z.object({
  ...scopeQuery("maintenance"),
  board: z.string().min(1).max(100).optional().openapi({
    param: { name: "board", in: "query" },
    description: "Only maintenance of the services on this public board (its slug)",
    example: "acme-stack",
  }),
});

const calendarRoute = defineRoute({
  method: "get",
  path: "/calendar.ics",
  operationId: "getMaintenanceCalendar",
  tags: ["Feeds"],
  summary: "Vendor maintenance calendar (iCalendar)",
  description:
    "Every upcoming and in-progress vendor maintenance as an iCalendar (RFC 5545) feed to " +
    "subscribe to from a calendar app, plus the ones finished in the last " +
    `${CALENDAR_KEEP_FINISHED_DAYS} days. One event per maintenance, from its announced start ` +
    "to its announced end (no end when the vendor has not announced one); its UID never " +
    "changes, so a rescheduled maintenance moves instead of appearing twice. Filter with " +
    "`service` (one slug or several, comma-separated) and `provider`. Example: " +
    "`{host_url}/calendar.ics?service=github,stripe`, or `board` for the services on a " +
    "public board. No credential needed.",
  request: { query: CalendarQuery },
  responses: {
    ...CALENDAR_OK,
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: a parameter is malformed",
    },
    404: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`not_found`: a `service` slug, or the public `board`, does not exist",
    },
  },
}, OPEN);

const boardCalendarRoute = defineRoute({
  method: "get",
  path: "/b/{slug}/calendar.ics",
  operationId: "getBoardMaintenanceCalendar",
  tags: ["Feeds"],
  summary: "Maintenance calendar of a public board (iCalendar)",
  description:
    "The maintenance calendar (as `/calendar.ics`) of the services on one public board: what " +
    "a board's readers subscribe to from its status page. No credential needed.",
  request: {
    params: z.object({
      slug: z.string().min(1).max(100).openapi({
        description: "Board slug",
        example: "acme-stack",
      }),
    }),
  },
  responses: {
    ...CALENDAR_OK,
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: the slug is malformed",
    },
    404: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`not_found`: no public board has this slug",
    },
  },
}, OPEN);

function calendarName(scope: MaintenanceScope): string {
  const parts = [
    ...(scope.services?.length ? [scope.services.join(", ")] : []),
    ...(scope.provider ? [`provider ${scope.provider}`] : []),
    ...(scope.board ? [`board ${scope.board}`] : []),
  ];
  return `Vendor maintenance${parts.length ? ` (${parts.join("; ")})` : ""} · statusd`;
}

/** Mounts `/calendar.ics` and `/b/{slug}/calendar.ics`. */
export const registerCalendar: Register = (api, deps) => {
  const cache = deps.responseCache;
  const publicUrl = deps.app.settings.publicUrl;
  const send = (c: Context<Env>, scope: MaintenanceScope) =>
    cache.send(c, async () => ({
      body: await renderCalendar(
        publicUrl,
        await maintenanceCalendar(c.get("app"), scope),
        calendarName(scope),
      ),
      contentType: CALENDAR_TYPE,
    }), { "Cache-Control": "public, max-age=300" });
  api.openapi(calendarRoute, (c) => {
    const { service, provider, board } = c.req.valid("query");
    const scope: MaintenanceScope = {
      ...(service !== undefined ? { services: service } : {}),
      ...(provider !== undefined ? { provider } : {}),
      ...(board !== undefined ? { board } : {}),
    };
    return send(c, scope) as never;
  });
  api.openapi(boardCalendarRoute, (c) => {
    const scope: MaintenanceScope = { board: c.req.valid("param").slug };
    return send(c, scope) as never;
  });
};
