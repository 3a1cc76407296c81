/**
 * `status incidents [--active] [--service <slug>]`: the incident feed, newest first.
 * A report: exit 0 whatever it lists.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith, SlugSchema } from "../args.ts";
import { EXIT, UsageError } from "../exit.ts";
import type { Incident } from "../client.ts";
import { renderTable, when } from "../table.ts";
import { EXIT_HELP, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status incidents`. */
export interface IncidentsOptions {
  readonly active: boolean;
  readonly service?: string;
  readonly limit: number;
}

const HELP = `Usage: status incidents [--active] [--service <slug>] [--limit <n>] [options]

Lists incidents and maintenances, newest first. A report: exit 0 unless an error occurs.

  --active          only the ones not yet resolved or completed
  --service <slug>  only this vendor's
  --limit <n>       at most n (1 to 500, default 50)

JSON (--json):
  {"totalElements" (all that match), "incidents": [{"id", "serviceSlug", "title",
    "status", "impact", "startedAt", "updatedAt", "resolvedAt", "url", "components",
    "updates": [{"at", "status", "body"}], "scheduledStartAt", "scheduledEndAt",
    "revisions", "removedAt", "overrun"}]}

${EXIT_HELP}

${GLOBAL_HELP}`;

const Schema = z.object({
  active: z.boolean(),
  service: SlugSchema.optional(),
  limit: z.coerce.number({ error: "expected a whole number from 1 to 500" })
    .int("expected a whole number from 1 to 500")
    .min(1, "expected a whole number from 1 to 500")
    .max(500, "expected a whole number from 1 to 500"),
});

/** What the vendor rewrote of an incident, as a short note after its title. */
function rewrittenNote(i: Incident): string {
  if (i.removedAt) return " (removed from the vendor's page)";
  return i.revisions?.length ? " (rewritten by the vendor)" : "";
}

/** The `incidents` command. */
export const incidentsCommand: Command<IncidentsOptions> = {
  name: "incidents",
  summary: "the incident feed (--active, --service <slug>)",
  help: HELP,
  flags: { active: "boolean", service: "string", limit: "string" },
  parse(tokens) {
    if (tokens.positionals.length) {
      throw new UsageError(
        `Unexpected argument "${tokens.positionals[0]}": use --service <slug> for one vendor`,
      );
    }
    return parseWith(Schema, {
      active: tokens.flags.active === true,
      service: tokens.flags.service,
      limit: tokens.flags.limit ?? "50",
    });
  },
  async run(options, ctx) {
    const page = await ctx.client.listIncidents(options);
    if (ctx.global.json) {
      ctx.print(
        JSON.stringify({ totalElements: page.totalElements, incidents: page.content }, null, 2),
      );
      return EXIT.ok;
    }
    if (!page.content.length) {
      const what = options.active ? "No active incidents" : "No incidents";
      ctx.print(options.service ? `${what} for ${options.service}` : what);
      return EXIT.ok;
    }
    const table = renderTable(
      ["SERVICE", "IMPACT", "STATUS", "STARTED (UTC)", "TITLE"],
      page.content.map((i) => [
        i.serviceSlug,
        i.impact,
        i.status,
        when(i.startedAt),
        i.title + rewrittenNote(i),
      ]),
      ctx.colour,
    );
    const more = page.totalElements > page.content.length
      ? `\n\n${page.content.length} of ${page.totalElements} shown (--limit to see more)`
      : "";
    ctx.print(table + more);
    return EXIT.ok;
  },
};
