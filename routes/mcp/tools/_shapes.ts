/**
 * Output pieces several tools share: the MCP views of statusd's output shapes (`wire/`), each a
 * choice of their fields under the names the tools have always used, mapped from the same
 * mappers REST uses (instants become ISO 8601 UTC text there).
 * @module
 */
import { z } from "zod";
import {
  type EpochMs,
  type Incident,
  type Service,
  toIso,
  uptimeSpanWords,
} from "../../../domain/mod.ts";
import {
  incidentJson,
  IncidentSchema,
  IncidentUpdateSchema,
  ReadingSchema,
  serviceJson,
  ServiceSchema,
  StatusLevelSchema,
} from "../../../wire/mod.ts";

/** A status level. */
export const Status = StatusLevelSchema;

/** A vendor slug as tools accept it. */
export const Slug = z.string().trim().min(1).max(100).describe(
  "Vendor slug, e.g. github (from list_services)",
);

/** One service, as lists show it (the REST `Service`, its level as `status`). */
export const ServiceSummary = ServiceSchema.pick({
  slug: true,
  name: true,
  category: true,
  provider: true,
  statusPageUrl: true,
  lastChangedAt: true,
}).extend({
  status: ServiceSchema.shape.currentStatus,
  uptimePercent30d: ServiceSchema.shape.uptimePercent,
  uptimeCovers: z.string().describe(
    'What the uptime figure covers: "30-day", or "over the 3 h observed" when statusd ' +
      "observed less of the 30 days",
  ),
  reading: ReadingSchema.pick({ state: true, summary: true }).describe(
    "Can statusd read this vendor (get_service_status has the details)",
  ),
});

/** Maps a catalog service. */
export function serviceSummary(s: Service): z.input<typeof ServiceSummary> {
  const j = serviceJson(s);
  return {
    slug: j.slug,
    name: j.name,
    status: j.currentStatus,
    category: j.category,
    provider: j.provider,
    uptimePercent30d: j.uptimePercent,
    uptimeCovers: uptimeSpanWords(s.uptimeObservedMs, 30),
    statusPageUrl: j.statusPageUrl,
    lastChangedAt: j.lastChangedAt,
    reading: { state: j.reading.state, summary: j.reading.summary },
  };
}

/** One incident with its latest update (the REST `Incident` without its whole timeline). */
export const IncidentSummary = IncidentSchema.omit({
  serviceSlug: true,
  updates: true,
  scheduledStartAt: true,
  scheduledEndAt: true,
}).extend({
  service: IncidentSchema.shape.serviceSlug,
  latestUpdate: IncidentUpdateSchema.nullable().describe("The vendor's latest update, if any"),
});

/** Maps an incident (the timeline shrinks to its latest update). */
export function incidentSummary(i: Incident, now: EpochMs): z.input<typeof IncidentSummary> {
  const { serviceSlug, updates: _, scheduledStartAt: _s, scheduledEndAt: _e, ...rest } =
    incidentJson(i, now);
  const latest = [...i.updates].sort((a, b) => b.at - a.at)[0];
  return {
    ...rest,
    service: serviceSlug,
    latestUpdate: latest
      ? { at: toIso(latest.at), status: latest.status, body: latest.body }
      : null,
  };
}
