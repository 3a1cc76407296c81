/**
 * RSS 2.0 and Atom documents → one flat list of entries, the shape the feed, AWS and Azure
 * adapters map from. Only the fields we read are validated.
 * @module
 */
import { z } from "zod";
import type { EpochMs } from "../../domain/mod.ts";
import { type ParseContext, PayloadError } from "./adapter.ts";
import { checked } from "./_feed_common.ts";
import { validateEach } from "./_json_payload.ts";
import { parseFeedDate } from "./_feed_time.ts";
import { decodeXml, xmlLink, xmlText } from "./_xml.ts";

/** One `<item>` or `<entry>`, with text decoded and dates parsed (null when absent or unreadable). */
export interface FeedEntry {
  /** guid / id, else the link, else the title. */
  readonly id: string;
  readonly title: string;
  readonly link: string | null;
  /** RSS `pubDate` or Atom `published`. */
  readonly published: EpochMs | null;
  /** Atom `updated` only (RSS has no per-item update time). */
  readonly updated: EpochMs | null;
  /** Embedded HTML: `content:encoded`, `description`, Atom `content` or `summary`. */
  readonly html: string;
  /**
   * Every embedded text the entry carries, richest first (`content:encoded` then
   * `description`; Atom `content` then `summary`): the same timeline is often in both, and
   * readable in only one.
   */
  readonly texts: readonly string[];
  /**
   * A window the entry states in elements of its own (`maintenanceStartDate`,
   * `maintenanceEndDate` and the like), when it does.
   */
  readonly window: { readonly start: EpochMs | null; readonly end: EpochMs | null } | null;
  /** `<category>` text or Atom `term`, in order. */
  readonly categories: readonly string[];
}

/** A decoded feed: entries in document order and the feed's own build time. */
export interface Feed {
  readonly entries: readonly FeedEntry[];
  readonly builtAt: EpochMs | null;
}

const category = z.union([
  xmlText,
  z.looseObject({ "@_term": z.string() }).transform((c) => c["@_term"]),
]);

const rssItem = z.looseObject({
  title: xmlText.optional(),
  link: z.array(xmlLink).optional(),
  guid: xmlText.optional(),
  pubDate: xmlText.optional(),
  description: xmlText.optional(),
  "content:encoded": xmlText.optional(),
  category: z.array(category).optional(),
});

const rssDoc = z.looseObject({
  rss: z.looseObject({
    channel: z.looseObject({
      item: z.array(z.unknown()).optional(),
      lastBuildDate: xmlText.optional(),
      pubDate: xmlText.optional(),
    }),
  }),
});

const atomEntry = z.looseObject({
  id: xmlText.optional(),
  title: xmlText.optional(),
  link: z.array(xmlLink).optional(),
  published: xmlText.optional(),
  updated: xmlText.optional(),
  content: xmlText.optional(),
  summary: xmlText.optional(),
  category: z.array(category).optional(),
});

const atomDoc = z.looseObject({
  feed: z.looseObject({ entry: z.array(z.unknown()).optional(), updated: xmlText.optional() }),
});

function date(text: string | undefined): EpochMs | null {
  return text === undefined || text.trim() === "" ? null : parseFeedDate(text);
}

function firstLink(links: readonly z.infer<typeof xmlLink>[] | undefined): string | null {
  if (!links || links.length === 0) return null;
  const alternate = links.find((l) =>
    typeof l !== "string" && (l["@_rel"] ?? "alternate") === "alternate"
  );
  const chosen = alternate ?? links[0]!;
  const href = typeof chosen === "string" ? chosen : chosen["@_href"];
  return href.trim() === "" ? null : href.trim();
}

/** The non-empty texts of `values`, in order, each once. */
function texts(...values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined && v.trim() !== ""))];
}

/** A start or end stated in an element named like `maintenanceEndDate` or `endTime`. */
function windowOf(item: Record<string, unknown>): FeedEntry["window"] {
  let start: EpochMs | null = null;
  let end: EpochMs | null = null;
  for (const [key, value] of Object.entries(item)) {
    const name = key.replace(/^.*:/, "").toLowerCase();
    if (!/(date|time|at)$/.test(name) || (typeof value !== "string" && typeof value !== "number")) {
      continue;
    }
    const at = date(String(value));
    if (at === null) continue;
    if (/^(maintenance|scheduled|window)?(start|begin)/.test(name)) start ??= at;
    else if (/^(maintenance|scheduled|window)?(end|finish)/.test(name)) end ??= at;
  }
  return start === null && end === null ? null : { start, end };
}

function entryId(id: string | undefined, link: string | null, title: string): string {
  return id?.trim() || link || title.trim();
}

/**
 * Decodes an RSS 2.0 or Atom body; any other XML root is a PayloadError. An entry that is not
 * an entry's shape is left out, reported through `ctx.dropped` (`rss.channel.item[2].title`).
 */
export function readFeed(platform: string, body: string, ctx?: ParseContext): Feed {
  const doc = decodeXml(platform, body);
  const noted: Pick<ParseContext, "dropped"> = ctx ?? {};
  if (typeof doc === "object" && doc !== null && "feed" in doc) {
    const { feed } = checked(platform, atomDoc, doc);
    const entries = validateEach(feed.entry, atomEntry, ["feed", "entry"], noted).map(
      (e): FeedEntry => {
        const title = e.title ?? "";
        const link = firstLink(e.link);
        return {
          id: entryId(e.id, link, title),
          title: title.trim(),
          link,
          published: date(e.published),
          updated: date(e.updated),
          html: e.content ?? e.summary ?? "",
          texts: texts(e.content, e.summary),
          window: windowOf(e),
          categories: e.category ?? [],
        };
      },
    );
    return { entries, builtAt: date(feed.updated) };
  }
  if (typeof doc === "object" && doc !== null && "rss" in doc) {
    const { rss } = checked(platform, rssDoc, doc);
    const items = validateEach(rss.channel.item, rssItem, ["rss", "channel", "item"], noted);
    const entries = items.map((i): FeedEntry => {
      const title = i.title ?? "";
      const link = firstLink(i.link);
      return {
        id: entryId(i.guid, link, title),
        title: title.trim(),
        link,
        published: date(i.pubDate),
        updated: null,
        html: i["content:encoded"] ?? i.description ?? "",
        texts: texts(i["content:encoded"], i.description),
        window: windowOf(i),
        categories: i.category ?? [],
      };
    });
    return { entries, builtAt: date(rss.channel.lastBuildDate ?? rss.channel.pubDate) };
  }
  const root = typeof doc === "object" && doc !== null
    ? Object.keys(doc).filter((k) => !k.startsWith("?")).join(",")
    : typeof doc;
  throw new PayloadError(
    platform,
    "$",
    `expected an <rss> or Atom <feed> root, found ${root || "nothing"}`,
  );
}
