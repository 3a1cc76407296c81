/** `get_service_history`: worst status per UTC day, up to 90 days. */
import { z } from "zod";
import { HISTORY_MAX_DAYS, serviceHistory } from "../../../app/mod.ts";
import { historyJson, HistorySchema } from "../../../wire/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug } from "./_shapes.ts";

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
  output: HistorySchema,
  async run(ctx, caller, { slug, days }) {
    return historyJson(await serviceHistory(ctx, caller, slug, days));
  },
});
