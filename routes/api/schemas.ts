/**
 * Response and query models of the public API (zod, with OpenAPI names and descriptions), and
 * the mappers that turn domain values into them: the one place epoch milliseconds become
 * ISO 8601 UTC text.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { OwnEyes, ProviderOverview, ServiceHistory, ServiceUptime } from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  CATEGORIES,
  type Change,
  type Component,
  type EpochMs,
  IMPACTS,
  type Incident,
  INCIDENT_STATUSES,
  overrunJson,
  type Page,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PLATFORMS,
  type Reading,
  READING_ERROR_KINDS,
  READING_NOTES_MAX,
  READING_STATES,
  RESOLUTION_IMPACTS,
  type ResolutionImpact,
  REVISION_KINDS,
  revisionsJson,
  type Service,
  type ServiceDetail,
  type StatusLevel,
  type TimeToResolve,
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

/** A reading state, with what each means. */
export const ReadingStateSchema = z.enum(READING_STATES).openapi("ReadingState", {
  description: "Whether statusd can read the vendor, in one word:\n" +
    "- `fresh`: the latest poll succeeded and the last good reading is recent.\n" +
    "- `stale`: no failure recorded, but the last good reading is older than three stable poll " +
    "intervals (15 min by default): statusd has not polled it since (poller stopped or behind).\n" +
    "- `failing`: the latest poll failed; `error` says why and since when. The service keeps " +
    "its last known status for three poll intervals, then reads UNKNOWN.\n" +
    "- `unsupported`: the vendor publishes no machine-readable status statusd can read (platform " +
    "`html`, or detection found none); `summary` says why. Its status stays UNKNOWN.\n" +
    "- `never_read`: statusd has not polled it yet.",
  example: "failing",
});

/** Why a reading failed. */
export const ReadingErrorKindSchema = z.enum(READING_ERROR_KINDS).openapi("ReadingErrorKind", {
  description: "Why the latest polls failed:\n" +
    "- `network`: no connection (DNS, refused, reset).\n" +
    "- `timeout`: no complete answer within the fetch timeout.\n" +
    "- `http_status`: the vendor answered an HTTP error status (in `httpStatus`).\n" +
    "- `too_large`: the body exceeded the size cap.\n" +
    "- `redirect_loop`: a redirect loop or too many redirects.\n" +
    "- `refused_address`: the URL, a redirect or its DNS answer pointed at a loopback or " +
    "private address the self-hoster did not allow.\n" +
    "- `not_machine_readable`: not a status document (binary, or an HTML page where JSON or a " +
    "feed was due).\n" +
    "- `bad_payload`: a document of the wrong shape; the message names the path.\n" +
    "- `parse_error`: the document could not be decoded at all (not JSON, malformed XML).",
  example: "timeout",
});

/** Reading health of one vendor. */
export const ReadingSchema = z.object({
  state: ReadingStateSchema,
  summary: z.string().openapi({
    description: "The reading in one line of words",
    example: "failing: timeout since 2026-11-20 12:03 UTC (3 attempts in a row): no complete " +
      "answer in time",
  }),
  lastAttemptAt: Timestamp.nullable().openapi({
    description: "Last poll of the vendor, successful or not; null before the first",
  }),
  lastSuccessAt: Timestamp.nullable().openapi({
    description: "Last successful reading (a new document or an unchanged one); null if none",
  }),
  consecutiveFailures: z.number().int().openapi({
    description: "Polls that failed in a row since the last success (0 when the latest worked)",
    example: 3,
  }),
  error: z.object({
    kind: ReadingErrorKindSchema,
    httpStatus: z.number().int().nullable().openapi({
      description: "HTTP status the vendor answered, when it answered one",
      example: 503,
    }),
    message: z.string().openapi({ description: "What went wrong, in a few words" }),
    since: Timestamp.openapi({
      description: "First failed poll of this run of the same kind (and HTTP status)",
    }),
  }).nullable().openapi("ReadingError", {
    description: "Why the latest polls failed; null unless the state is `failing`",
  }),
  notes: z.array(z.string()).openapi({
    description: `What the latest successful reading left out (a malformed item dropped, a ` +
      `list capped), with the path in the vendor's document; at most ${READING_NOTES_MAX}`,
  }),
  redetection: z.object({
    at: Timestamp,
    from: z.enum(PLATFORMS).openapi({ description: "The platform that kept failing" }),
    to: z.enum(PLATFORMS).openapi({
      description: "What detection found; `unknown` when nothing matched (statusd keeps " +
        "reading the vendor as `from`)",
    }),
  }).nullable().openapi("Redetection", {
    description: "The last time statusd detected the vendor's platform again because its " +
      "platform's endpoint kept failing (404, or a document of another shape, 5 polls in a " +
      "row; at most once a day); null if never",
  }),
}).openapi("Reading", {
  description: "Reading health: whether statusd can read the vendor's status page, and if not, " +
    "why and since when",
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
  uptimeObservedSeconds: z.number().int().openapi({
    description: "How much of the 30 days behind `uptimePercent` statusd actually observed, in " +
      "seconds (2592000 for the whole window): less after a fresh start or while the vendor " +
      "could not be read, and then the figure covers only that time",
    example: 2592000,
  }),
  category: z.enum(CATEGORIES).openapi({ description: "Catalog category", example: "devtools" }),
  provider: z.string().openapi({
    description: "Slug of the owning company (e.g. `google` owns `google-cloud`)",
    example: "github",
  }),
  statusPageUrl: z.string().openapi({ description: "The vendor's official status page" }),
  platform: z.enum(PLATFORMS).openapi({ description: "Status-page platform statusd reads" }),
  lastCheckedAt: Timestamp.nullable().openapi({
    description: "Last time statusd fetched the vendor's page, successfully or not (see " +
      "`reading`); null before the first fetch",
  }),
  lastChangedAt: Timestamp.nullable().openapi({
    description: "Last time the service's status changed; null if never",
  }),
  reading: ReadingSchema,
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
  scheduledStartAt: Timestamp.nullable().openapi({
    description: "Maintenance: planned start as the vendor announced it; null when not published",
  }),
  scheduledEndAt: Timestamp.nullable().openapi({
    description: "Maintenance: planned end as the vendor announced it; null when not published",
  }),
  revisions: z.array(z.object({
    at: Timestamp.openapi({ description: "When statusd saw the rewrite" }),
    kind: z.enum(REVISION_KINDS).openapi({
      description: "update_edited: an update's text changed; impact_lowered: the impact was " +
        "lowered after the incident ended; start_moved: its start time changed; removed: the " +
        "vendor took it off its page (before: its title); restored: it is listed again",
    }),
    before: z.string().openapi({ description: "What the vendor had published" }),
    after: z.string().openapi({ description: "What it publishes now" }),
  })).openapi({
    description: "What the vendor rewrote of this incident after publishing it, oldest " +
      "first, with what statusd saw before (at most 20)",
  }),
  removedAt: Timestamp.nullable().openapi({
    description: "When statusd saw the vendor take it off its status page while newer " +
      "incidents stayed listed (it is kept, with what it said); null while it is listed",
  }),
  overrun: z.object({
    since: Timestamp.openapi({ description: "The announced end it went past" }),
    seconds: z.number().int().openapi({ description: "How long past it, at the answer's time" }),
  }).nullable().openapi({
    description: "A maintenance past its announced end that the vendor has not closed (it " +
      "still counts as under way); null for anything else",
  }),
}).openapi("Incident", { description: "An incident or maintenance as the vendor published it" });

const ResolutionFigureSchema = z.object({
  incidents: z.number().int().openapi({ description: "Incidents counted (the sample size)" }),
  p50Minutes: z.number().nullable().openapi({
    description: "Median minutes from start to resolution (1 decimal); null when none",
    example: 38,
  }),
  p90Minutes: z.number().nullable().openapi({
    description: "90th percentile minutes (nearest rank, 1 decimal); null when none",
    example: 130,
  }),
}).openapi("ResolutionFigure", { description: "How long a set of incidents took to resolve" });

/** Typical time to resolve. */
export const TimeToResolveSchema = z.object({
  windowDays: z.number().int().openapi({
    description: "Incidents resolved within this many days are counted",
    example: 90,
  }),
  all: ResolutionFigureSchema.openapi({ description: "Every counted incident" }),
  byImpact: z.object(
    Object.fromEntries(RESOLUTION_IMPACTS.map((i) => [i, ResolutionFigureSchema])) as Record<
      ResolutionImpact,
      typeof ResolutionFigureSchema
    >,
  ).openapi({ description: "Per impact (every impact present; none counted gives nulls)" }),
}).openapi("TimeToResolve", {
  description: "The vendor's typical time to resolve: p50 and p90 of how long its incidents " +
    "resolved in the last 90 days lasted (start to resolution, as the vendor published them), " +
    "overall and per impact. Maintenance is left out. E.g. `byImpact.MAJOR.p50Minutes` 38 " +
    "and `p90Minutes` 130: its major incidents usually resolve in 38 min, 9 in 10 within " +
    "2 h 10 min.",
});

/** One service in full. */
/** statusd's own early warning of a service (never the vendor's status). */
export const EarlyWarningSchema = z.object({
  phase: z.enum(["suspected", "acknowledged"]).openapi({
    description: "`suspected`: statusd's probes or accounts' reports see trouble the vendor has " +
      "not admitted; `acknowledged`: statusd has since seen the vendor admit it (a reading " +
      "showing its status other than operational, or listing an incident)",
  }),
  since: z.string().openapi({ format: "date-time", description: "statusd's first evidence" }),
  suspectedAt: z.string().openapi({ format: "date-time" }),
  acknowledgedAt: z.string().nullable().openapi({
    format: "date-time",
    description: "When statusd first saw the vendor admit it (statusd's own reading, never a " +
      "date the vendor writes)",
  }),
  vendorClaimedStart: z.string().nullable().openapi({
    format: "date-time",
    description: "The start the vendor itself gives the incident that admitted it, kept beside " +
      "acknowledgedAt and never in its place (null: admitted by its status, or not yet)",
  }),
  delayMinutes: z.number().int().nullable().openapi({
    description: "Minutes from statusd's first evidence to the vendor's acknowledgement (0: " +
      "the vendor was first); null while it has not acknowledged",
  }),
  evidence: z.enum(["probes", "reports", "probes_and_reports"]),
  probes: z.object({
    failed: z.number().int(),
    total: z.number().int(),
    hosts: z.array(z.string()),
  }).openapi({ description: "The latest failing probe round" }),
  reporters: z.number().int().openapi({
    description: "`public`: independent accounts whose reports counted (each had monitored the " +
      "vendor for 7 days); `account`: your account's members who reported it in the last 30 " +
      "minutes",
  }),
  component: z.string().nullable().openapi({
    description: "`account` only: the component your account's latest report named",
  }),
  summary: z.string().openapi({
    example: "statusd's own checks have seen errors from api.example.com since 10:02 UTC " +
      "(8 of 10 failed); Example has not acknowledged it (its status page reads operational).",
  }),
  visibility: z.enum(["public", "account"]).openapi({
    description: "`public`: what anyone sees (statusd's probes, or reports of several " +
      "long-standing accounts); `account`: your account's own reports, which no one else sees",
  }),
  ownObservation: z.literal(true).openapi({
    description: "Always true: statusd's own observation, not the vendor's",
  }),
}).openapi("EarlyWarning");

/** How quickly the vendor admits trouble statusd saw itself (its acknowledgement grade). */
export const TrackRecordSchema = z.object({
  windowDays: z.number().int(),
  episodes: z.number().int().openapi({ description: "Episodes statusd saw itself, finished" }),
  unacknowledged: z.number().int().openapi({
    description: "Of them, never acknowledged by the vendor (each counts 240 min)",
  }),
  vendorFirst: z.number().int().openapi({
    description: "Of them, acknowledged by the vendor before statusd saw anything",
  }),
  averageDelayMinutes: z.number().nullable(),
  grade: z.enum(["A", "B", "C", "D", "F"]).nullable().openapi({
    description: "A under 15 min average delay, B 15–30 min, C 30 min–2 h, D 2–4 h, F over " +
      "4 h; null below 3 episodes",
  }),
  gradeNote: z.string().nullable(),
  backdatedIncidents: z.number().int().openapi({
    description: "Incidents of the window whose start, as the vendor gives it, is earlier than " +
      "statusd's last reading of the vendor's page before it first listed them (back-dated)",
  }),
}).openapi("TrackRecord");

export const ServiceDetailSchema = ServiceSchema.extend({
  components: z.array(ComponentSchema),
  incidents: z.array(IncidentSchema).openapi({
    description: "Open incidents and maintenances, newest first",
  }),
  timeToResolve: TimeToResolveSchema,
  earlyWarning: EarlyWarningSchema.nullable().openapi({
    description: "statusd's own observation (its probes of the vendor's endpoints and " +
      "members' reports), kept apart from the vendor's status; null when it sees nothing",
  }),
  trackRecord: TrackRecordSchema,
  probeTargets: z.array(z.object({
    url: z.string(),
    lastAnswer: z.enum(["up", "down", "refused"]).nullable().openapi({
      description: "`up`: answered below 500; `down`: no answer, or 5xx; `refused`: an " +
        "address statusd may not reach; null: not probed yet",
    }),
    since: z.string().nullable().openapi({
      format: "date-time",
      description: "Since when it has answered so",
    }),
  })).openapi({
    description: "What statusd's own probes check of the vendor (the catalog's probe URLs, else " +
      "its domains' sites) and each target's last answer",
  }),
}).openapi("ServiceDetail", {
  description: "One service with its components, open incidents and typical time to resolve",
});

export function pageSchema<T extends z.ZodType>(item: T, name: string, what: string) {
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
  days7: z.number().nullable().openapi({
    description: "Uptime percent over the last 7 days; null while less than a day was observed",
  }),
  days30: z.number().nullable().openapi({ description: "Uptime percent over the last 30 days" }),
  days90: z.number().nullable().openapi({ description: "Uptime percent over the last 90 days" }),
  note: z.string().nullable().openapi({
    description: "While less than a day was observed (the percentages are then null): what " +
      "the figures would have said nothing of",
    example: "not enough data yet (4 min observed)",
  }),
  mttrMinutes: z.number().nullable().openapi({
    description: "Mean time to recovery in minutes (1 decimal) of the disruptions that ended in " +
      "the last 90 days; null when none did",
  }),
  disruptions: z.number().int().openapi({
    description: "Disruptions that ended in the last 90 days (the MTTR sample size)",
  }),
  asOf: Timestamp.openapi({ description: "Window end the figures were computed for" }),
  observedSince: Timestamp.nullable().openapi({
    description: "First instant of the 90-day window with a known status (null when none): " +
      "the figures cover only time observed, so a later date means a shorter history than " +
      "the window",
  }),
  observedPercent: z.object({
    days7: z.number(),
    days30: z.number(),
    days90: z.number(),
  }).openapi({
    description: "Share of each window, in percent, during which statusd knew the status " +
      "(time UNKNOWN is left out of the uptime figures)",
  }),
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

/** Reading health as JSON. */
export function readingJson(r: Reading): z.infer<typeof ReadingSchema> {
  return {
    state: r.state,
    summary: r.summary,
    lastAttemptAt: toIso(r.lastAttemptAt),
    lastSuccessAt: toIso(r.lastSuccessAt),
    consecutiveFailures: r.consecutiveFailures,
    error: r.error && {
      kind: r.error.kind,
      httpStatus: r.error.httpStatus,
      message: r.error.message,
      since: toIso(r.error.since),
    },
    notes: [...r.notes],
    redetection: r.redetection &&
      { at: toIso(r.redetection.at), from: r.redetection.from, to: r.redetection.to },
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
export function incidentJson(i: Incident, now: EpochMs): z.infer<typeof IncidentSchema> {
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
    scheduledStartAt: toIso(i.scheduledStartAt),
    scheduledEndAt: toIso(i.scheduledEndAt),
    revisions: revisionsJson(i),
    removedAt: toIso(i.removedAt ?? null),
    overrun: overrunJson(i, now),
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

/** Typical time to resolve as JSON. */
export function timeToResolveJson(t: TimeToResolve): z.infer<typeof TimeToResolveSchema> {
  return {
    windowDays: t.windowDays,
    all: { ...t.all },
    byImpact: Object.fromEntries(
      RESOLUTION_IMPACTS.map((i) => [i, { ...t.byImpact[i] }]),
    ) as z.infer<typeof TimeToResolveSchema>["byImpact"],
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
  return {
    ...u,
    asOf: toIso(u.asOf),
    observedSince: toIso(u.observedSince),
    observedPercent: { ...u.observedPercent },
  };
}

/** A provider row as JSON. */
export function providerJson(p: ProviderOverview): z.infer<typeof ProviderRowSchema> {
  return { ...p };
}

/** A change as the `data` of an SSE event. */
export function changeJson(c: Change): Record<string, unknown> {
  return { ...c, at: toIso(c.at) };
}
