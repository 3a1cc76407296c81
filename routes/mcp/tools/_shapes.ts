/**
 * Output pieces several tools share, and their mappers from the verbs' records (instants
 * become ISO 8601 UTC text here).
 * @module
 */
import { z } from "zod";
import {
  ALL_STATUS_LEVELS,
  type Incident,
  type Service,
  type StatusLevel,
  toIso,
} from "../../../domain/mod.ts";

/** A status level. */
export const Status = z.enum(ALL_STATUS_LEVELS as [StatusLevel, ...StatusLevel[]]);

/** A vendor slug as tools accept it. */
export const Slug = z.string().trim().min(1).max(100).describe(
  "Vendor slug, e.g. github (from list_services)",
);

/** ISO 8601 UTC instant, or null. */
const When = z.string().nullable();

/** One service, as lists show it. */
export const ServiceSummary = z.object({
  slug: z.string(),
  name: z.string(),
  status: Status,
  category: z.string(),
  provider: z.string(),
  uptimePercent30d: z.number().nullable().describe("30-day uptime percent; null when unobserved"),
  statusPageUrl: z.string(),
  lastChangedAt: When,
});

/** Maps a catalog service. */
export function serviceSummary(s: Service): z.input<typeof ServiceSummary> {
  return {
    slug: s.slug,
    name: s.name,
    status: s.currentStatus,
    category: s.category,
    provider: s.provider,
    uptimePercent30d: s.uptimePercent,
    statusPageUrl: s.statusPageUrl,
    lastChangedAt: toIso(s.lastChangedAt),
  };
}

/** One incident with its latest update. */
export const IncidentSummary = z.object({
  id: z.string(),
  service: z.string(),
  title: z.string(),
  status: z.string(),
  impact: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: When,
  url: z.string().nullable(),
  components: z.array(z.string()),
  latestUpdate: z.object({ at: z.string(), status: z.string(), body: z.string() }).nullable(),
});

/** Maps an incident (the timeline shrinks to its latest update). */
export function incidentSummary(i: Incident): z.input<typeof IncidentSummary> {
  const latest = [...i.updates].sort((a, b) => b.at - a.at)[0];
  return {
    id: i.id,
    service: i.serviceSlug,
    title: i.title,
    status: i.status,
    impact: i.impact,
    startedAt: toIso(i.startedAt),
    updatedAt: toIso(i.updatedAt),
    resolvedAt: toIso(i.resolvedAt),
    url: i.url,
    components: [...i.components],
    latestUpdate: latest
      ? { at: toIso(latest.at), status: latest.status, body: latest.body }
      : null,
  };
}
