/**
 * `status which <host|url|error>`: whose outage is this? The vendors a host, a URL or a line of
 * error text belongs to, best first, with why and their level now (the component a region
 * names, when the vendor names regions). Exit 0 when one is found, 2 when none is.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith } from "../args.ts";
import { EXIT, UsageError } from "../exit.ts";
import { levelCell, renderTable } from "../table.ts";
import { GLOBAL_HELP } from "./_shared.ts";

/** Options of `status which`. */
export interface WhichOptions {
  readonly target: string;
}

const HELP = `Usage: status which <host | url | error text> [options]

Says which vendor a host, a URL or a line of error text belongs to: paste what failed, and
read whose status matters. Hosts are read from a URL, a bare host (with a port) or anywhere in
an error line. Each vendor comes with why (the host is one of its domains, under one, what
statusd probes of it, or its status page), its level now and its open incidents; when the
vendor names its components as hosts do (a region, a service), the component and its level.

Examples:
  status which api.openai.com
  status which "getaddrinfo ENOTFOUND registry.npmjs.org"
  status which https://s3.eu-west-1.amazonaws.com/bucket/key

JSON (--json):
  {"matches": [{"slug", "name", "why", "component", "currentStatus", "openIncidents"}]}

Exit codes:
  0  a vendor was found
  2  no vendor statusd knows owns that host (add its status page: POST /api/user/vendors)
  3  the API could not be reached or answered with an error

${GLOBAL_HELP}`;

const Schema = z.object({ target: z.string().trim().min(1).max(2_000) });

/** The `which` command. */
export const whichCommand: Command<WhichOptions> = {
  name: "which",
  summary: "which vendor a host, URL or error line belongs to",
  help: HELP,
  flags: {},
  parse: (tokens) => {
    if (tokens.positionals.length === 0) {
      throw new UsageError("status which takes a host, a URL or a line of error text");
    }
    return parseWith(Schema, { target: tokens.positionals.join(" ") }) as WhichOptions;
  },
  async run({ target }, ctx) {
    const { matches } = await ctx.client.lookup(target);
    if (ctx.global.json) ctx.print(JSON.stringify({ matches }, null, 2));
    else if (matches.length === 0) {
      ctx.print(`No vendor statusd knows owns "${target}".`);
    } else {
      ctx.print(renderTable(
        ["VENDOR", "STATUS", "COMPONENT", "WHY"],
        matches.map((m) => [
          `${m.name} (${m.slug})`,
          levelCell(m.currentStatus),
          m.component ?? "",
          m.why,
        ]),
        ctx.colour,
      ));
      for (const m of matches) {
        for (const i of m.openIncidents) ctx.print(`  ${m.name}: ${i.title} (${i.status})`);
      }
    }
    return matches.length > 0 ? EXIT.ok : EXIT.usage;
  },
};
