/** `list_incidents`: active or recent incidents across vendors, or for one vendor. */
import { z } from "zod";
import { listIncidents } from "../../../app/mod.ts";
import { DAY_MS } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { IncidentSummary, incidentSummary, Slug } from "./_shapes.ts";

/** The tool. */
export const listIncidentsTool = defineTool({
  name: "list_incidents",
  title: "Incidents",
  description:
    "Incidents and maintenances, newest first. `which: active` (default) lists unresolved ones; " +
    "`which: recent` lists those updated in the last `days` days, resolved or not. Optionally " +
    "only one vendor (`service` slug). Each has its latest update.",
  scopes: ["incidents:read"],
  input: z.object({
    which: z.enum(["active", "recent"]).default("active"),
    service: Slug.optional().describe("Only this vendor's incidents"),
    days: z.number().int().min(1).max(90).default(7).describe("Window of `recent`"),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  output: z.object({
    incidents: z.array(IncidentSummary),
    total: z.number().int(),
  }),
  async run(ctx, _caller, args) {
    const page = await listIncidents(ctx, {
      active: args.which === "active" ? true : undefined,
      service: args.service,
      since: args.which === "recent" ? ctx.clock.now() - args.days * DAY_MS : undefined,
    }, { page: 0, limit: args.limit });
    return {
      incidents: page.content.map((i) => incidentSummary(i, ctx.clock.now())),
      total: page.totalElements,
    };
  },
});
