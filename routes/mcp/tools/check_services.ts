/** `check_services`: the CLI's `status check` gate for an agent (pass/fail per vendor). */
import { z } from "zod";
import { getService } from "../../../app/mod.ts";
import { isAtLeast, NotFound, STATUS_LEVELS } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";
import { Slug, Status } from "./_shapes.ts";

const FailOn = z.enum(STATUS_LEVELS.slice(1) as ["UNDER_MAINTENANCE", ...string[]]);

/** The tool. */
export const checkServicesTool = defineTool({
  name: "check_services",
  title: "Check services",
  description:
    "Gate a deploy or a task on vendors' health: for each slug, fails when the vendor is at " +
    "`failOn` or worse (default DEGRADED_PERFORMANCE; order OPERATIONAL < UNDER_MAINTENANCE < " +
    "DEGRADED_PERFORMANCE < PARTIAL_OUTAGE < MAJOR_OUTAGE). UNKNOWN (no fresh data) fails " +
    "unless allowUnknown. `ok` is true when none fails.",
  scopes: ["status:read"],
  input: z.object({
    slugs: z.array(Slug).min(1).max(50),
    failOn: FailOn.default("DEGRADED_PERFORMANCE"),
    allowUnknown: z.boolean().default(false),
  }),
  output: z.object({
    ok: z.boolean(),
    failOn: z.string(),
    allowUnknown: z.boolean(),
    services: z.array(z.object({
      slug: z.string(),
      name: z.string(),
      currentStatus: Status,
      failed: z.boolean(),
    })),
  }),
  async run(ctx, _caller, args) {
    const failOn = args.failOn as (typeof STATUS_LEVELS)[number];
    const unknown: NotFound[] = [];
    const services = [];
    for (const slug of [...new Set(args.slugs)]) {
      try {
        const s = await getService(ctx, slug);
        const failed = s.currentStatus === "UNKNOWN"
          ? !args.allowUnknown
          : isAtLeast(s.currentStatus, failOn);
        services.push({ slug: s.slug, name: s.name, currentStatus: s.currentStatus, failed });
      } catch (err) {
        if (!(err instanceof NotFound)) throw err;
        unknown.push(err);
      }
    }
    // Same rule as the CLI: an unknown vendor is a usage error, reported with close matches.
    if (unknown.length === 1) throw unknown[0];
    if (unknown.length > 1) {
      throw new NotFound(
        "services",
        unknown.map((e) => e.id).join(", "),
        unknown.flatMap((e) => e.suggestions).slice(0, 5),
      );
    }
    return {
      ok: !services.some((s) => s.failed),
      failOn,
      allowUnknown: args.allowUnknown,
      services,
    };
  },
});
