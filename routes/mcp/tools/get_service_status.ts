/** `get_service_status`: one vendor's current status, components at a glance, open incidents. */
import { z } from "zod";
import { getService, ownEyesOf } from "../../../app/mod.ts";
import { holdsScope, toIso } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import {
  EarlyWarningSchema,
  readingJson,
  ReadingSchema,
  timeToResolveJson,
  TimeToResolveSchema,
  TrackRecordSchema,
} from "../../../wire/mod.ts";
import {
  IncidentSummary,
  incidentSummary,
  ServiceSummary,
  serviceSummary,
  Slug,
  Status,
} from "./_shapes.ts";

/** The tool. */
export const getServiceStatusTool = defineTool({
  name: "get_service_status",
  title: "Service status",
  description:
    "Current normalised status of one vendor by slug (e.g. github): overall level, when it " +
    "last changed, which components are not operational, open incidents (listed when the " +
    "caller holds incidents:read), and its reading health: whether statusd can read the " +
    "vendor's page right now and, if not, why (timeout, HTTP 503, bad payload…) and since " +
    "when. An UNKNOWN status with reading.state failing or unsupported means statusd cannot " +
    "tell, not that the vendor is down. timeToResolve gives the vendor's typical time to " +
    "resolve: p50 and p90 minutes of its incidents resolved in the last 90 days, overall and " +
    "per impact (e.g. byImpact.MAJOR p50Minutes 38, p90Minutes 130: major incidents usually " +
    "resolve in 38 min, 9 in 10 within 2 h 10 min). earlyWarning is statusd's own " +
    "observation, never the vendor's: its probes of the vendor's endpoints failing or members' " +
    "reports (phase suspected; acknowledged once the vendor admits it, with delayMinutes); null " +
    "when it sees nothing. trackRecord grades how quickly the vendor admits trouble statusd saw " +
    "itself over 90 days (A under 15 min average … F over 4 h; null grade below 3 episodes). " +
    "Unknown slugs get close matches.",
  scopes: ["status:read"],
  input: z.object({ slug: Slug }),
  output: ServiceSummary.extend({
    lastCheckedAt: z.string().nullable(),
    reading: ReadingSchema,
    components: z.object({
      total: z.number().int(),
      notOperational: z.array(
        z.object({ name: z.string(), group: z.string().nullable(), status: Status }),
      ),
    }),
    openIncidents: z.array(IncidentSummary).nullable().describe(
      "null when the caller lacks incidents:read",
    ),
    timeToResolve: TimeToResolveSchema,
    earlyWarning: EarlyWarningSchema.pick({
      phase: true,
      since: true,
      acknowledgedAt: true,
      delayMinutes: true,
      evidence: true,
      summary: true,
      visibility: true,
      ownObservation: true,
    }).nullable(),
    trackRecord: TrackRecordSchema.pick({
      windowDays: true,
      episodes: true,
      unacknowledged: true,
      averageDelayMinutes: true,
      grade: true,
      gradeNote: true,
      backdatedIncidents: true,
    }),
  }),
  async run(ctx, caller, { slug }) {
    const [s, eyes] = await Promise.all([getService(ctx, slug), ownEyesOf(ctx, slug, caller)]);
    const w = eyes.earlyWarning;
    return {
      ...serviceSummary(s),
      lastCheckedAt: toIso(s.lastCheckedAt),
      reading: readingJson(s.reading),
      components: {
        total: s.components.length,
        notOperational: s.components
          .filter((c) => c.status !== "OPERATIONAL")
          .map((c) => ({ name: c.name, group: c.group, status: c.status })),
      },
      openIncidents: holdsScope(caller, "incidents:read")
        ? s.incidents.map((i) => incidentSummary(i, ctx.clock.now()))
        : null,
      timeToResolve: timeToResolveJson(s.timeToResolve),
      earlyWarning: w === null ? null : {
        phase: w.phase,
        since: w.since,
        acknowledgedAt: w.acknowledgedAt,
        delayMinutes: w.delayMinutes,
        evidence: w.evidence,
        summary: w.summary,
        visibility: w.visibility,
        ownObservation: true as const,
      },
      trackRecord: {
        windowDays: eyes.trackRecord.windowDays,
        episodes: eyes.trackRecord.episodes,
        unacknowledged: eyes.trackRecord.unacknowledged,
        averageDelayMinutes: eyes.trackRecord.averageDelayMinutes,
        grade: eyes.trackRecord.grade,
        gradeNote: eyes.trackRecord.gradeNote,
        backdatedIncidents: eyes.backdated.total,
      },
    };
  },
});
