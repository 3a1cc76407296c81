/**
 * Azure status RSS (FORMATS §9): empty almost always; an item is an active event with no
 * severity (read as degraded), its phase the last word of the title.
 * @module
 */
import type { IncidentSnapshot, IncidentStatus, Snapshot } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import { indicatorFromIncidents } from "./_feed_common.ts";
import { htmlToText } from "./_feed_html.ts";
import { type FeedEntry, readFeed } from "./_feed_read.ts";

const PLATFORM = "azure";

/** Title phase words (lower-cased) → status; a title without one is an active event. */
export const PHASE_STATUS: Readonly<Record<string, IncidentStatus>> = {
  investigating: "INVESTIGATING",
  mitigating: "IDENTIFIED",
  mitigated: "RESOLVED",
  resolved: "RESOLVED",
};

function toIncident(entry: FeedEntry, builtAt: number | null, ctx: ParseContext): IncidentSnapshot {
  const phase = /[\s-]([A-Za-z]+)\s*$/.exec(entry.title)?.[1]?.toLowerCase() ?? "";
  const status = PHASE_STATUS[phase] ?? "INVESTIGATING";
  const at = entry.published ?? builtAt ?? ctx.fetchedAt;
  const closed = status === "RESOLVED";
  return {
    externalId: entry.id,
    title: entry.title,
    status,
    impact: "MINOR",
    startedAt: at,
    updatedAt: at,
    resolvedAt: closed ? at : null,
    url: entry.link,
    componentIds: [],
    updates: entry.html.trim() === "" ? [] : [{ at, status, body: htmlToText(entry.html) }],
  };
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const feed = readFeed(PLATFORM, body, ctx);
  const incidents = feed.entries.map((e) => toIncident(e, feed.builtAt, ctx));
  return { indicator: indicatorFromIncidents(incidents), components: [], incidents };
}

/** Azure adapter: the status RSS feed under the page's locale (default en-us). */
export const azureAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: (vendor) => {
    const locale = /^\/([a-z]{2}-[a-z]{2})\//i.exec(new URL(vendor.statusPageUrl).pathname)?.[1];
    return new URL(
      `https://azure.status.microsoft/${(locale ?? "en-us").toLowerCase()}/status/feed/`,
    );
  },
  parse,
};
