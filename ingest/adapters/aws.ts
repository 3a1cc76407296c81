/**
 * AWS Health (FORMATS §8). The endpoint is the all-services RSS feed (UTF-8, still linked);
 * `parse` also reads the Health Dashboard `currentevents` JSON array (UTF-16 on the wire) and the
 * retired `data.json`, so a recorded body of any of the three is understood.
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  IncidentUpdate,
  Snapshot,
  StatusLevel,
} from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import {
  checked,
  closedSince,
  decodeJson,
  indicatorFromIncidents,
  lookup,
  oldestFirst,
} from "./_feed_common.ts";
import { htmlToText } from "./_feed_html.ts";
import { type FeedEntry, readFeed } from "./_feed_read.ts";
import { minutesOf12h, nextTimeOfDay, parseEpoch, zoneOffset } from "./_feed_time.ts";
import { validateEach } from "./_json_payload.ts";

const PLATFORM = "aws";

/** Event and service status codes → impact (0 ok, 1 informational, 2 degraded, 3 disrupted). */
export const CODE_IMPACT: Readonly<Record<string, Impact>> = {
  "0": "NONE",
  "1": "NONE",
  "2": "MINOR",
  "3": "CRITICAL",
};

/** Service status codes → component level. */
export const CODE_LEVEL: Readonly<Record<string, StatusLevel>> = {
  "0": "OPERATIONAL",
  "1": "OPERATIONAL",
  "2": "DEGRADED_PERFORMANCE",
  "3": "MAJOR_OUTAGE",
};

/**
 * RSS title prefixes (before the first colon, case aside) → impact: the Service Health
 * Dashboard's (`Service is operating normally`, `Informational message`, `Performance issues`,
 * `Service disruption`) and the Health Dashboard's severities (`Informational`,
 * `Service degradation`, `Service disruption`, `Service impact`).
 */
export const TITLE_IMPACT: Readonly<Record<string, Impact>> = {
  "service is operating normally": "NONE",
  "informational message": "NONE",
  "informational": "NONE",
  "performance issues": "MINOR",
  "service degradation": "MAJOR",
  "degradation": "MAJOR",
  "service impact": "MAJOR",
  "service disruption": "CRITICAL",
  "disruption": "CRITICAL",
};

const IMPACT_ORDER: readonly Impact[] = ["NONE", "MINOR", "MAJOR", "CRITICAL"];

/** Undoes a UTF-16 body read as UTF-8/Latin-1 (BOM, NULs between characters). */
function repairUtf16(body: string): string {
  return body.includes("\u0000")
    ? body.replaceAll("\u0000", "").replace(/^[\uFEFF\uFFFD\u00FF\u00FE]+/, "")
    : body.replace(/^\uFEFF/, "");
}

// ── RSS ──────────────────────────────────────────────────────────────────────

/** `…#rds-us-east-1_1676072880` → `rds-us-east-1` (the service-region the item is about). */
function serviceKey(entry: FeedEntry): string {
  const m = /#([^#_]+)_\d+$/.exec(entry.id);
  return m ? m[1]! : entry.id;
}

/** An item's title split at its first colon: the severity prefix and the event's words. */
function titleOf(entry: FeedEntry): { prefix: string; rest: string } {
  const colon = entry.title.indexOf(":");
  return colon > 0
    ? { prefix: entry.title.slice(0, colon).trim(), rest: entry.title.slice(colon + 1).trim() }
    : { prefix: "", rest: entry.title };
}

/** An item that ends its event: the service is operating normally, or the title says resolved. */
function closes(entry: FeedEntry): boolean {
  const { prefix, rest } = titleOf(entry);
  return prefix.toLowerCase() === "service is operating normally" ||
    /^\[RESOLVED\]/i.test(rest);
}

/**
 * One AWS event from its items, oldest first: every item is an update of the same event (the
 * feed prints each update as its own item, about the same service and region), the first gives
 * its id, title and start, the worst severity its impact, and a closing item its end.
 */
function rssEvent(
  items: readonly FeedEntry[],
  closed: boolean,
  ctx: ParseContext,
): IncidentSnapshot {
  const first = items[0]!;
  const last = items.at(-1)!;
  let impact: Impact = "NONE";
  for (const item of items) {
    const { prefix } = titleOf(item);
    if (prefix.toLowerCase() === "service is operating normally") continue;
    const stated = lookup(
      TITLE_IMPACT,
      prefix.toLowerCase(),
      "title prefix",
      "MINOR",
      (f) => ctx.unknownValue?.(f, prefix),
    );
    if (IMPACT_ORDER.indexOf(stated) > IMPACT_ORDER.indexOf(impact)) impact = stated;
  }
  const updates: IncidentUpdate[] = items.map((item, i) => ({
    at: item.published ?? ctx.fetchedAt,
    status: closed && i === items.length - 1 ? "RESOLVED" : "INVESTIGATING",
    body: htmlToText(item.html),
  }));
  const status: IncidentStatus = closed ? "RESOLVED" : "INVESTIGATING";
  const title = titleOf(items.find((i) => !closes(i)) ?? first).rest.replace(
    /^\[RESOLVED\]\s*/i,
    "",
  );
  return {
    externalId: first.id,
    title,
    status,
    impact,
    startedAt: updates[0]!.at,
    updatedAt: updates.at(-1)!.at,
    resolvedAt: closed ? last.published ?? ctx.fetchedAt : null,
    url: last.link,
    componentIds: [],
    updates,
  };
}

function parseRss(body: string, ctx: ParseContext): Snapshot {
  const { entries } = readFeed(PLATFORM, body, ctx);
  // Items about one service and region, oldest first; each closing item ends an event, and
  // the items after it begin the next.
  const threads = Map.groupBy(entries, serviceKey);
  const incidents: IncidentSnapshot[] = [];
  for (const items of threads.values()) {
    const ordered = items.map((e, i) => ({ e, i })).sort((a, b) =>
      (a.e.published ?? 0) - (b.e.published ?? 0) || b.i - a.i
    ).map((x) => x.e);
    let event: FeedEntry[] = [];
    for (const item of ordered) {
      event.push(item);
      if (closes(item)) {
        incidents.push(rssEvent(event, true, ctx));
        event = [];
      }
    }
    if (event.length > 0) incidents.push(rssEvent(event, false, ctx));
  }
  incidents.sort((a, b) => b.updatedAt - a.updatedAt);
  return { indicator: indicatorFromIncidents(incidents), components: [], incidents };
}

// ── Health Dashboard currentevents ──────────────────────────────────────────

const code = z.union([z.string(), z.number()]).transform(String);
const epoch = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const t = parseEpoch(v);
  if (t === null) {
    ctx.addIssue({ code: "custom", message: `not an epoch time: "${v}"` });
    return z.NEVER;
  }
  return t;
});

const healthEvent = z.looseObject({
  arn: z.string().optional(),
  date: epoch,
  status: code,
  service: z.string(),
  service_name: z.string().default(""),
  summary: z.string().default(""),
  region_name: z.string().nullish(),
  /** Read one by one: a malformed log entry is dropped with a note, not the event. */
  event_log: z.array(z.unknown()).default([]),
  impacted_services: z.record(
    z.string(),
    z.looseObject({ service_name: z.string().default(""), current: code }),
  ).default({}),
});

const logEntry = z.looseObject({
  summary: z.string().default(""),
  message: z.string().default(""),
  status: code.optional(),
  timestamp: epoch,
});

type HealthEvent = z.infer<typeof healthEvent> & {
  readonly log: readonly z.infer<typeof logEntry>[];
};

function healthIncident(e: HealthEvent, ctx: ParseContext): IncidentSnapshot {
  const closed = e.status === "0";
  const updates = oldestFirst(e.log.map((l): IncidentUpdate => ({
    at: l.timestamp,
    status: l.status === "0" ? "RESOLVED" : "INVESTIGATING",
    body: [l.summary, htmlToText(l.message)].filter(Boolean).join(": "),
  })));
  const status: IncidentStatus = closed ? "RESOLVED" : "INVESTIGATING";
  return {
    externalId: e.arn ?? `${e.service}_${e.date}`,
    title: [e.service_name, e.summary].filter(Boolean).join(": "),
    status,
    impact: lookup(CODE_IMPACT, e.status, "status", "MINOR", ctx.unknownValue),
    startedAt: e.date,
    updatedAt: updates.at(-1)?.at ?? e.date,
    resolvedAt: closed ? closedSince(updates) ?? updates.at(-1)?.at ?? e.date : null,
    url: null,
    componentIds: Object.keys(e.impacted_services),
    updates,
  };
}

function parseHealth(value: readonly unknown[], ctx: ParseContext): Snapshot {
  const events = validateEach(value, healthEvent, [], ctx, (e, path): HealthEvent => ({
    ...e,
    log: validateEach(e.event_log, logEntry, [...path, "event_log"], ctx),
  }));
  const incidents = events.map((e) => healthIncident(e, ctx));
  const components = new Map<string, ComponentSnapshot>();
  for (const e of events) {
    for (const [id, s] of Object.entries(e.impacted_services)) {
      const status = lookup(CODE_LEVEL, s.current, "service status", "UNKNOWN", ctx.unknownValue);
      components.set(id, { externalId: id, name: s.service_name || id, group: null, status });
    }
  }
  return {
    indicator: indicatorFromIncidents(incidents),
    components: [...components.values()],
    incidents,
  };
}

// ── legacy data.json ────────────────────────────────────────────────────────

const legacyEvent = z.looseObject({
  service: z.string(),
  service_name: z.string().default(""),
  summary: z.string(),
  date: epoch,
  status: code,
  description: z.string().default(""),
});

/** The retired data.json; a malformed event is dropped with a note. */
const legacyDoc = z.looseObject({
  archive: z.array(z.unknown()),
  current: z.array(z.unknown()).default([]),
});

/**
 * `<span …>time</span>text` up to the next `<div` (or the end): `[whole, time, text]` each,
 * found with a search per tag so the cost stays linear in the description's size.
 */
function spanBlocks(html: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  const span = /<span[^<>]*>([^<]+)<\/span>/gi;
  for (let m = span.exec(html); m !== null; m = span.exec(html)) {
    const from = span.lastIndex;
    const div = html.slice(from).search(/<div/i);
    const end = div < 0 ? html.length : from + div;
    out.push([html.slice(m.index, end), m[1]!, html.slice(from, end)]);
    span.lastIndex = end;
  }
  return out;
}

/** `<div><span>12:53 PM PDT</span>&nbsp;text</div>` blocks, anchored to the event's day. */
function legacyTimeline(
  e: z.infer<typeof legacyEvent>,
  last: IncidentStatus,
  ctx: ParseContext,
): IncidentUpdate[] {
  const out: IncidentUpdate[] = [];
  let cursor = e.date;
  const blocks = spanBlocks(e.description);
  blocks.forEach((m, i) => {
    const words = m[1]!.trim().split(/\s+/);
    const [clock, zone] = [words.slice(0, -1).join(" "), words.at(-1)!];
    const minutes = minutesOf12h(clock);
    const offset = zoneOffset(zone);
    if (minutes === null || offset === null) {
      ctx.unknownValue?.("timeline time", m[1]!.trim());
      return;
    }
    cursor = nextTimeOfDay(cursor, minutes, offset);
    const status = i === blocks.length - 1 ? last : "INVESTIGATING";
    out.push({ at: cursor, status, body: htmlToText(m[2]!) });
  });
  return out;
}

function parseLegacy(value: unknown, ctx: ParseContext): Snapshot {
  const doc = checked(PLATFORM, legacyDoc, value);
  const events = [
    ...validateEach(doc.current, legacyEvent, ["current"], ctx),
    ...validateEach(doc.archive, legacyEvent, ["archive"], ctx),
  ];
  const incidents = events.map((e): IncidentSnapshot => {
    const closed = e.summary.startsWith("[RESOLVED]") || e.status === "0";
    const status: IncidentStatus = closed ? "RESOLVED" : "INVESTIGATING";
    const updates = legacyTimeline(e, status, ctx);
    const lastAt = updates.at(-1)?.at ?? e.date;
    return {
      externalId: `${e.service}_${Math.floor(e.date / 1000)}`,
      title: [e.service_name, e.summary.replace(/^\[RESOLVED\]\s*/, "")].filter(Boolean).join(": "),
      status,
      impact: lookup(CODE_IMPACT, e.status, "status", "MINOR", ctx.unknownValue),
      startedAt: e.date,
      updatedAt: lastAt,
      resolvedAt: closed ? lastAt : null,
      url: null,
      componentIds: [],
      updates,
    };
  });
  return { indicator: indicatorFromIncidents(incidents), components: [], incidents };
}

function parse(body: string, ctx: ParseContext): Snapshot {
  const text = repairUtf16(body).trimStart();
  if (text.startsWith("<")) return parseRss(text, ctx);
  const value = decodeJson(PLATFORM, text);
  if (Array.isArray(value)) return parseHealth(value, ctx);
  // one currentevents element on its own (as recorded samples show it)
  const single = typeof value === "object" && value !== null && "event_log" in value;
  return single ? parseHealth([value], ctx) : parseLegacy(value, ctx);
}

/** AWS adapter: the all-services RSS feed. */
export const awsAdapter: Adapter = {
  platform: PLATFORM,
  endpoint: () => new URL("https://status.aws.amazon.com/rss/all.rss"),
  parse,
};
