/** `list_services`: the catalog with current status, filterable. */
import { z } from "zod";
import { listServices, SERVICE_SORTS, suggestSlugs } from "../../../app/mod.ts";
import { CATEGORIES, PAGE_LIMIT_MAX } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { ReadingStateSchema } from "../../../wire/mod.ts";
import { ServiceSummary, serviceSummary, Status } from "./_shapes.ts";

/** The tool. */
export const listServicesTool = defineTool({
  name: "list_services",
  title: "List services",
  description:
    "List monitored vendors (cloud, SaaS, AI APIs...) with their current normalised status and " +
    "30-day uptime. Filter by category, status (e.g. MAJOR_OUTAGE to see who is down) or a " +
    "search text `q` (best match first: exact and prefix matches of name and slug, initials " +
    "such as `aws`, then word starts, then any substring), or reading state (`reading: " +
    "failing` lists every vendor statusd cannot read right now). `sort: slowest_to_admit` " +
    "lists the vendors with an acknowledgement grade, slowest to admit trouble statusd saw " +
    "itself first (get_service_status gives each one's trackRecord). Use it to find a " +
    "vendor's slug for the other tools.",
  scopes: ["status:read"],
  input: z.object({
    category: z.enum(CATEGORIES).optional().describe("Only this category"),
    status: Status.optional().describe("Only vendors currently at this level"),
    q: z.string().trim().min(1).max(100).optional().describe(
      "Search text; results are ranked best match first",
    ),
    reading: ReadingStateSchema.optional().describe("Only vendors whose reading is in this state"),
    sort: z.enum(SERVICE_SORTS).default("name").describe(
      "name, or slowest_to_admit: graded vendors only, the longest average delay first",
    ),
    limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(50).describe("Page size"),
    page: z.number().int().min(0).default(0).describe("0-based page"),
  }),
  output: z.object({
    services: z.array(ServiceSummary),
    total: z.number().int(),
    page: z.number().int(),
    totalPages: z.number().int(),
    didYouMean: z.array(z.string()).optional().describe(
      "When a search text matched nothing: the closest slugs. A vendor statusd does not list " +
        "can be added by its status page URL with add_vendor.",
    ),
  }),
  async run(ctx, caller, args) {
    const result = await listServices(
      ctx,
      {
        account: caller.account.id,
        category: args.category,
        status: args.status,
        q: args.q,
        reading: args.reading,
        sort: args.sort,
      },
      { page: args.page, limit: args.limit },
    );
    const nothing = result.totalElements === 0 && args.q !== undefined && args.q.trim() !== "";
    return {
      services: result.content.map(serviceSummary),
      total: result.totalElements,
      page: result.page,
      totalPages: result.totalPages,
      ...(nothing ? { didYouMean: await suggestSlugs(ctx, args.q!) } : {}),
    };
  },
});
