/**
 * `get_uptime_report`: uptime, MTTR and SLA compliance of one vendor over 7, 30 or 90 days
 * (or any `days` from 1 to 90), against the caller's account SLA target.
 */
import { z } from "zod";
import { serviceUptime, SLA_DAYS, slaReport } from "../../../app/mod.ts";
import { InvalidRequest, toIso, uptimeSpanWords } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug } from "./_shapes.ts";

const RANGES = { "7d": 7, "30d": 30, "90d": 90 } as const;

/** The tool. */
export const getUptimeReportTool = defineTool({
  name: "get_uptime_report",
  title: "Uptime report",
  description:
    "Uptime percent, MTTR (mean minutes to recovery) and SLA compliance of one vendor over a " +
    "range: `range` 7d, 30d or 90d, or `days` (1 to 90; default 30). Compliance compares the " +
    "uptime with your account's SLA target and lists the days and rolling 7-day windows that " +
    "fell below it. Also returns the standard 7/30/90-day uptime figures.",
  scopes: ["status:read", "sla:read"],
  input: z.object({
    slug: Slug,
    range: z.enum(["7d", "30d", "90d"]).optional().describe("A standard window"),
    days: z.number().int().min(SLA_DAYS.min).max(SLA_DAYS.max).optional().describe(
      "Any window from 1 to 90 days (instead of range)",
    ),
  }),
  output: z.object({
    slug: z.string(),
    name: z.string(),
    days: z.number().int(),
    from: z.string(),
    to: z.string(),
    uptimePercent: z.number().nullable().describe("null while less than a day was observed"),
    note: z.string().nullable().describe(
      "while less than a day was observed: `not enough data yet (4 min observed)`",
    ),
    uptimeCovers: z.string().describe(
      "What the uptime covers: `30-day` when the whole window was observed, else `over the " +
        "3 h 10 min observed` (a figure from hours of watching is not a month's)",
    ),
    mttrMinutes: z.number().nullable(),
    sla: z.object({
      targetPercent: z.number(),
      met: z.boolean().nullable(),
      allowedDowntimeMinutes: z.number(),
      breaches: z.array(z.object({
        kind: z.enum(["day", "rolling"]),
        start: z.string(),
        end: z.string(),
        uptimePercent: z.number(),
        incidents: z.array(z.string()),
      })),
    }),
    standard: z.object({
      days7: z.number().nullable(),
      days30: z.number().nullable(),
      days90: z.number().nullable(),
      mttrMinutes90d: z.number().nullable(),
      disruptions90d: z.number().int(),
    }),
  }),
  async run(ctx, caller, args) {
    if (args.range !== undefined && args.days !== undefined && RANGES[args.range] !== args.days) {
      throw new InvalidRequest([{ parameter: "days", message: "give either range or days" }]);
    }
    const days = args.days ?? (args.range ? RANGES[args.range] : SLA_DAYS.default);
    const r = await slaReport(ctx, caller, args.slug, days);
    const u = await serviceUptime(ctx, caller, r.slug);
    return {
      slug: r.slug,
      name: r.name,
      days: r.days,
      from: toIso(r.windowStart),
      to: toIso(r.windowEnd),
      uptimePercent: r.uptimePercent,
      note: r.note,
      uptimeCovers: uptimeSpanWords(r.observedMs, r.days),
      mttrMinutes: r.mttrMinutes,
      sla: {
        targetPercent: r.targetPercent,
        met: r.met,
        allowedDowntimeMinutes: Math.round(days * 1440 * (100 - r.targetPercent)) / 100,
        breaches: r.breaches.map((b) => ({
          kind: b.kind,
          start: toIso(b.start),
          end: toIso(b.end),
          uptimePercent: Math.round(b.uptimePercent * 1000) / 1000,
          incidents: b.incidents.map((i) => i.title),
        })),
      },
      standard: {
        days7: u.days7,
        days30: u.days30,
        days90: u.days90,
        mttrMinutes90d: u.mttrMinutes,
        disruptions90d: u.disruptions,
      },
    };
  },
});
