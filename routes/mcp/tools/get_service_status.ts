/** `get_service_status`: one vendor's current status, components at a glance, open incidents. */
import { z } from "zod";
import { getService } from "../../../app/mod.ts";
import { holdsScope, toIso } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import {
  IncidentSummary,
  incidentSummary,
  ReadingShape,
  readingShape,
  ServiceSummary,
  serviceSummary,
  Slug,
  Status,
  TimeToResolveShape,
  timeToResolveShape,
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
    "resolve in 38 min, 9 in 10 within 2 h 10 min). Unknown slugs get close matches.",
  scopes: ["status:read"],
  input: z.object({ slug: Slug }),
  output: ServiceSummary.extend({
    lastCheckedAt: z.string().nullable(),
    reading: ReadingShape,
    components: z.object({
      total: z.number().int(),
      notOperational: z.array(
        z.object({ name: z.string(), group: z.string().nullable(), status: Status }),
      ),
    }),
    openIncidents: z.array(IncidentSummary).nullable().describe(
      "null when the caller lacks incidents:read",
    ),
    timeToResolve: TimeToResolveShape,
  }),
  async run(ctx, caller, { slug }) {
    const s = await getService(ctx, slug);
    return {
      ...serviceSummary(s),
      lastCheckedAt: toIso(s.lastCheckedAt),
      reading: readingShape(s.reading),
      components: {
        total: s.components.length,
        notOperational: s.components
          .filter((c) => c.status !== "OPERATIONAL")
          .map((c) => ({ name: c.name, group: c.group, status: c.status })),
      },
      openIncidents: holdsScope(caller, "incidents:read")
        ? s.incidents.map((i) => incidentSummary(i, ctx.clock.now()))
        : null,
      timeToResolve: timeToResolveShape(s.timeToResolve),
    };
  },
});
