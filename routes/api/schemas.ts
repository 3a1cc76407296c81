/**
 * The public API's names for statusd's output shapes (`wire/`) in its OpenAPI document, its
 * own response models (provider rows, pages), its query and path models, and the mappers only
 * REST has. The shapes themselves, their descriptions and their mappers live in `wire/`, which
 * MCP and the CLI share: a field is added there once.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { zodToOpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { ProviderOverview } from "../../app/mod.ts";
import { type Change, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, toIso } from "../../domain/mod.ts";
import {
  AddedVendorRowSchema,
  AddedVendorSchema,
  BoardSchema,
  ComponentSchema,
  EntrySchema,
  EventSchema,
  GroupSchema,
  HistoryEntrySchema,
  HistorySchema,
  IncidentSchema,
  IncidentUpdateSchema,
  LookupMatchSchema,
  LookupSchema,
  MonitorSchema,
  pageSchema as wirePage,
  ReadingErrorKindSchema,
  ReadingSchema,
  ReadingStateSchema,
  ResolutionFigureSchema,
  ServiceDetailSchema,
  ServiceSchema,
  StatusLevelSchema,
  TimeToResolveSchema,
  TrackRecordSchema,
  UptimeSchema,
} from "../../wire/mod.ts";

export {
  addedVendorJson,
  addedVendorRowJson,
  AddedVendorRowSchema,
  AddedVendorSchema,
  boardJson,
  BoardSchema,
  componentJson,
  ComponentSchema,
  EarlyWarningSchema,
  eventJson,
  EventSchema,
  groupJson,
  GroupSchema,
  historyJson,
  HistorySchema,
  incidentJson,
  IncidentSchema,
  lookupJson,
  LookupSchema,
  monitorJson,
  MonitorSchema,
  pageJson,
  readingJson,
  ReadingSchema,
  serviceDetailJson,
  ServiceDetailSchema,
  serviceJson,
  ServiceSchema,
  StatusLevelSchema,
  timeToResolveJson,
  TimeToResolveSchema,
  TrackRecordSchema,
  uptimeJson,
  UptimeSchema,
} from "../../wire/mod.ts";

/**
 * Names `schema` in the OpenAPI document: it becomes `#/components/schemas/{name}`, and every
 * shape that holds it refers to it there. The schema itself is not copied (a wire shape is
 * named where it is, as MCP and the CLI use it); `base`, a named shape it extends, is shown as
 * its `allOf`.
 */
function named(schema: z.ZodType, name: string, base?: { name: string; schema: z.ZodType }) {
  const extendedFrom = base ? { extendedFrom: { refId: base.name, schema: base.schema } } : {};
  zodToOpenAPIRegistry.add(schema, { _internal: { refId: name, ...extendedFrom } } as never);
}

named(StatusLevelSchema, "StatusLevel");
named(ReadingStateSchema, "ReadingState");
named(ReadingErrorKindSchema, "ReadingErrorKind");
named(ReadingSchema.shape.error, "ReadingError");
named(ReadingSchema.shape.redetection, "Redetection");
named(ReadingSchema, "Reading");
named(ServiceSchema, "Service");
named(ComponentSchema, "Component");
named(IncidentUpdateSchema, "IncidentUpdate");
named(IncidentSchema, "Incident");
named(ResolutionFigureSchema, "ResolutionFigure");
named(TimeToResolveSchema, "TimeToResolve");
// The warning as the service detail holds it (null when none), as the document always named it.
named(ServiceDetailSchema.shape.earlyWarning, "EarlyWarning");
named(TrackRecordSchema, "TrackRecord");
named(ServiceDetailSchema, "ServiceDetail", { name: "Service", schema: ServiceSchema });
named(HistoryEntrySchema, "HistoryEntry");
named(HistorySchema, "ServiceHistory");
named(UptimeSchema, "ServiceUptime");
named(MonitorSchema, "Monitor");
named(GroupSchema, "Group");
named(EntrySchema, "BoardEntry");
named(BoardSchema, "Board");
named(EventSchema, "AlertEvent");
named(AddedVendorSchema, "AddedVendor");
named(AddedVendorRowSchema, "AddedVendorRow");
named(LookupMatchSchema, "LookupMatch");
named(LookupSchema, "Lookup");

/** The page envelope around `item`, named `name` in the document. */
export function pageSchema<T extends z.ZodType>(item: T, name: string, what: string) {
  const page = wirePage(item, what);
  named(page, name);
  return page;
}

/** Page of services; a search that matched nothing adds the closest slugs. */
export const ServicePageSchema = wirePage(ServiceSchema, "services").extend({
  didYouMean: z.array(z.string()).optional().openapi({
    description: "When `q` matched nothing: the closest slugs (a vendor statusd does not list " +
      "can be added by its status page: `POST /api/user/vendors`)",
    example: ["github"],
  }),
});
named(ServicePageSchema, "ServicePage");
/** Page of incidents. */
export const IncidentPageSchema = pageSchema(IncidentSchema, "IncidentPage", "incidents");

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
    z.number({
      error: (issue) =>
        issue.code === "invalid_type" ? "expected an integer written in decimal digits" : undefined,
    }).int(`expected a whole number from ${min} to ${max}`)
      .min(min, `expected a whole number from ${min} to ${max}`)
      .max(max, `expected a whole number from ${min} to ${max}`),
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

/** A provider row as JSON. */
export function providerJson(p: ProviderOverview): z.infer<typeof ProviderRowSchema> {
  return { ...p };
}

/** A change as the `data` of an SSE event. */
export function changeJson(c: Change): Record<string, unknown> {
  return { ...c, at: toIso(c.at) };
}
