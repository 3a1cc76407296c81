/**
 * A service as statusd shows it outside: as lists show it, in full (components, open incidents,
 * time to resolve, statusd's own eyes), and its components.
 * @module
 */
import { z } from "zod";
import {
  CATEGORIES,
  type Component,
  type EpochMs,
  type OwnEyes,
  PLATFORMS,
  type Service,
  type ServiceDetail,
  toIso,
} from "../domain/mod.ts";
import { StatusLevelSchema, Timestamp } from "./basics.ts";
import { incidentJson, IncidentSchema } from "./incident.ts";
import { EarlyWarningSchema, TrackRecordSchema } from "./own_eyes.ts";
import { readingJson, ReadingSchema } from "./reading.ts";
import { timeToResolveJson, TimeToResolveSchema } from "./resolution.ts";

/** A service as lists return it. */
export const ServiceSchema = z.object({
  name: z.string().meta({ description: "Vendor display name", example: "GitHub" }),
  slug: z.string().meta({ description: "Identifier used in paths", example: "github" }),
  currentStatus: StatusLevelSchema,
  uptimePercent: z.number().nullable().meta({
    description:
      "30-day uptime in percent (3 decimals): MAJOR_OUTAGE time is down, PARTIAL_OUTAGE time " +
      "counts 30 % down, degraded and maintenance time count as up, UNKNOWN time is left out. " +
      "Null while nothing has been observed.",
    example: 99.874,
  }),
  uptimeObservedSeconds: z.number().int().meta({
    description: "How much of the 30 days behind `uptimePercent` statusd actually observed, in " +
      "seconds (2592000 for the whole window): less after a fresh start or while the vendor " +
      "could not be read, and then the figure covers only that time",
    example: 2592000,
  }),
  category: z.enum(CATEGORIES).meta({ description: "Catalog category", example: "devtools" }),
  provider: z.string().meta({
    description: "Slug of the owning company (e.g. `google` owns `google-cloud`)",
    example: "github",
  }),
  statusPageUrl: z.string().meta({ description: "The vendor's official status page" }),
  platform: z.enum(PLATFORMS).meta({ description: "Status-page platform statusd reads" }),
  lastCheckedAt: Timestamp.nullable().meta({
    description: "Last time statusd fetched the vendor's page, successfully or not (see " +
      "`reading`); null before the first fetch",
  }),
  lastChangedAt: Timestamp.nullable().meta({
    description: "Last time the service's status changed; null if never",
  }),
  reading: ReadingSchema,
}).meta({ description: "A vendor and its current normalised status" });

/** A component (region or subsystem). */
export const ComponentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: StatusLevelSchema,
  group: z.string().nullable().meta({
    description: "Name of its group, if the vendor groups components",
  }),
  updatedAt: Timestamp.meta({ description: "Last time its status changed or was first seen" }),
}).meta({ description: "A region or subsystem of a service, with its own status" });

/** One service in full. */
export const ServiceDetailSchema = ServiceSchema.extend({
  components: z.array(ComponentSchema),
  incidents: z.array(IncidentSchema).meta({
    description: "Open incidents and maintenances, newest first",
  }),
  timeToResolve: TimeToResolveSchema,
  earlyWarning: EarlyWarningSchema.nullable().meta({
    description: "statusd's own observation (its probes of the vendor's endpoints and " +
      "members' reports), kept apart from the vendor's status; null when it sees nothing",
  }),
  trackRecord: TrackRecordSchema,
  probeTargets: z.array(z.object({
    url: z.string(),
    lastAnswer: z.enum(["up", "down", "refused"]).nullable().meta({
      description: "`up`: answered below 500; `down`: no answer, or 5xx; `refused`: an " +
        "address statusd may not reach; null: not probed yet",
    }),
    since: z.string().nullable().meta({
      format: "date-time",
      description: "Since when it has answered so",
    }),
  })).meta({
    description: "What statusd's own probes check of the vendor (the catalog's probe URLs, else " +
      "its domains' sites) and each target's last answer",
  }),
}).meta({
  description: "One service with its components, open incidents and typical time to resolve",
});

/** A service as JSON. */
export function serviceJson(s: Service): z.infer<typeof ServiceSchema> {
  return {
    name: s.name,
    slug: s.slug,
    currentStatus: s.currentStatus,
    uptimePercent: s.uptimePercent,
    uptimeObservedSeconds: Math.floor(s.uptimeObservedMs / 1000),
    category: s.category,
    provider: s.provider,
    statusPageUrl: s.statusPageUrl,
    platform: s.platform,
    lastCheckedAt: toIso(s.lastCheckedAt),
    lastChangedAt: toIso(s.lastChangedAt),
    reading: readingJson(s.reading),
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

/** One service in full as JSON. */
export function serviceDetailJson(
  s: ServiceDetail,
  eyes: OwnEyes,
  now: EpochMs,
): z.infer<typeof ServiceDetailSchema> {
  return {
    ...serviceJson(s),
    components: s.components.map(componentJson),
    incidents: s.incidents.map((i) => incidentJson(i, now)),
    timeToResolve: timeToResolveJson(s.timeToResolve),
    earlyWarning: eyes.earlyWarning === null
      ? null
      : { ...eyes.earlyWarning, probes: { ...eyes.earlyWarning.probes } },
    trackRecord: { ...eyes.trackRecord, backdatedIncidents: eyes.backdated.total },
    probeTargets: eyes.targets.map((t) => ({
      url: t.url,
      lastAnswer: t.lastAnswer,
      since: t.since === null ? null : toIso(t.since)!,
    })),
  };
}
