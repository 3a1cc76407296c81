/**
 * Output pieces several tools share, and their mappers from the verbs' records (instants
 * become ISO 8601 UTC text here).
 * @module
 */
import { z } from "zod";
import {
  ALL_STATUS_LEVELS,
  type EpochMs,
  type Incident,
  overrunJson,
  PLATFORMS,
  type Reading,
  READING_ERROR_KINDS,
  READING_STATES,
  RESOLUTION_IMPACTS,
  type ResolutionImpact,
  revisionsJson,
  type Service,
  type StatusLevel,
  type TimeToResolve,
  toIso,
  uptimeSpanWords,
} from "../../../domain/mod.ts";

/** A status level. */
export const Status = z.enum(ALL_STATUS_LEVELS as [StatusLevel, ...StatusLevel[]]);

/** A vendor slug as tools accept it. */
export const Slug = z.string().trim().min(1).max(100).describe(
  "Vendor slug, e.g. github (from list_services)",
);

/** ISO 8601 UTC instant, or null. */
const When = z.string().nullable();

/** A reading state. */
export const ReadingStateEnum = z.enum(READING_STATES).describe(
  "fresh: read recently; stale: last good reading older than three stable intervals, no poll " +
    "since; failing: the latest poll failed (see error); unsupported: the vendor publishes no " +
    "machine-readable status; never_read: not polled yet",
);

/** Reading health in full (the REST `Reading` object). */
export const ReadingShape = z.object({
  state: ReadingStateEnum,
  summary: z.string().describe("The reading in one line of words"),
  lastAttemptAt: When,
  lastSuccessAt: When,
  consecutiveFailures: z.number().int(),
  error: z.object({
    kind: z.enum(READING_ERROR_KINDS),
    httpStatus: z.number().int().nullable(),
    message: z.string(),
    since: z.string(),
  }).nullable().describe("Why the latest polls failed; null unless failing"),
  notes: z.array(z.string()).describe("What the latest reading left out"),
  redetection: z.object({
    at: z.string(),
    from: z.enum(PLATFORMS),
    to: z.enum(PLATFORMS),
  }).nullable().describe("Last re-detection of the platform after repeated misses"),
});

/** Maps reading health. */
export function readingShape(r: Reading): z.input<typeof ReadingShape> {
  return {
    state: r.state,
    summary: r.summary,
    lastAttemptAt: toIso(r.lastAttemptAt),
    lastSuccessAt: toIso(r.lastSuccessAt),
    consecutiveFailures: r.consecutiveFailures,
    error: r.error &&
      {
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

/** One service, as lists show it. */
export const ServiceSummary = z.object({
  slug: z.string(),
  name: z.string(),
  status: Status,
  category: z.string(),
  provider: z.string(),
  uptimePercent30d: z.number().nullable().describe("30-day uptime percent; null when unobserved"),
  uptimeCovers: z.string().describe(
    'What the uptime figure covers: "30-day", or "over the 3 h observed" when statusd ' +
      "observed less of the 30 days",
  ),
  statusPageUrl: z.string(),
  lastChangedAt: When,
  reading: z.object({ state: ReadingStateEnum, summary: z.string() }).describe(
    "Can statusd read this vendor (get_service_status has the details)",
  ),
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
    uptimeCovers: uptimeSpanWords(s.uptimeObservedMs, 30),
    statusPageUrl: s.statusPageUrl,
    lastChangedAt: toIso(s.lastChangedAt),
    reading: { state: s.reading.state, summary: s.reading.summary },
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
  revisions: z.array(z.object({
    at: z.string(),
    kind: z.string(),
    before: z.string(),
    after: z.string(),
  })).describe(
    "What the vendor rewrote of this incident after publishing it (update_edited, " +
      "impact_lowered, start_moved, removed, restored), with what it said before",
  ),
  removedAt: When.describe(
    "When the vendor took it off its status page while newer incidents stayed listed; " +
      "null while it is listed",
  ),
  overrun: z.object({ since: z.string(), seconds: z.number().int() }).nullable().describe(
    "A maintenance past its announced end that the vendor has not closed: the end it went " +
      "past and by how many seconds; null otherwise",
  ),
});

/** Maps an incident (the timeline shrinks to its latest update). */
export function incidentSummary(i: Incident, now: EpochMs): z.input<typeof IncidentSummary> {
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
    revisions: revisionsJson(i),
    removedAt: toIso(i.removedAt ?? null),
    overrun: overrunJson(i, now),
  };
}

const ResolutionFigure = z.object({
  incidents: z.number().int().describe("Incidents counted"),
  p50Minutes: z.number().nullable().describe("Median minutes to resolve; null when none"),
  p90Minutes: z.number().nullable().describe("90th percentile minutes; null when none"),
});

/** Typical time to resolve (the REST `TimeToResolve` object). */
export const TimeToResolveShape = z.object({
  windowDays: z.number().int().describe("Incidents resolved within this many days count"),
  all: ResolutionFigure,
  byImpact: z.object(
    Object.fromEntries(RESOLUTION_IMPACTS.map((i) => [i, ResolutionFigure])) as Record<
      ResolutionImpact,
      typeof ResolutionFigure
    >,
  ),
}).describe(
  "How long the vendor's incidents took to resolve (start to resolution; maintenance left out)",
);

/** Maps typical time to resolve. */
export function timeToResolveShape(t: TimeToResolve): z.input<typeof TimeToResolveShape> {
  return {
    windowDays: t.windowDays,
    all: { ...t.all },
    byImpact: Object.fromEntries(
      RESOLUTION_IMPACTS.map((i) => [i, { ...t.byImpact[i] }]),
    ) as z.input<
      typeof TimeToResolveShape
    >["byImpact"],
  };
}
