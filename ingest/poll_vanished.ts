/**
 * Settling incidents a document of open incidents only stopped listing: when a reading of such a
 * document (Statuspage's summary) no longer lists an incident statusd holds open, the poller reads
 * the vendor's history document once (`Adapter.history`) and the reading says, per incident,
 * whether the vendor resolved it (its own resolution time and closing words) or took it off its
 * page (domain/vanished_incidents.ts). Without a history document, or when it cannot be read, the
 * reading is stored as before (the incident closed at the reading time) and its notes say why.
 * @module
 */
import {
  cutText,
  type DueVendor,
  type EpochMs,
  type Platform,
  settleVanished,
  type Snapshot,
} from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { politeFetch } from "./http.ts";
import type { PollContext } from "./poll_context.ts";

/**
 * `snapshot` with the vanished open incidents settled: those the history lists closed added as
 * it lists them, those the vendor removed named in `removedIncidents`. Notes what it could not
 * read in `notes`. Asks the store only for a vendor with an open incident.
 */
export async function withVanishedSettled(
  v: DueVendor,
  adapter: Adapter,
  platform: Platform,
  snapshot: Snapshot,
  main: URL,
  at: EpochMs,
  ctx: PollContext,
  notes: string[],
): Promise<Snapshot> {
  if (!adapter.history || !v.hasOpenIncident) return snapshot;
  const listed = new Set(snapshot.incidents.map((i) => i.externalId));
  const vanished = (await ctx.deps.store.openIncidents(v.id)).filter((i) =>
    !listed.has(i.externalId)
  );
  if (vanished.length === 0 || ctx.aborted()) return snapshot;
  const url = adapter.history.endpoint(main);
  const unread = (why: string) => {
    notes.push(cutText(
      `${url.pathname}: not read (${why}); ${vanished.length} incident(s) no longer listed ` +
        "are taken as resolved when this reading saw them gone",
      300,
    ));
    return snapshot;
  };
  const outcome = await ctx.limit(url.host, () => politeFetch(url, ctx.fetchOptions({})));
  if (outcome.kind !== "ok") {
    return unread(outcome.kind === "failed" ? `${outcome.reason}: ${outcome.detail}` : "no body");
  }
  const read = await ctx.parser.parse(platform, adapter, outcome.body, {
    pageUrl: new URL(v.statusPageUrl),
    fetchedAt: at,
    documentUrl: new URL(outcome.url),
  });
  if (read.snapshot === null) return unread(String(read.error));
  const settled = settleVanished(vanished, read.snapshot.incidents);
  return {
    ...snapshot,
    incidents: [...snapshot.incidents, ...settled.resolved],
    ...(settled.removed.length > 0 ? { removedIncidents: settled.removed } : {}),
  };
}
