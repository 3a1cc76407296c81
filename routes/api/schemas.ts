/**
 * Response and query models of the public API (zod, with OpenAPI names and descriptions), and
 * the mappers that turn domain values into them: the one place epoch milliseconds become
 * ISO 8601 UTC text.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { ProviderOverview, ServiceHistory, ServiceUptime } from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  CATEGORIES,
  type Change,
  type Component,
  IMPACTS,
  type Incident,
  INCIDENT_STATUSES,
  type Page,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PLATFORMS,
  type Service,
  type ServiceDetail,
  type StatusLevel,
  toIso,
} from "../../domain/mod.ts";

const Timestamp = z.string().openapi({
  format: "date-time",
  description: "ISO 8601 instant in UTC",
  example: "2026-11-20T14:03:00.000Z",
});

/** A normalised status level. */
export const StatusLevelSchema = z.enum(ALL_STATUS_LEVELS as [StatusLevel, ...StatusLevel[]])
  .openapi("StatusLevel", {
    description:
      "Normalised status, best to worst: OPERATIONAL, UNDER_MAINTENANCE, DEGRADED_PERFORMANCE, " +
      "PARTIAL_OUTAGE, MAJOR_OUTAGE; UNKNOWN means no fresh data (never read, or the vendor's " +
      "page has failed for longer than three poll intervals).",
    example: "OPERATIONAL",
  });

/** A service as lists return it. */
export const ServiceSchema = z.object({
  name: z.string().openapi({ description: "Vendor display name", example: "GitHub" }),
  slug: z.string().openapi({ description: "Identifier used in paths", example: "github" }),
  currentStatus: StatusLevelSchema,
  uptimePercent: z.number().nullable().openapi({
    description:
      "30-day uptime in percent (3 decimals): MAJOR_OUTAGE time is down, PARTIAL_OUTAGE time " +
      "counts 30 % down, degraded and maintenance time count as up, UNKNOWN time is left out. " +
      "Null while nothing has been observed.",
    example: 99.874,
  }),
  category: z.enum(CATEGORIES).openapi({ description: "Catalog category", example: "devtools" }),
  provider: z.string().openapi({
    description: "Slug of the owning company (e.g. `google` owns `google-cloud`)",
    example: "github",
  }),
  statusPageUrl: z.string().openapi({ description: "The vendor's official status page" }),
  platform: z.enum(PLATFORMS).openapi({ description: "Status-page platform statusd reads" }),
  lastCheckedAt: Timestamp.nullable().openapi({
    description: "Last time statusd fetched the vendor's page; null before the first fetch",
  }),
  lastChangedAt: Timestamp.nullable().openapi({
    description: "Last time the service's status changed; null if never",
  }),
}).openapi("Service", { description: "A vendor and its current normalised status" });

/** A component (region or subsystem). */
export const ComponentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: StatusLevelSchema,
  group: z.string().nullable().openapi({
    description: "Name of its group, if the vendor groups components",
  }),
  updatedAt: Timestamp.openapi({ description: "Last time its status changed or was first seen" }),
}).openapi("Component", { description: "A region or subsystem of a service, with its own status" });

/** One timeline entry. */
export const IncidentUpdateSchema = z.object({
  at: Timestamp,
  status: z.enum(INCIDENT_STATUSES),
  body: z.string().openapi({ description: "The vendor's text, as published (plain text)" }),
}).openapi("IncidentUpdate");

/** An incident or maintenance with its timeline. */
export const IncidentSchema = z.object({
  id: z.string(),
  serviceSlug: z.string().openapi({ description: "Slug of the affected service" }),
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES).openapi({
    description: "INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED; for maintenance SCHEDULED, " +
      "IN_PROGRESS, COMPLETED",
  }),
  impact: z.enum(IMPACTS),
  startedAt: Timestamp,
  updatedAt: Timestamp,
  resolvedAt: Timestamp.nullable(),
  url: z.string().nullable().openapi({ description: "The incident on the vendor's page" }),
  components: z.array(z.string()).openapi({ description: "Names of the affected components" }),
  updates: z.array(IncidentUpdateSchema).openapi({ description: "Timeline, oldest first" }),
}).openapi("Incident", { description: "An incident or maintenance as the vendor published it" });

/** One service in full. */
export const ServiceDetailSchema = ServiceSchema.extend({
  components: z.array(ComponentSchema),
  incidents: z.array(IncidentSchema).openapi({
    description: "Open incidents and maintenances, newest first",
  }),
}).openapi("ServiceDetail", { description: "One service with its components and open incidents" });

function pageSchema<T extends z.ZodType>(item: T, name: string, what: string) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int().openapi({
      description: `Number of ${what} matching the query`,
    }),
    page: z.number().int().openapi({ description: "This page (0-based)" }),
    size: z.number().int().openapi({ description: "Page size asked for (`limit`)" }),
    totalPages: z.number().int(),
  }).openapi(name, { description: `One page of ${what}` });
}

/** Page of services. */
export const ServicePageSchema = pageSchema(ServiceSchema, "ServicePage", "services");
/** Page of incidents. */
export const IncidentPageSchema = pageSchema(IncidentSchema, "IncidentPage", "incidents");

/** One history entry. */
export const HistoryEntrySchema = z.object({
  date: z.string().openapi({ format: "date", description: "UTC day", example: "2026-11-20" }),
  worstStatus: StatusLevelSchema.openapi({
    description: "Worst level held at any moment of the day; UNKNOWN when nothing was observed",
  }),
}).openapi("HistoryEntry");

/** Daily history of one service. */
export const HistorySchema = z.object({
  slug: z.string(),
  days: z.number().int(),
  entries: z.array(HistoryEntrySchema).openapi({
    description: "One per UTC day, oldest first; the last is today so far",
  }),
}).openapi("ServiceHistory");

/** Uptime record. */
export const UptimeSchema = z.object({
  slug: z.string(),
  days7: z.number().nullable().openapi({ description: "Uptime percent over the last 7 days" }),
  days30: z.number().nullable().openapi({ description: "Uptime percent over the last 30 days" }),
  days90: z.number().nullable().openapi({ description: "Uptime percent over the last 90 days" }),
  mttrMinutes: z.number().nullable().openapi({
    description: "Mean time to recovery in minutes (1 decimal) of the disruptions that ended in " +
      "the last 90 days; null when none did",
  }),
  disruptions: z.number().int().openapi({
    description: "Disruptions that ended in the last 90 days (the MTTR sample size)",
  }),
  asOf: Timestamp.openapi({ description: "Window end the figures were computed for" }),
}).openapi("ServiceUptime");

/** Provider overview row. */
export const ProviderRowSchema = z.object({
  provider: z.string().openapi({ description: "Provider slug", example: "google" }),
  name: z.string().openapi({ description: "Display name", example: "Google" }),
  services: z.number().int().openapi({ description: "Number of its services in the catalog" }),
  byStatus: z.record(StatusLevelSchema, z.number().int()).openapi({
    description: "Number of its services at each current level (every level present)",
  }),
  worstStatus: StatusLevelSchema,
  activeIncidents: z.number().int().openapi({ description: "Open incidents and maintenances" }),
  uptimePercent: z.number().nullable().openapi({
    description: "Mean 30-day uptime of its services that have one",
  }),
}).openapi("ProviderOverview");

/** Page of provider rows. */
export const ProviderPageSchema = pageSchema(
  ProviderRowSchema,
  "ProviderOverviewPage",
  "providers",
);

/**
 * An integer query parameter from `min` to `max`: decimal digits only (no sign, `0x`, exponent,
 * fraction or spaces: `limit=0x10` is a 400, never 16), then range-checked. Every integer
 * query parameter is declared with it.
 */
export function queryInteger(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value),
    z.number({ error: "expected an integer written in decimal digits" }).int().min(min).max(max),
  );
}

/** `limit` and `page` of every list (DESIGN §10). */
export const PageQuery = {
  limit: queryInteger(1, PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT).openapi({
    param: { name: "limit", in: "query" },
    description: `Page size, 1..${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`,
    example: 50,
  }),
  page: queryInteger(0, 1_000_000).default(0).openapi({
    param: { name: "page", in: "query" },
    description: "Page number, 0-based (default 0). A page past the end is empty.",
    example: 0,
  }),
};

/** Path parameter `slug`. */
export const SlugParam = z.object({
  slug: z.string().min(1).max(200).openapi({
    param: { name: "slug", in: "path" },
    description: "Service identifier (see `slug` in the catalog)",
    example: "github",
  }),
});

// ---- mappers ------------------------------------------------------------------------------

/** A service as JSON. */
export function serviceJson(s: Service): z.infer<typeof ServiceSchema> {
  return {
    name: s.name,
    slug: s.slug,
    currentStatus: s.currentStatus,
    uptimePercent: s.uptimePercent,
    category: s.category,
    provider: s.provider,
    statusPageUrl: s.statusPageUrl,
    platform: s.platform,
    lastCheckedAt: toIso(s.lastCheckedAt),
    lastChangedAt: toIso(s.lastChangedAt),
  };
}

/** A component as JSON. */
export function componentJson(c: Component): z.infer<typeof ComponentSchema> {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    group: c.group,
    updatedAt: toIso(c.updatedAt),
  };
}

/** An incident as JSON. */
export function incidentJson(i: Incident): z.infer<typeof IncidentSchema> {
  return {
    id: i.id,
    serviceSlug: i.serviceSlug,
    title: i.title,
    status: i.status,
    impact: i.impact,
    startedAt: toIso(i.startedAt),
    updatedAt: toIso(i.updatedAt),
    resolvedAt: toIso(i.resolvedAt),
    url: i.url,
    components: [...i.components],
    updates: i.updates.map((u) => ({ at: toIso(u.at), status: u.status, body: u.body })),
  };
}

/** One service in full as JSON. */
export function serviceDetailJson(s: ServiceDetail): z.infer<typeof ServiceDetailSchema> {
  return {
    ...serviceJson(s),
    components: s.components.map(componentJson),
    incidents: s.incidents.map(incidentJson),
  };
}

/** A page envelope with its items mapped. */
export function pageJson<T, U>(p: Page<T>, map: (t: T) => U): Page<U> {
  return { ...p, content: p.content.map(map) };
}

/** A history as JSON (days as `YYYY-MM-DD`). */
export function historyJson(h: ServiceHistory): z.infer<typeof HistorySchema> {
  return {
    slug: h.slug,
    days: h.days,
    entries: h.entries.map((e) => ({
      date: toIso(e.day).slice(0, 10),
      worstStatus: e.worstStatus,
    })),
  };
}

/** An uptime record as JSON. */
export function uptimeJson(u: ServiceUptime): z.infer<typeof UptimeSchema> {
  return { ...u, asOf: toIso(u.asOf) };
}

/** A provider row as JSON. */
export function providerJson(p: ProviderOverview): z.infer<typeof ProviderRowSchema> {
  return { ...p };
}

/** A change as the `data` of an SSE event. */
export function changeJson(c: Change): Record<string, unknown> {
  return { ...c, at: toIso(c.at) };
}
