/**
 * `status report <slug>`: tell statusd a vendor is not working for you. Reports feed statusd's
 * own early warning (two members within 30 minutes, or one while its probes see errors); they
 * never change the vendor's status. Needs `STATUS_API_KEY` holding `monitors:write`.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith, SlugSchema } from "../args.ts";
import { EXIT, UsageError } from "../exit.ts";
import { GLOBAL_HELP } from "./_shared.ts";

/** Options of `status report`. */
export interface ReportOptions {
  readonly slug: string;
  readonly component?: string;
  readonly note?: string;
}

const HELP = `Usage: status report <slug> [--component <name>] [--note <text>] [options]

Tells statusd that a vendor is not working for you (kept 90 days, an account's newest 500;
the account's reports are listed by GET /api/user/reports). statusd's early warning counts
reports: two members within 30 minutes, or one while statusd's own probes of the vendor see
errors, make the vendor "suspected" (earlyWarning in \`status <slug> --json\`), never changing
the vendor's own status.
Needs STATUS_API_KEY holding monitors:write.

Examples:
  status report github --component "API Requests" --note "502s from api.github.com"

JSON (--json):
  {"id", "service", "component", "note", "reporter", "createdAt"}

Exit codes:
  0  the report was stored
  2  usage error, or a vendor the catalog does not know (with "did you mean …")
  3  the API could not be reached or refused the report (no key, or one without monitors:write)

${GLOBAL_HELP.replace("(no key is needed for these commands)", "(needed: monitors:write)")}`;

const Schema = z.object({
  slug: SlugSchema,
  component: z.string().trim().min(1, "--component cannot be empty").max(255).optional(),
  note: z.string().max(1000, "--note takes at most 1000 characters").optional(),
});

/** The `report` command. */
export const reportCommand: Command<ReportOptions> = {
  name: "report",
  summary: "tell statusd a vendor is not working for you (early warning)",
  help: HELP,
  flags: { component: "string", note: "string" },
  parse: (tokens) => {
    if (tokens.positionals.length !== 1) {
      throw new UsageError("status report takes one vendor slug");
    }
    return parseWith(Schema, {
      slug: tokens.positionals[0],
      component: tokens.flags.component,
      note: tokens.flags.note,
    }, { slug: "" }) as ReportOptions;
  },
  async run({ slug, component, note }, ctx) {
    const stored = await ctx.client.report({
      service: slug,
      ...(component ? { component } : {}),
      ...(note ? { note } : {}),
    });
    if (ctx.global.json) ctx.print(JSON.stringify(stored, null, 2));
    else {
      ctx.print(
        `Reported ${stored.service}${stored.component ? ` (${stored.component})` : ""} as not ` +
          "working for you. statusd counts it toward its early warning for 30 minutes.",
      );
    }
    return EXIT.ok;
  },
};
