/**
 * A service's daily history and uptime as statusd shows them outside.
 * @module
 */
import { z } from "zod";
import { type ServiceHistory, type ServiceUptime, toIso } from "../domain/mod.ts";
import { StatusLevelSchema, Timestamp } from "./basics.ts";

/** One history entry. */
export const HistoryEntrySchema = z.object({
  date: z.string().meta({ format: "date", description: "UTC day", example: "2026-11-20" }),
  worstStatus: StatusLevelSchema.meta({
    description: "Worst level held at any moment of the day; UNKNOWN when nothing was observed",
  }),
});

/** Daily history of one service. */
export const HistorySchema = z.object({
  slug: z.string(),
  days: z.number().int(),
  entries: z.array(HistoryEntrySchema).meta({
    description: "One per UTC day, oldest first; the last is today so far",
  }),
});

/** Uptime record. */
export const UptimeSchema = z.object({
  slug: z.string(),
  days7: z.number().nullable().meta({
    description: "Uptime percent over the last 7 days; null while less than a day was observed",
  }),
  days30: z.number().nullable().meta({ description: "Uptime percent over the last 30 days" }),
  days90: z.number().nullable().meta({ description: "Uptime percent over the last 90 days" }),
  note: z.string().nullable().meta({
    description: "While less than a day was observed (the percentages are then null): what " +
      "the figures would have said nothing of",
    example: "not enough data yet (4 min observed)",
  }),
  mttrMinutes: z.number().nullable().meta({
    description: "Mean time to recovery in minutes (1 decimal) of the disruptions that ended in " +
      "the last 90 days; null when none did",
  }),
  disruptions: z.number().int().meta({
    description: "Disruptions that ended in the last 90 days (the MTTR sample size)",
  }),
  asOf: Timestamp.meta({ description: "Window end the figures were computed for" }),
  observedSince: Timestamp.nullable().meta({
    description: "First instant of the 90-day window with a known status (null when none): " +
      "the figures cover only time observed, so a later date means a shorter history than " +
      "the window",
  }),
  observedPercent: z.object({
    days7: z.number(),
    days30: z.number(),
    days90: z.number(),
  }).meta({
    description: "Share of each window, in percent, during which statusd knew the status " +
      "(time UNKNOWN is left out of the uptime figures)",
  }),
});

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
