/**
 * `status add <status page URL>`: adds a vendor statusd lacks by its status page; statusd reads
 * the page once and answers its slug, name, platform and components. Needs `STATUS_API_KEY`
 * holding `monitors:write`.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith } from "../args.ts";
import { EXIT, UsageError } from "../exit.ts";
import { GLOBAL_HELP } from "./_shared.ts";

/** Options of `status add`. */
export interface AddOptions {
  readonly url: string;
}

const HELP = `Usage: status add <status page URL> [options]

Adds a vendor statusd does not list by its status page: statusd reads the page once (its
platform, the name it gives itself, its components) and answers the vendor's slug. Watch it
then like any vendor (Settings > Monitors, or POST /api/user/monitors). A page statusd lists
already answers that vendor. Your account sees it in search; others see it once they add it
too, or once the operator promotes it. Needs STATUS_API_KEY holding monitors:write.

Examples:
  status add https://status.crisp.chat

JSON (--json):
  {"slug", "name", "statusPageUrl", "platform", "currentStatus", "components", "addedAt",
   "listed"}

Exit codes:
  0  the vendor is yours to monitor
  2  usage error, or a page statusd cannot read (the reason is printed)
  3  the API could not be reached or refused (no key, one without monitors:write, a limit)

${GLOBAL_HELP.replace("(no key is needed for these commands)", "(needed: monitors:write)")}`;

const Schema = z.object({ url: z.string().trim().min(1).max(2048) });

/** The `add` command. */
export const addCommand: Command<AddOptions> = {
  name: "add",
  summary: "add a vendor by its status page URL",
  help: HELP,
  flags: {},
  parse: (tokens) => {
    if (tokens.positionals.length !== 1) {
      throw new UsageError("status add takes one status page URL");
    }
    return parseWith(Schema, { url: tokens.positionals[0] }) as AddOptions;
  },
  async run({ url }, ctx) {
    const v = await ctx.client.addVendor(url);
    if (ctx.global.json) ctx.print(JSON.stringify(v, null, 2));
    else {
      const parts = v.components.length
        ? `; ${v.components.length} components (${v.components.slice(0, 5).join(", ")}${
          v.components.length > 5 ? ", …" : ""
        })`
        : "";
      ctx.print(
        v.listed === "catalog"
          ? `${v.name} is listed already: its slug is ${v.slug}.`
          : `Added ${v.name} (${v.platform}${parts}). Its slug is ${v.slug}: monitor it with ` +
            `POST /api/user/monitors {"service": "${v.slug}"}.`,
      );
    }
    return EXIT.ok;
  },
};
