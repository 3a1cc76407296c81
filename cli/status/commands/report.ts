/**
 * `status report <slug>`: tell statusd a vendor is not working for you. A report warns your own
 * account at once and, from an account that has monitored the vendor for a week, counts toward
 * statusd's public early warning with other accounts'; it never changes the vendor's status.
 * Needs `STATUS_API_KEY` holding `monitors:write`.
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
the account's reports are listed by GET /api/user/reports, and what you type is seen by your
account only). It warns your own account at once, for 30 minutes (earlyWarning in
\`status <slug> --json\` with visibility "account"). Everyone else sees an early warning when
statusd's own probes see errors, or when several accounts that have monitored the vendor for
a week report it too. It never changes the vendor's own status. One report of a vendor per 10
minutes, 10 an hour; past that the API refuses it and says when to try again.
Needs STATUS_API_KEY holding monitors:write.

Examples:
  status report github --component "API Requests" --note "502s from api.github.com"

JSON (--json):
  {"id", "service", "component", "note", "reporter", "createdAt"}

Exit codes:
  0  the report was stored
  2  usage error, or a vendor the catalog does not know (with "did you mean …")
  3  the API could not be reached or refused the report (no key, one without monitors:write,
     or too many reports)

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
