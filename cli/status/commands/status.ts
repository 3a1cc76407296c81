/**
 * `status status <slug>...`: the current status of one or several vendors, with their open
 * incidents and the components that are not operational. Exit 1 when any is not operational.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith, SlugsSchema } from "../args.ts";
import type { ServiceDetail, TimeToResolve } from "../client.ts";
import { formatMinutes } from "../../../domain/duration.ts";
import { RESOLUTION_IMPACTS } from "../../../domain/resolution.ts";
import { coversWindow, notEnoughData, uptimeSpanWords } from "../../../domain/uptime.ts";
import { readingNote } from "../reading.ts";
import { EXIT } from "../exit.ts";
import { type Cell, LEVEL_COLOUR, levelCell, paint, percent, renderTable, when } from "../table.ts";
import { EXIT_HELP, forEachSlug, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status status`. */
export interface StatusOptions {
  readonly slugs: string[];
}

const HELP = `Usage: status status <slug>... [options]
       status <slug>...            (the default command when the first word is a slug)

Shows the current status of each vendor, its open incidents and the components that are
not operational. UNKNOWN means statusd has no fresh data for the vendor; when statusd cannot
read a vendor the status says why and since when (UTC), e.g.
  UNKNOWN — timeout since 12:03
  UNKNOWN — HTTP 503 since 2026-11-20 09:41
  UNKNOWN — unsupported: no machine-readable status

JSON (--json):
  {"ok": true when all are OPERATIONAL,
   "services": [{"slug", "name", "currentStatus", "uptimePercent" (30 days, or null while
     less than a day was observed),
     "uptimeObservedSeconds" (how much of the 30 days was observed),
     "category", "provider", "statusPageUrl", "platform", "lastCheckedAt", "lastChangedAt",
     "reading": {"state" (fresh, stale, failing, unsupported, never_read), "summary",
       "lastAttemptAt", "lastSuccessAt", "consecutiveFailures",
       "error": {"kind", "httpStatus", "message", "since"} or null, "notes",
       "redetection": {"at", "from", "to"} or null},
     "components": [{"id", "name", "status", "group", "updatedAt"}],
     "incidents": [{"id", "serviceSlug", "title", "status", "impact", "startedAt", "updatedAt",
       "resolvedAt", "url", "components", "updates": [{"at", "status", "body"}],
       "scheduledStartAt", "scheduledEndAt", "revisions", "removedAt", "overrun"}],
     "timeToResolve": {"windowDays", "all": {"incidents", "p50Minutes", "p90Minutes"},
       "byImpact": {"CRITICAL"|"MAJOR"|"MINOR"|"NONE": {"incidents", "p50Minutes",
       "p90Minutes"}}},
     "earlyWarning": statusd's own observation or null: {"phase" (suspected, acknowledged),
       "since", "acknowledgedAt", "delayMinutes", "evidence", "summary", …},
     "trackRecord": {"episodes", "averageDelayMinutes", "grade" (A–F or null), …}}]}
  Times are ISO 8601 UTC; statuses are the API's enum names.

When statusd's own probes see a vendor's endpoints failing (or members reported it), its STATUS
reads e.g. "OPERATIONAL — statusd's own checks: suspected", and "Early warning" under the table
says what was seen and whether the vendor has acknowledged it. It never changes the vendor's
status or the exit code.

Under the table, "usually resolves" gives each vendor's typical time to resolve: the median
and p90 of how long its incidents resolved in the last 90 days lasted, per impact, e.g.
  github  usually resolves: major in 38 min (p90 2 h 10 min, 12 incidents)

${EXIT_HELP}

${GLOBAL_HELP}`;

/** Lines under the table for a vendor that has open incidents or impaired components. */
function details(s: ServiceDetail, colour: boolean): string[] {
  const impaired = s.components.filter((c) => c.status !== "OPERATIONAL");
  if (!s.incidents.length && !impaired.length) return [];
  const rows: Cell[][] = [
    ...s.incidents.map((i): Cell[] => [
      "incident",
      i.impact,
      i.status,
      `since ${when(i.startedAt)}`,
      i.title,
    ]),
    ...impaired.map((c): Cell[] => [
      "component",
      levelCell(c.status),
      "",
      "",
      c.group ? `${c.group} / ${c.name}` : c.name,
    ]),
  ];
  const table = renderTable(["", "", "", "", ""], rows, colour).split("\n").slice(1);
  return ["", paint(`${s.slug} (${s.name})`, "bold", colour), ...table.map((l) => `  ${l}`)];
}

/** "major in 38 min (p90 2 h 10 min, 12 incidents) · minor in …", or null when none counted. */
export function resolutionWords(t: TimeToResolve | undefined): string | null {
  if (!t) return null;
  const parts = RESOLUTION_IMPACTS.flatMap((impact) => {
    const f = t.byImpact[impact];
    if (f.incidents === 0 || f.p50Minutes === null || f.p90Minutes === null) return [];
    const count = f.incidents === 1 ? "1 incident" : `${f.incidents} incidents`;
    return [
      `${impact.toLowerCase()} in ${formatMinutes(f.p50Minutes)} ` +
      `(p90 ${formatMinutes(f.p90Minutes)}, ${count})`,
    ];
  });
  return parts.length ? parts.join(" · ") : null;
}

/** One line per vendor with a typical time to resolve. */
function resolutionLines(services: readonly ServiceDetail[]): string[] {
  const lines = services.flatMap((s) => {
    const words = resolutionWords(s.timeToResolve);
    return words === null ? [] : [`  ${s.slug}  usually resolves: ${words}`];
  });
  return lines.length
    ? ["", "Typical time to resolve (incidents of the last 90 days):", ...lines]
    : [];
}

/** One line per vendor statusd itself suspects (never its status: the vendor's own). */
function warningLines(services: readonly ServiceDetail[], colour: boolean): string[] {
  const lines = services.flatMap((s) =>
    s.earlyWarning ? [`  ${paint(s.slug, "bold", colour)}  ${s.earlyWarning.summary}`] : []
  );
  return lines.length
    ? ["", "Early warning (statusd's own observation, not the vendor's status):", ...lines]
    : [];
}

/** Table and details for `services`. */
export function renderStatus(
  services: readonly ServiceDetail[],
  colour: boolean,
  now: Date = new Date(),
): string {
  const table = renderTable(
    ["SERVICE", "NAME", "STATUS", "UPTIME 30D", "INCIDENTS", "CHECKED (UTC)"],
    services.map((s) => {
      const note = readingNote(s.reading, now) ??
        (s.earlyWarning ? `statusd's own checks: ${s.earlyWarning.phase}` : null);
      const level = levelCell(s.currentStatus);
      return [
        s.slug,
        s.name,
        note === null
          ? level
          : { text: `${s.currentStatus} — ${note}`, colour: LEVEL_COLOUR[s.currentStatus] },
        s.uptimeObservedSeconds !== undefined && s.uptimeObservedSeconds > 0 &&
          notEnoughData(s.uptimeObservedSeconds * 1000) !== null
          ? notEnoughData(s.uptimeObservedSeconds * 1000)!
          : s.uptimePercent !== null && s.uptimeObservedSeconds !== undefined &&
              !coversWindow(s.uptimeObservedSeconds * 1000, 30)
          ? `${percent(s.uptimePercent)} ${uptimeSpanWords(s.uptimeObservedSeconds * 1000, 30)}`
          : percent(s.uptimePercent),
        String(s.incidents.length),
        when(s.lastCheckedAt),
      ];
    }),
    colour,
  );
  return [
    table,
    ...warningLines(services, colour),
    ...services.flatMap((s) => details(s, colour)),
    ...resolutionLines(services),
  ].join("\n");
}

/** The `status` command. */
export const statusCommand: Command<StatusOptions> = {
  name: "status",
  summary: "current status of one or several vendors (exit 1 if any is not operational)",
  help: HELP,
  flags: {},
  parse: (tokens) =>
    parseWith(z.object({ slugs: SlugsSchema }), { slugs: tokens.positionals }, {
      slugs: "",
    }),
  async run(options, ctx) {
    const services = await forEachSlug(options.slugs, (slug) => ctx.client.getService(slug));
    const ok = services.every((s) => s.currentStatus === "OPERATIONAL");
    if (ctx.global.json) ctx.print(JSON.stringify({ ok, services }, null, 2));
    else ctx.print(renderStatus(services, ctx.colour));
    return ok ? EXIT.ok : EXIT.notOperational;
  },
};
