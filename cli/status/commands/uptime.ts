/**
 * `status uptime <slug>... [--days 7|30|90]`: uptime percent over the window and the mean
 * time to recovery. A report: exit 0 whatever the figures.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith, SlugsSchema } from "../args.ts";
import { EXIT } from "../exit.ts";
import { duration, percent, renderTable } from "../table.ts";
import { EXIT_HELP, forEachSlug, GLOBAL_HELP } from "./_shared.ts";
import { uptimeSpanWords } from "../../../domain/uptime.ts";
import { DAY_MS } from "../../../domain/time.ts";

/**
 * What a figure over the last `days` days covers, in words (`30-day`, or `over the 3 h
 * observed` for a service statusd began reading lately); null when the server does not say.
 */
function covers(u: { asOf?: string; observedSince?: string | null }, days: number): string | null {
  if (u.asOf === undefined || u.observedSince === undefined) return null;
  if (u.observedSince === null) return "nothing observed";
  const end = Date.parse(u.asOf);
  const since = Math.max(Date.parse(u.observedSince), end - days * DAY_MS);
  return uptimeSpanWords(Math.max(0, end - since), days);
}

/** Windows the API computes. */
export const UPTIME_WINDOWS = [7, 30, 90] as const;

/** Options of `status uptime`. */
export interface UptimeOptions {
  readonly slugs: string[];
  readonly days: (typeof UPTIME_WINDOWS)[number];
}

const HELP = `Usage: status uptime <slug>... [--days 7|30|90] [options]

Shows each vendor's uptime over the last <days> days (default 30) and its MTTR: the mean
length of the disruptions (maintenance excluded) that ended in the last 90 days. Uptime
counts observed time: MAJOR_OUTAGE is down, PARTIAL_OUTAGE counts 30% down, degraded and
maintenance count as up, and time with no data is left out. A report: exit 0 unless an
error occurs.

  --days <n>   7, 30 or 90 (default 30)

JSON (--json):
  {"days", "services": [{"slug", "uptimePercent" (over --days, or null while less than a
    day was observed), "covers" ("30-day", "over the 3 d observed" for a vendor statusd
    began reading lately, or "not enough data yet (4 min observed)"), "mttrMinutes" (90
    days, or null), "disruptions" (ended in 90 days), "days7", "days30", "days90"}]}

${EXIT_HELP}

${GLOBAL_HELP}`;

const Schema = z.object({
  slugs: SlugsSchema,
  days: z.enum(["7", "30", "90"], { error: "expected 7, 30 or 90" })
    .transform((d) => Number(d) as UptimeOptions["days"]),
});

/** The `uptime` command. */
export const uptimeCommand: Command<UptimeOptions> = {
  name: "uptime",
  summary: "uptime percent over 7, 30 or 90 days and MTTR",
  help: HELP,
  flags: { days: "string" },
  parse: (tokens) =>
    parseWith(Schema, {
      slugs: tokens.positionals,
      days: tokens.flags.days ?? "30",
    }, { slugs: "" }),
  async run({ slugs, days }, ctx) {
    const figures = await forEachSlug(slugs, async (slug) => {
      const u = await ctx.client.getUptime(slug);
      const uptimePercent = days === 7 ? u.days7 : days === 30 ? u.days30 : u.days90;
      return {
        slug,
        uptimePercent,
        covers: u.note ?? covers(u, days),
        mttrMinutes: u.mttrMinutes,
        disruptions: u.disruptions,
        days7: u.days7,
        days30: u.days30,
        days90: u.days90,
      };
    });
    if (ctx.global.json) {
      ctx.print(JSON.stringify({ days, services: figures }, null, 2));
    } else {
      ctx.print(renderTable(
        ["SERVICE", `UPTIME ${days}D`, "COVERS", "MTTR (90D)", "DISRUPTIONS (90D)"],
        figures.map((f) => [
          f.slug,
          percent(f.uptimePercent),
          f.covers ?? "",
          duration(f.mttrMinutes),
          String(f.disruptions),
        ]),
        ctx.colour,
      ));
    }
    return EXIT.ok;
  },
};
