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

/** RSS title prefixes (before the first colon) → impact. */
export const TITLE_IMPACT: Readonly<Record<string, Impact>> = {
  "Service is operating normally": "NONE",
  "Informational message": "NONE",
  "Performance issues": "MINOR",
  "Service disruption": "CRITICAL",
};

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

function rssIncident(entry: FeedEntry, superseded: boolean, ctx: ParseContext): IncidentSnapshot {
  const colon = entry.title.indexOf(":");
  const prefix = colon > 0 ? entry.title.slice(0, colon).trim() : "";
  const rest = colon > 0 ? entry.title.slice(colon + 1).trim() : entry.title;
  const impact = lookup(TITLE_IMPACT, prefix, "title prefix", "MINOR", ctx.unknownValue);
  const closed = superseded || prefix === "Service is operating normally" ||
    rest.startsWith("[RESOLVED]");
  const at = entry.published ?? ctx.fetchedAt;
  const status: IncidentStatus = closed ? "RESOLVED" : "INVESTIGATING";
  return {
    externalId: entry.id,
    title: rest.replace(/^\[RESOLVED\]\s*/, ""),
    status,
    impact,
    startedAt: at,
    updatedAt: at,
    resolvedAt: closed ? at : null,
    url: entry.link,
    componentIds: [],
    updates: [{ at, status, body: htmlToText(entry.html) }],
  };
}

function parseRss(body: string, ctx: ParseContext): Snapshot {
  const { entries } = readFeed(PLATFORM, body, ctx);
  // a later item about the same service-region supersedes an earlier one
  const newest = new Map<string, number>();
  for (const e of entries) {
    const key = serviceKey(e);
    newest.set(key, Math.max(newest.get(key) ?? -Infinity, e.published ?? -Infinity));
  }
  const incidents = entries.map((e) =>
    rssIncident(e, (e.published ?? -Infinity) < newest.get(serviceKey(e))!, ctx)
  );
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
