/** `get_component_status`: the components (regions, subsystems) inside one vendor. */
import { z } from "zod";
import { getService } from "../../../app/mod.ts";
import { NotFound, toIso } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug, Status } from "./_shapes.ts";

/** The tool. */
export const getComponentStatusTool = defineTool({
  name: "get_component_status",
  title: "Component status",
  description:
    "Current status of the components inside one vendor (regions, products, subsystems), " +
    "optionally only those whose name or group contains `component` (case-insensitive), or " +
    "only those at a given `status`.",
  scopes: ["status:read"],
  input: z.object({
    slug: Slug,
    component: z.string().trim().min(1).max(200).optional().describe(
      "Substring of the component or group name, e.g. us-east-1 or API",
    ),
    status: Status.optional().describe("Only components at this level"),
  }),
  output: z.object({
    slug: z.string(),
    name: z.string(),
    serviceStatus: Status,
    total: z.number().int().describe("Components the vendor has"),
    components: z.array(z.object({
      id: z.string(),
      name: z.string(),
      group: z.string().nullable(),
      status: Status,
      updatedAt: z.string(),
    })),
  }),
  async run(ctx, _caller, args) {
    const s = await getService(ctx, args.slug);
    const needle = args.component?.toLowerCase();
    const named = needle === undefined
      ? s.components
      : s.components.filter((c) =>
        c.name.toLowerCase().includes(needle) || (c.group ?? "").toLowerCase().includes(needle)
      );
    if (needle !== undefined && named.length === 0) {
      throw new NotFound(
        `component of ${s.slug}`,
        args.component!,
        s.components.slice(0, 5).map((c) => c.name),
      );
    }
    const picked = args.status ? named.filter((c) => c.status === args.status) : named;
    return {
      slug: s.slug,
      name: s.name,
      serviceStatus: s.currentStatus,
      total: s.components.length,
      components: picked.map((c) => ({
        id: c.id,
        name: c.name,
        group: c.group,
        status: c.status,
        updatedAt: toIso(c.updatedAt),
      })),
    };
  },
});
