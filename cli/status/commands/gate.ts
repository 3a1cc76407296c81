/**
 * `status gate <slug>... [--within <duration>]`: a deploy gate. Exit 1 when a watched vendor
 * has an open incident, a maintenance in progress, or one planned to start within the window;
 * UNKNOWN (no fresh data) blocks too unless `--allow-unknown`.
 * @module
 */
import { z } from "zod";
import { type Impact, type IncidentStatus, isMaintenance } from "../../../domain/incident.ts";
import { formatMinutes, parseDuration } from "../../../domain/duration.ts";
import { type Command, parseWith, SlugsSchema } from "../args.ts";
import type { Incident, ServiceDetail, StatusClient } from "../client.ts";
import { EXIT } from "../exit.ts";
import { levelCell, paint, renderTable, when } from "../table.ts";
import { forEachSlug, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status gate`. */
export interface GateOptions {
  readonly slugs: string[];
  /** A board whose services are gated too (`--board <slug>`). */
  readonly board: string | null;
  /** As typed (`2h`), sent to the API, which measures it from its own clock. */
  readonly within: string;
  readonly allowUnknown: boolean;
  /**
   * Maintenance that overran its announced end by more than this (ms) no longer blocks; null:
   * every overrun blocks (the vendor has not said it is done).
   */
  readonly ignoreOverrunMs: number | null;
}

/** Why a vendor blocks the gate. */
export interface Blocker {
  readonly kind: "incident" | "maintenance" | "unknown";
  readonly title: string;
  readonly status: string;
  /** Maintenance: planned (or actual) start and planned end, ISO 8601; null when unknown. */
  readonly startsAt: string | null;
  readonly endsAt: string | null;
  /** Maintenance past its announced end: by how many seconds; null otherwise. */
  readonly overrunSeconds: number | null;
}

const HELP = `Usage: status gate <slug>... [--within <duration>] [--allow-unknown]
                         [--ignore-overrun-older-than <duration>] [options]
       status gate --board <board> [<slug>...] [--within <duration>] [--allow-unknown] [options]

With --board, every service on that board is gated too (a public board needs no key; a
private one needs STATUS_API_KEY of its account, with monitors:read).

A deploy gate for CI: fails (exit 1) when any vendor named
  - has an open incident (any impact), or
  - has a maintenance in progress, or planned to start within --within, or
  - reads UNKNOWN (statusd has no fresh data), unless --allow-unknown.
Maintenance planned later than the window does not block. A maintenance past its announced
end that the vendor has not closed is shown as "overran by …" and still blocks: the vendor has
not said it is done.

  --within <duration>  how far ahead to look for maintenance: 30m, 2h, 1d (default 1h;
                       at most 90d), measured from the statusd server's clock
  --allow-unknown      let UNKNOWN pass
  --ignore-overrun-older-than <duration>
                       let a maintenance pass that overran its announced end by more than
                       this (30m, 2h, 1d): one the vendor forgot to close

JSON (--json):
  {"ok", "within", "allowUnknown", "services": [{"slug", "name", "currentStatus",
    "blocked", "blockers": [{"kind" (incident|maintenance|unknown), "title", "status",
    "startsAt", "endsAt", "overrunSeconds"}]}]}

Exit codes:
  0  ok: nothing blocks a deploy
  1  a vendor has an open incident, a maintenance in progress or due within --within,
     or reads UNKNOWN (without --allow-unknown)
  2  usage error, or a vendor the catalog does not know (with "did you mean …")
  3  the API could not be reached or answered with an error

${GLOBAL_HELP}`;

/** A duration as typed (`30m`, `2h`, `1d`). */
const Duration = z.string().refine((w) => parseDuration(w) !== null, {
  error: (issue) =>
    `"${String(issue.input)}" is not a duration: expected minutes, hours or days such as ` +
    `30m, 2h or 1d (at most 90d)`,
});

const Schema = z.object({
  slugs: SlugsSchema,
  within: Duration,
  "allow-unknown": z.boolean(),
  "ignore-overrun-older-than": Duration.nullable(),
});

/** Slugs per maintenance query (the API takes at most 50). */
const SLUGS_PER_QUERY = 50;

async function maintenancesOf(
  client: StatusClient,
  slugs: readonly string[],
  within: string,
): Promise<Incident[]> {
  const out: Incident[] = [];
  for (let i = 0; i < slugs.length; i += SLUGS_PER_QUERY) {
    const page = await client.listMaintenances({
      services: slugs.slice(i, i + SLUGS_PER_QUERY),
      within,
      limit: 500,
    });
    out.push(...page.content);
  }
  return out;
}

/** What blocks `service` given the maintenances due in the window. */
export function blockersOf(
  service: ServiceDetail,
  due: readonly Incident[],
  allowUnknown: boolean,
  ignoreOverrunMs: number | null = null,
): Blocker[] {
  const blockers: Blocker[] = [];
  if (service.currentStatus === "UNKNOWN" && !allowUnknown) {
    blockers.push({
      kind: "unknown",
      title: "statusd has no fresh data for this vendor",
      status: "UNKNOWN",
      startsAt: null,
      endsAt: null,
      overrunSeconds: null,
    });
  }
  // The client keeps statuses as text (a newer server may add words); the rule compares text.
  const incidents = service.incidents.filter((i) =>
    !isMaintenance({ status: i.status as IncidentStatus, impact: i.impact as Impact })
  );
  for (const i of incidents) {
    blockers.push({
      kind: "incident",
      title: i.title,
      status: i.status,
      startsAt: i.startedAt,
      endsAt: null,
      overrunSeconds: null,
    });
  }
  for (const m of due.filter((m) => m.serviceSlug === service.slug)) {
    const overrun = m.overrun ?? null;
    if (overrun !== null && ignoreOverrunMs !== null && overrun.seconds * 1000 > ignoreOverrunMs) {
      continue;
    }
    blockers.push({
      kind: "maintenance",
      title: m.title,
      status: m.status,
      startsAt: m.scheduledStartAt ?? m.startedAt,
      endsAt: m.scheduledEndAt ?? null,
      overrunSeconds: overrun?.seconds ?? null,
    });
  }
  return blockers;
}

function reason(b: Blocker): string {
  if (b.kind === "unknown") return "UNKNOWN: no fresh data";
  if (b.kind === "incident") return `incident ${b.status}: ${b.title}`;
  const window = `${when(b.startsAt)}${b.endsAt ? ` to ${when(b.endsAt)}` : ""} UTC`;
  const overran = b.overrunSeconds === null
    ? ""
    : `, overran by ${formatMinutes(b.overrunSeconds / 60)}`;
  return `maintenance ${b.status} ${window}${overran}: ${b.title}`;
}

/** The `gate` command. */
export const gateCommand: Command<GateOptions> = {
  name: "gate",
  summary: "deploy gate: exit 1 on an open incident or maintenance due within --within",
  help: HELP,
  flags: {
    within: "string",
    "allow-unknown": "boolean",
    board: "string",
    "ignore-overrun-older-than": "string",
  },
  parse(tokens) {
    const board = typeof tokens.flags.board === "string" ? tokens.flags.board : null;
    const o = parseWith(board === null ? Schema : Schema.extend({ slugs: z.array(z.string()) }), {
      slugs: tokens.positionals,
      within: tokens.flags.within ?? "1h",
      "allow-unknown": tokens.flags["allow-unknown"] === true,
      "ignore-overrun-older-than": typeof tokens.flags["ignore-overrun-older-than"] === "string"
        ? tokens.flags["ignore-overrun-older-than"]
        : null,
    }, {
      slugs: "",
      within: "--within",
      "ignore-overrun-older-than": "--ignore-overrun-older-than",
    });
    const ignore = o["ignore-overrun-older-than"];
    return {
      slugs: o.slugs,
      board: board === null ? null : board.trim().toLowerCase(),
      within: o.within.trim().toLowerCase(),
      allowUnknown: o["allow-unknown"],
      ignoreOverrunMs: ignore === null ? null : parseDuration(ignore.trim().toLowerCase()),
    };
  },
  async run({ slugs, board, within, allowUnknown, ignoreOverrunMs }, ctx) {
    const onBoard = board === null
      ? []
      : (await ctx.client.getBoard(board)).entries.flatMap((e) => e.services);
    const all = [...new Set([...slugs, ...onBoard])];
    if (all.length === 0) {
      ctx.print(`Board "${board}" watches no service: nothing to gate.`);
      return EXIT.ok;
    }
    const services = await forEachSlug(all, (slug) => ctx.client.getService(slug));
    const due = await maintenancesOf(ctx.client, services.map((s) => s.slug), within);
    const results = services.map((s) => {
      const blockers = blockersOf(s, due, allowUnknown, ignoreOverrunMs);
      return {
        slug: s.slug,
        name: s.name,
        currentStatus: s.currentStatus,
        blocked: blockers.length > 0,
        blockers,
      };
    });
    const ok = results.every((r) => !r.blocked);
    if (ctx.global.json) {
      ctx.print(JSON.stringify({ ok, within, allowUnknown, services: results }, null, 2));
    } else {
      const rows = results.flatMap((r) =>
        (r.blocked ? r.blockers.map(reason) : ["nothing due"]).map((text, i) => [
          i === 0 ? r.slug : "",
          i === 0 ? levelCell(r.currentStatus) : "",
          i === 0
            ? (r.blocked ? { text: "BLOCK", colour: "red" as const } : {
              text: "pass",
              colour: "green" as const,
            })
            : "",
          text,
        ])
      );
      const table = renderTable(["SERVICE", "STATUS", "RESULT", "WHY"], rows, ctx.colour);
      const blocked = results.filter((r) => r.blocked).map((r) => r.slug);
      const verdict = ok
        ? paint(`ok: no open incident or maintenance within ${within}`, "green", ctx.colour)
        : paint(`BLOCK: ${blocked.join(", ")} (within ${within})`, "red", ctx.colour);
      ctx.print(`${table}\n\n${verdict}`);
    }
    return ok ? EXIT.ok : EXIT.notOperational;
  },
};
