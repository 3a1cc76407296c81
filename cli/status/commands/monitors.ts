/**
 * `status monitors`: the services your account watches (its monitors), with what each reads
 * now; exit 1 when one that is not paused is not operational. Needs `STATUS_API_KEY` holding
 * `monitors:read`.
 * @module
 */
import { z } from "zod";
import { type Command, parseWith } from "../args.ts";
import type { Monitor } from "../client.ts";
import { EXIT, UsageError } from "../exit.ts";
import { levelCell, percent, renderTable, when } from "../table.ts";
import { EXIT_HELP, GLOBAL_HELP } from "./_shared.ts";

/** Options of `status monitors` (none of its own). */
export type MonitorsOptions = Record<string, never>;

const HELP = `Usage: status monitors [options]

Lists the services your account watches (its monitors, set up in Settings > Monitors or with
POST /api/user/monitors): each with the level of what it watches now (only the chosen
components when it names some), its 30-day uptime and open incidents. Exit 1 when a monitor
that is not paused is not OPERATIONAL: "is anything we depend on broken?". Needs
STATUS_API_KEY holding monitors:read.

JSON (--json):
  {"ok", "monitors": [{"id", "service", "serviceName", "components", "label", "paused",
    "currentStatus", "uptime30d", "state", "missingComponents", "openIncidents",
    "lastCheckedAt"}]}

${EXIT_HELP}

${GLOBAL_HELP}`;

/** Every monitor of the account (pages of 200). */
async function allMonitors(
  list: (limit: number, page: number) => Promise<{ content: Monitor[]; totalPages: number }>,
): Promise<Monitor[]> {
  const out: Monitor[] = [];
  for (let page = 0;; page++) {
    const p = await list(200, page);
    out.push(...p.content);
    if (page + 1 >= p.totalPages) return out;
  }
}

/** The `monitors` command. */
export const monitorsCommand: Command<MonitorsOptions> = {
  name: "monitors",
  summary: "your account's monitors (exit 1 if one is not operational)",
  help: HELP,
  flags: {},
  parse: (tokens) => {
    if (tokens.positionals.length) {
      throw new UsageError(`status monitors takes no arguments (got "${tokens.positionals[0]}")`);
    }
    return parseWith(z.object({}), {}) as MonitorsOptions;
  },
  async run(_options, ctx) {
    const monitors = await allMonitors((limit, page) => ctx.client.listMonitors(limit, page));
    const ok = monitors.every((m) => m.paused || m.currentStatus === "OPERATIONAL");
    if (ctx.global.json) {
      ctx.print(JSON.stringify({ ok, monitors }, null, 2));
    } else if (monitors.length === 0) {
      ctx.print(
        "No monitors yet: add some in Settings > Monitors or with POST /api/user/monitors.",
      );
    } else {
      ctx.print(renderTable(
        ["MONITOR", "SERVICE", "STATUS", "UPTIME 30D", "INCIDENTS", "CHECKED"],
        monitors.map((m) => [
          m.label ?? m.id,
          m.components.length ? `${m.service} (${m.components.join(", ")})` : m.service,
          m.paused
            ? "paused"
            : m.state === "service_missing"
            ? "UNKNOWN — left the catalog"
            : levelCell(m.currentStatus),
          percent(m.uptime30d),
          String(m.openIncidents.length),
          when(m.lastCheckedAt),
        ]),
        ctx.colour,
      ));
    }
    return ok ? EXIT.ok : EXIT.notOperational;
  },
};
