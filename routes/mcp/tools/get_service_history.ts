/** `get_service_history`: worst status per UTC day, up to 90 days. */
import { z } from "zod";
import { HISTORY_MAX_DAYS, serviceHistory } from "../../../app/mod.ts";
import { toIso } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug, Status } from "./_shapes.ts";

/** The tool. */
export const getServiceHistoryTool = defineTool({
  name: "get_service_history",
  title: "Status history",
  description:
    "Worst status of one vendor for each UTC day over the last `days` days (1 to 90, today " +
    "included), oldest first. UNKNOWN means nothing was observed that day.",
  scopes: ["status:read"],
  input: z.object({
    slug: Slug,
    days: z.number().int().min(1).max(HISTORY_MAX_DAYS).default(30),
  }),
  output: z.object({
    slug: z.string(),
    days: z.number().int(),
    entries: z.array(z.object({ date: z.string(), worstStatus: Status })),
  }),
  async run(ctx, caller, { slug, days }) {
    const h = await serviceHistory(ctx, caller, slug, days);
    return {
      slug: h.slug,
      days: h.days,
      entries: h.entries.map((e) => ({
        date: toIso(e.day).slice(0, 10),
        worstStatus: e.worstStatus,
      })),
    };
  },
});
