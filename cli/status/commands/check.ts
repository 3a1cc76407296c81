/**
 * `status check <slug>... --fail-on <level>`: a CI gate. Exit 1 when any vendor is at the
 * level or worse (severity order of DESIGN §4); UNKNOWN fails unless `--allow-unknown`.
 * @module
 */
import { z } from "zod";
import { isAtLeast, type RankedLevel, type StatusLevel } from "../../../domain/status.ts";
import { type Command, FailOnSchema, parseWith, SlugsSchema } from "../args.ts";
import { EXIT } from "../exit.ts";
import { LEVEL_COLOUR, paint, renderTable } from "../table.ts";
import { readingNote } from "../reading.ts";
import { EXIT_HELP, forEachSlug, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status check`. */
export interface CheckOptions {
  readonly slugs: string[];
  readonly failOn: RankedLevel;
  readonly allowUnknown: boolean;
}

const HELP = `Usage: status check <slug>... [--fail-on <level>] [--allow-unknown] [options]

Fails (exit 1) when any vendor is at <level> or worse. Levels, best to worst:
  maintenance  UNDER_MAINTENANCE
  degraded     DEGRADED_PERFORMANCE   (the default)
  partial      PARTIAL_OUTAGE
  major        MAJOR_OUTAGE
The short or the full name may be given. UNKNOWN (no fresh data) fails the check unless
--allow-unknown is given.

  --fail-on <level>   the level that fails the check (default degraded)
  --allow-unknown     let UNKNOWN pass

JSON (--json):
  {"ok", "failOn" (full level name), "allowUnknown",
   "services": [{"slug", "name", "currentStatus", "failed",
     "reading" (fresh, stale, failing, unsupported, never_read)}]}

${EXIT_HELP}

${GLOBAL_HELP}`;

/** True when `status` fails a check at `failOn`. */
export function fails(status: StatusLevel, failOn: RankedLevel, allowUnknown: boolean): boolean {
  return status === "UNKNOWN" ? !allowUnknown : isAtLeast(status, failOn);
}

const Schema = z.object({
  slugs: SlugsSchema,
  "fail-on": FailOnSchema,
  "allow-unknown": z.boolean(),
});

/** The `check` command. */
export const checkCommand: Command<CheckOptions> = {
  name: "check",
  summary: "CI gate: exit 1 when a vendor is at --fail-on <level> or worse",
  help: HELP,
  flags: { "fail-on": "string", "allow-unknown": "boolean" },
  parse(tokens) {
    const o = parseWith(Schema, {
      slugs: tokens.positionals,
      "fail-on": tokens.flags["fail-on"] ?? "degraded",
      "allow-unknown": tokens.flags["allow-unknown"] === true,
    }, { slugs: "" });
    return { slugs: o.slugs, failOn: o["fail-on"], allowUnknown: o["allow-unknown"] };
  },
  async run({ slugs, failOn, allowUnknown }, ctx) {
    const services = await forEachSlug(slugs, (slug) => ctx.client.getService(slug));
    const now = new Date();
    const results = services.map((s) => ({
      slug: s.slug,
      name: s.name,
      currentStatus: s.currentStatus,
      failed: fails(s.currentStatus, failOn, allowUnknown),
      reading: s.reading?.state ?? null,
    }));
    const notes = new Map(services.map((s) => [s.slug, readingNote(s.reading, now)]));
    const statusText = (r: (typeof results)[number]) => {
      const note = notes.get(r.slug);
      return note ? `${r.currentStatus} — ${note}` : r.currentStatus;
    };
    const failed = results.filter((r) => r.failed);
    const ok = failed.length === 0;
    if (ctx.global.json) {
      ctx.print(JSON.stringify({ ok, failOn, allowUnknown, services: results }, null, 2));
    } else {
      const table = renderTable(
        ["SERVICE", "NAME", "STATUS", "RESULT"],
        results.map((r) => [
          r.slug,
          r.name,
          { text: statusText(r), colour: LEVEL_COLOUR[r.currentStatus] },
          r.failed ? { text: "FAIL", colour: "red" } : { text: "pass", colour: "green" },
        ]),
        ctx.colour,
      );
      const verdict = ok ? paint(`ok: none at ${failOn} or worse`, "green", ctx.colour) : paint(
        `FAIL: ${failed.map((r) => `${r.slug} is ${statusText(r)}`).join(", ")} ` +
          `(fails at ${failOn} or worse${allowUnknown ? "" : ", or UNKNOWN"})`,
        "red",
        ctx.colour,
      );
      ctx.print(`${table}\n\n${verdict}`);
    }
    return ok ? EXIT.ok : EXIT.notOperational;
  },
};
