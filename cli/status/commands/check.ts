/**
 * `status check <slug>... --fail-on <level>`: a CI gate. Exit 1 when any vendor is at the
 * level or worse (severity order of DESIGN §4); UNKNOWN fails unless `--allow-unknown`.
 * @module
 */
import { z } from "zod";
import { isAtLeast, type RankedLevel, type StatusLevel } from "../../../domain/status.ts";
import { type Command, FailOnSchema, parseWith, SlugsSchema } from "../args.ts";
import { EXIT } from "../exit.ts";
import { type Cell, LEVEL_COLOUR, paint, renderTable } from "../table.ts";
import { readingNote } from "../reading.ts";
import { EXIT_HELP, forEachSlug, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status check`. */
export interface CheckOptions {
  readonly slugs: string[];
  /** A board whose entries are checked too (`--board <slug>`). */
  readonly board: string | null;
  readonly failOn: RankedLevel;
  readonly allowUnknown: boolean;
}

const HELP = `Usage: status check <slug>... [--fail-on <level>] [--allow-unknown] [options]
       status check --board <board> [<slug>...] [--fail-on <level>] [--allow-unknown] [options]

Fails (exit 1) when any vendor is at <level> or worse — or, with --board, any entry of that
board (a group reads the worst of its monitors; a monitor the worst of what it watches). A
public board needs no key; a private one needs STATUS_API_KEY of its account (monitors:read).
Levels, best to worst:
  maintenance  UNDER_MAINTENANCE
  degraded     DEGRADED_PERFORMANCE   (the default)
  partial      PARTIAL_OUTAGE
  major        MAJOR_OUTAGE
The short or the full name may be given. UNKNOWN (no fresh data) fails the check unless
--allow-unknown is given.

  --board <board>     also check every entry of this board (its slug, as in /b/<board>)
  --fail-on <level>   the level that fails the check (default degraded)
  --allow-unknown     let UNKNOWN pass

JSON (--json):
  {"ok", "failOn" (full level name), "allowUnknown",
   "services": [{"slug", "name", "currentStatus", "failed",
     "reading" (fresh, stale, failing, unsupported, never_read)}],
   "board" (with --board): {"slug", "title", "entries": [{"kind", "name", "currentStatus",
     "failed"}]}}

${EXIT_HELP}

${GLOBAL_HELP}`;

/** True when `status` fails a check at `failOn`. */
export function fails(status: StatusLevel, failOn: RankedLevel, allowUnknown: boolean): boolean {
  return status === "UNKNOWN" ? !allowUnknown : isAtLeast(status, failOn);
}

const Schema = z.object({
  slugs: z.union([SlugsSchema, z.array(z.string()).length(0)]),
  board: z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    error: "--board expects a board slug such as acme-stack",
  }).nullable(),
  "fail-on": FailOnSchema,
  "allow-unknown": z.boolean(),
});

/** The `check` command. */
export const checkCommand: Command<CheckOptions> = {
  name: "check",
  summary: "CI gate: exit 1 when a vendor is at --fail-on <level> or worse",
  help: HELP,
  flags: { "fail-on": "string", "allow-unknown": "boolean", board: "string" },
  parse(tokens) {
    const board = typeof tokens.flags.board === "string" ? tokens.flags.board : null;
    if (board === null && tokens.positionals.length === 0) {
      // Without a board, at least one slug (the usual message).
      parseWith(z.object({ slugs: SlugsSchema }), { slugs: [] }, { slugs: "" });
    }
    const o = parseWith(Schema, {
      slugs: tokens.positionals,
      board,
      "fail-on": tokens.flags["fail-on"] ?? "degraded",
      "allow-unknown": tokens.flags["allow-unknown"] === true,
    }, { slugs: "" });
    return {
      slugs: o.slugs,
      board: o.board,
      failOn: o["fail-on"],
      allowUnknown: o["allow-unknown"],
    };
  },
  async run({ slugs, board: boardSlug, failOn, allowUnknown }, ctx) {
    const board = boardSlug === null ? null : await ctx.client.getBoard(boardSlug);
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
    const entries = (board?.entries ?? []).map((e) => ({
      kind: e.kind,
      name: e.name,
      currentStatus: e.currentStatus,
      failed: fails(e.currentStatus, failOn, allowUnknown),
    }));
    const failed = [
      ...results.filter((r) => r.failed),
      ...entries.filter((e) => e.failed).map((e) => ({
        slug: `${board!.slug}: ${e.name}`,
        currentStatus: e.currentStatus,
      })),
    ];
    const ok = failed.length === 0;
    if (ctx.global.json) {
      ctx.print(JSON.stringify(
        {
          ok,
          failOn,
          allowUnknown,
          services: results,
          ...(board ? { board: { slug: board.slug, title: board.title, entries } } : {}),
        },
        null,
        2,
      ));
    } else {
      const table = renderTable(
        ["SERVICE", "NAME", "STATUS", "RESULT"],
        [
          ...results.map((r): Cell[] => [
            r.slug,
            r.name,
            { text: statusText(r), colour: LEVEL_COLOUR[r.currentStatus] },
            r.failed ? { text: "FAIL", colour: "red" } : { text: "pass", colour: "green" },
          ]),
          ...entries.map((e): Cell[] => [
            `${board!.slug}/${e.kind}`,
            e.name,
            { text: e.currentStatus, colour: LEVEL_COLOUR[e.currentStatus] },
            e.failed ? { text: "FAIL", colour: "red" } : { text: "pass", colour: "green" },
          ]),
        ],
        ctx.colour,
      );
      const said = (r: { slug: string; currentStatus: StatusLevel }) =>
        "name" in r ? statusText(r as (typeof results)[number]) : r.currentStatus;
      const verdict = ok ? paint(`ok: none at ${failOn} or worse`, "green", ctx.colour) : paint(
        `FAIL: ${failed.map((r) => `${r.slug} is ${said(r)}`).join(", ")} ` +
          `(fails at ${failOn} or worse${allowUnknown ? "" : ", or UNKNOWN"})`,
        "red",
        ctx.colour,
      );
      ctx.print(`${table}\n\n${verdict}`);
    }
    return ok ? EXIT.ok : EXIT.notOperational;
  },
};
