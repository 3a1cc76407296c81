/**
 * Generic RSS 2.0 / Atom incident feeds (platform "rss"): Statuspage `/history.atom|rss`,
 * incident.io feeds, LambStatus, xAI and similar. Feeds carry no page or component state, so the
 * indicator comes from the open entries' impact (DESIGN §4, FORMATS §1 feeds, §16).
 * @module
 */
import type {
  EpochMs,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  IncidentUpdate,
  Snapshot,
} from "../../domain/mod.ts";
import { DAY_MS, isOpen } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import { closedSince, indicatorFromIncidents } from "./_feed_common.ts";
import { parseWallDate, readFeedHtml } from "./_feed_html.ts";
import { monthIndex, zoneOffset } from "./_feed_time.ts";
import { type FeedEntry, readFeed } from "./_feed_read.ts";

const PLATFORM = "rss";

/** Timeline labels and `Status:` headings (lower-cased) → status; null = "no change" (`Update`). */
export const LABEL_STATUS: Readonly<Record<string, IncidentStatus | null>> = {
  investigating: "INVESTIGATING",
  identified: "IDENTIFIED",
  update: null,
  monitoring: "MONITORING",
  resolved: "RESOLVED",
  postmortem: "RESOLVED",
  scheduled: "SCHEDULED",
  "in progress": "IN_PROGRESS",
  verifying: "IN_PROGRESS",
  completed: "COMPLETED",
};

/** `Severity:` values and severity categories (lower-cased) → impact. */
export const SEVERITY_IMPACT: Readonly<Record<string, Impact>> = {
  none: "NONE",
  minor: "MINOR",
  degraded: "MINOR",
  "degraded performance": "MINOR",
  disruption: "MAJOR",
  major: "MAJOR",
  "partial outage": "MAJOR",
  outage: "CRITICAL",
  "major outage": "CRITICAL",
  critical: "CRITICAL",
  maintenance: "MAINTENANCE",
};

/** Impact of an entry that states none: an open entry means something is at least degraded. */
export const DEFAULT_IMPACT: Impact = "MINOR";

const MAINTENANCE_LABELS = new Set(["scheduled", "in progress", "verifying", "completed"]);

/** Feed URL: the page URL itself when it already names a feed, else `<page>/history.atom`. */
function endpoint(vendor: { statusPageUrl: string }): URL {
  const url = new URL(vendor.statusPageUrl);
  if (/(\.(rss|atom|xml)|\/feed\/?|\/rss\/?)$/i.test(url.pathname)) return url;
  const base = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return new URL(`${base}history.atom`, url.origin);
}

/**
 * Timeline oldest first with each label mapped; `Update` and unknown labels keep the status.
 * Feeds print minutes only and newest first, and Statuspage orders same-minute updates
 * arbitrarily (GitHub: "Investigating - X is operating normally" printed above "Resolved" in the
 * same minute): within one minute a closing update therefore counts as the last.
 */
function timeline(
  raw: readonly { at: EpochMs; label: string; body: string }[],
  maintenance: boolean,
  ctx: ParseContext,
): IncidentUpdate[] {
  const closing = (label: string) => {
    const s = LABEL_STATUS[label.toLowerCase()];
    return s === "RESOLVED" || s === "COMPLETED" ? 1 : 0;
  };
  const sorted = [...raw].reverse().map((u, i) => ({ u, i })).sort((a, b) =>
    a.u.at - b.u.at || closing(a.u.label) - closing(b.u.label) || a.i - b.i
  );
  let current: IncidentStatus = maintenance ? "SCHEDULED" : "INVESTIGATING";
  return sorted.map(({ u }) => {
    const key = u.label.toLowerCase();
    if (Object.hasOwn(LABEL_STATUS, key)) current = LABEL_STATUS[key] ?? current;
    else ctx.unknownValue?.("update label", u.label);
    return { at: u.at, status: current, body: u.body };
  });
}

/** A category or heading value looked up in `table` (lower-cased); unknown ones are reported. */
function stated<T>(
  raw: string | null,
  table: Readonly<Record<string, T>>,
  field: string,
  ctx: ParseContext,
): T | undefined {
  if (raw === null) return undefined;
  const key = raw.trim().toLowerCase();
  if (Object.hasOwn(table, key)) return table[key] ?? undefined;
  ctx.unknownValue?.(field, raw.trim());
  return undefined;
}

/** A bracketed or leading status in a title: `[Resolved] X`, `Resolved: X`, `X [RESOLVED]`. */
const TITLE_STATUS =
  /(?:^\[?|\[)(investigating|identified|monitoring|resolved|scheduled|in progress|completed)(?:\]|\s*[-–:])/i;

/** Two times of one day and their zone, as titles print a window: `12:00–16:00 GMT`. */
const TIME_RANGE =
  /(\d{1,2}:\d{2}) ?[-–—] ?(\d{1,2}:\d{2}) ?([A-Za-z]{2,5}(?:[+-]\d{1,2}(?::\d{2})?)?)/;
/** A month and day, either way round. */
const MONTH_DAY = /([A-Za-z]{3,9})\.? (\d{1,2})|(\d{1,2}) ([A-Za-z]{3,9})/g;

/**
 * A window a title states as times of one day: `Database upgrade, Nov 28 12:00–16:00 GMT`
 * (the day is the entry's own when the title names none); null when it states none.
 */
function titleWindow(
  title: string,
  day: EpochMs,
  report: ParseContext["unknownValue"],
): { start: EpochMs; end: EpochMs } | null {
  const flat = title.replace(/\s+/g, " ");
  const m = TIME_RANGE.exec(flat);
  if (!m || zoneOffset(m[3]!) === null) return null;
  let on: string | null = null;
  for (const d of flat.slice(0, m.index).matchAll(MONTH_DAY)) {
    const month = d[1] ?? d[4]!;
    if (monthIndex(month) !== null) on = `${month} ${d[2] ?? d[3]}`;
  }
  on ??= new Date(day).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  const year = new Date(day).getUTCFullYear();
  const start = parseWallDate(`${on} ${year} ${m[1]} ${m[3]}`, day, report);
  let end = parseWallDate(`${on} ${year} ${m[2]} ${m[3]}`, day, report);
  if (start === null || end === null) return null;
  if (end <= start) end += DAY_MS;
  return { start, end };
}

function toIncident(
  entry: FeedEntry,
  builtAt: EpochMs | null,
  ctx: ParseContext,
  index: number,
): IncidentSnapshot {
  const reference = entry.updated ?? entry.published ?? builtAt ?? ctx.fetchedAt;
  // Every text the entry carries is read; the first with a timeline gives it, and each of the
  // others may still state what the first does not.
  const read = entry.texts.map((text) => readFeedHtml(text, reference, ctx.unknownValue));
  const html = {
    updates: read.find((h) => h.updates.length > 0)?.updates ?? [],
    status: read.find((h) => h.status !== null)?.status ?? null,
    severity: read.find((h) => h.severity !== null)?.severity ?? null,
    window: read.find((h) => h.window !== null)?.window ?? null,
  };
  const categories = entry.categories.map((c) => c.trim().toLowerCase());
  const severity = stated(html.severity, SEVERITY_IMPACT, "severity", ctx) ??
    categories.map((c) => SEVERITY_IMPACT[c]).find((x) => x !== undefined);
  const elements = entry.window;
  const named = titleWindow(entry.title, entry.published ?? reference, ctx.unknownValue);
  const window: { start: EpochMs | null; end: EpochMs | null } | null = html.window ??
    (elements !== null
      ? { start: elements.start ?? named?.start ?? null, end: elements.end ?? named?.end ?? null }
      : named);
  const windowStart = window?.start ?? null;
  const windowEnd = window?.end ?? null;
  const maintenance = severity === "MAINTENANCE" || window !== null ||
    /\/maintenances?\//.test(entry.link ?? "") ||
    html.updates.some((u) => MAINTENANCE_LABELS.has(u.label.toLowerCase()));
  const updates = timeline(html.updates, maintenance, ctx);
  const lastUpdate = updates.at(-1);
  const titled = TITLE_STATUS.exec(entry.title)?.[1];
  const headline = stated(html.status, LABEL_STATUS, "status", ctx) ??
    categories.map((c) => LABEL_STATUS[c]).find((x) => x !== undefined && x !== null) ??
    (titled ? LABEL_STATUS[titled.toLowerCase()] ?? undefined : undefined);
  const latest = Math.max(lastUpdate?.at ?? -Infinity, entry.updated ?? -Infinity);
  const updatedAt = Number.isFinite(latest) ? latest : entry.published ?? builtAt ?? ctx.fetchedAt;
  let status: IncidentStatus;
  if (headline) status = headline;
  else if (lastUpdate) status = lastUpdate.status;
  else if (maintenance && windowEnd !== null && windowEnd > ctx.fetchedAt) {
    // A maintenance that states only its window: scheduled until it starts, then under way.
    status = windowStart !== null && windowStart > ctx.fetchedAt ? "SCHEDULED" : "IN_PROGRESS";
  } else {
    // Nothing says whether it is over. Its age would be a guess, and a guess that keeps an
    // incident open for hours is the worst kind of wrong: it is read as closed, and said so.
    status = maintenance ? "COMPLETED" : "RESOLVED";
    ctx.dropped?.(
      `entries[${index}]`,
      `"${
        entry.title.slice(0, 80)
      }": no timeline or status could be read, so whether it is over is not stated; read as ${
        maintenance ? "completed" : "resolved"
      }`,
    );
  }
  const firstAt = updates[0]?.at ?? entry.published ?? updatedAt;
  const startedAt = maintenance
    ? window?.start ?? updates.find((u) => u.status === "IN_PROGRESS")?.at ??
      (status === "SCHEDULED" ? entry.published ?? firstAt : firstAt)
    : Math.min(firstAt, entry.published ?? firstAt);
  return {
    externalId: entry.id,
    title: entry.title,
    status,
    impact: maintenance ? "MAINTENANCE" : severity ?? DEFAULT_IMPACT,
    startedAt,
    updatedAt,
    resolvedAt: isOpen(status) ? null : closedSince(updates) ?? updatedAt,
    url: entry.link,
    componentIds: [],
    updates,
    ...(windowStart !== null ? { scheduledStartAt: windowStart } : {}),
    ...(windowEnd !== null ? { scheduledEndAt: windowEnd } : {}),
  };
}

/** xAI repeats one incident per sub-page (same guid, `[Sub-page] Title`): keep one, drop the prefix. */
function mergeDuplicates(incidents: readonly IncidentSnapshot[]): IncidentSnapshot[] {
  const groups = Map.groupBy(incidents, (i) => i.externalId);
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    if (group.length === 1) return first;
    const bare = new Set(group.map((i) => i.title.replace(/^\[[^\]]*\]\s*/, "")));
    return bare.size === 1 ? { ...first, title: [...bare][0]! } : first;
  });
}

/** Parses an RSS 2.0 or Atom incident feed. */
function parse(body: string, ctx: ParseContext): Snapshot {
  const feed = readFeed(PLATFORM, body, ctx);
  const incidents = mergeDuplicates(
    feed.entries.map((e, i) => toIncident(e, feed.builtAt, ctx, i)),
  );
  // A feed lists its newest entries, closed ones too: one it stops listing was removed.
  return {
    indicator: indicatorFromIncidents(incidents),
    components: [],
    incidents,
    keepsHistory: true,
  };
}

/** Generic RSS 2.0 / Atom incident feed adapter. */
export const feedAdapter: Adapter = { platform: PLATFORM, endpoint, parse };
