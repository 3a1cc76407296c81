/**
 * RSS 2.0 and Atom feeds of incidents, built with the `feed` package: `/feed.rss` and
 * `/feed.atom` (every vendor), `/services/{slug}/feed.rss|atom` (one vendor). Each item is an
 * incident or maintenance: vendor and title, impact and status, the latest timeline entries,
 * a link to the statusd service page and one to the vendor's own incident page.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  boardIncidentFeed,
  type IncidentFeed,
  incidentFeed,
  type NamedIncident,
  OPEN,
} from "../../app/mod.ts";
import { toIso } from "../../domain/mod.ts";
import { defineRoute } from "../api/define.ts";
import { SlugParam } from "../api/schemas.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { xmlSafe } from "./_text.ts";

/** Timeline entries shown per item, newest first. */
export const FEED_UPDATES_SHOWN = 5;

/** The two formats, with their media types. */
export const FEED_FORMATS = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
} as const;
/** `rss` or `atom`. */
export type FeedFormat = keyof typeof FEED_FORMATS;

const CACHE_CONTROL = { "Cache-Control": "public, max-age=60" };

function escapeHtml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function when(t: number): string {
  return toIso(t).replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

/** Where an incident is shown on statusd. */
export function incidentPageUrl(publicUrl: string, slug: string, id: string): string {
  return `${publicUrl}/services/${encodeURIComponent(slug)}#incident-${encodeURIComponent(id)}`;
}

/** The item body: facts, the latest timeline entries and both links, as escaped HTML. */
function contentOf(publicUrl: string, { incident: i, serviceName }: NamedIncident): string {
  const facts = `<p><strong>${escapeHtml(serviceName)}</strong> · impact ${i.impact} · ` +
    `status ${i.status} · started ${when(i.startedAt)}` +
    (i.resolvedAt !== null ? ` · ended ${when(i.resolvedAt)}` : "") +
    (i.scheduledStartAt !== null
      ? ` · planned ${when(i.scheduledStartAt)}` +
        (i.scheduledEndAt !== null ? ` to ${when(i.scheduledEndAt)}` : "")
      : "") +
    (i.components.length ? ` · affects ${escapeHtml(i.components.join(", "))}` : "") + `</p>`;
  const latest = i.updates.slice(-FEED_UPDATES_SHOWN).toReversed();
  const timeline = latest.length
    ? `<ul>${
      latest.map((u) =>
        `<li><strong>${u.status}</strong> (${when(u.at)}): ${escapeHtml(u.body)}</li>`
      ).join("")
    }</ul>` +
      (i.updates.length > latest.length
        ? `<p>${i.updates.length - latest.length} earlier updates not shown.</p>`
        : "")
    : "<p>No updates published.</p>";
  const links =
    `<p><a href="${escapeHtml(incidentPageUrl(publicUrl, i.serviceSlug, i.id))}">On statusd</a>` +
    (i.url ? ` · <a href="${escapeHtml(i.url)}">On the vendor's status page</a>` : "") + `</p>`;
  return facts + timeline + links;
}

/** Paths of the feed of `slug` (or of every vendor). */
export function feedPaths(slug?: string): Record<FeedFormat, string> {
  const base = slug === undefined ? "" : `/services/${encodeURIComponent(slug)}`;
  return { rss: `${base}/feed.rss`, atom: `${base}/feed.atom` };
}

/**
 * The feed document in `format`. The `feed` package is loaded with the first feed asked for
 * (memory at rest).
 */
export async function renderFeed(
  publicUrl: string,
  data: IncidentFeed & { readonly board?: { readonly slug: string; readonly title: string } },
  format: FeedFormat,
): Promise<string> {
  const { Feed } = await import("feed");
  const board = data.board;
  const boardPath = board ? `/b/${encodeURIComponent(board.slug)}` : "";
  const paths = board
    ? { rss: `${boardPath}/feed.rss`, atom: `${boardPath}/feed.atom` }
    : feedPaths(data.service?.slug);
  const page = board
    ? `${publicUrl}${boardPath}`
    : data.service
    ? `${publicUrl}/services/${encodeURIComponent(data.service.slug)}`
    : `${publicUrl}/`;
  const feed = new Feed({
    title: xmlSafe(
      board
        ? `${board.title} incidents · statusd`
        : data.service
        ? `${data.service.name} incidents · statusd`
        : "Vendor incidents · statusd",
    ),
    description: xmlSafe(
      board
        ? `Incidents and maintenance of the services on the board ${board.title}, ` +
          "most recently updated first"
        : data.service
        ? `Incidents and maintenance of ${data.service.name}, as read by statusd from its status page`
        : "Incidents and maintenance of every vendor statusd watches, most recently updated " +
          "first",
    ),
    id: `${publicUrl}${paths[format]}`,
    link: page,
    language: "en",
    updated: new Date(data.updatedAt),
    generator: "statusd",
    copyright: "Vendor texts belong to their vendors",
    feedLinks: { rss: `${publicUrl}${paths.rss}`, atom: `${publicUrl}${paths.atom}` },
  });
  for (const item of data.items) {
    const i = item.incident;
    const title = xmlSafe(`${item.serviceName}: ${i.title}`);
    feed.addItem({
      // Atom declares item titles `type="html"`; RSS titles are plain text.
      title: format === "atom" ? escapeHtml(title) : title,
      id: incidentPageUrl(publicUrl, i.serviceSlug, i.id),
      link: incidentPageUrl(publicUrl, i.serviceSlug, i.id),
      description: escapeHtml(
        `${i.impact} impact, ${i.status}` +
          (i.updates.length ? `: ${i.updates.at(-1)!.body.slice(0, 280)}` : ""),
      ),
      content: contentOf(publicUrl, item),
      date: new Date(i.updatedAt),
      // Atom has both dates; RSS has one `pubDate`, which `feed` would take from `published`:
      // an RSS item is dated by its last update, the order the feed is in.
      ...(format === "atom" ? { published: new Date(i.startedAt) } : {}),
      author: [{ name: xmlSafe(item.serviceName) }],
      category: [{ name: i.impact }, { name: i.status }],
    });
  }
  return format === "rss" ? feed.rss2() : feed.atom1();
}

const feedResponse = (format: FeedFormat, what: string) => ({
  200: {
    content: { [FEED_FORMATS[format].split(";")[0]!]: { schema: z.string() } },
    description: `The ${format === "rss" ? "RSS 2.0" : "Atom (RFC 4287)"} feed of ${what}`,
  },
  304: { description: "Not modified (the `If-None-Match` ETag still holds)" },
});

function allRoute(format: FeedFormat) {
  return defineRoute({
    method: "get",
    path: feedPaths()[format],
    operationId: format === "rss" ? "getIncidentsRss" : "getIncidentsAtom",
    tags: ["Feeds"],
    summary: `Incidents of every vendor (${format === "rss" ? "RSS 2.0" : "Atom"})`,
    description:
      `The latest incidents and maintenances of every vendor, most recently updated first, as ` +
      `${format === "rss" ? "RSS 2.0" : "an Atom feed (RFC 4287)"} for feed readers. Each item ` +
      "names the vendor, the impact and status, shows the latest timeline entries and links to " +
      "the statusd service page and to the vendor's own incident page; its date is the last " +
      "update. Cached; `ETag` and `If-None-Match` give 304. No credential needed.",
    responses: feedResponse(format, "every vendor's incidents"),
  }, OPEN);
}

function serviceRoute(format: FeedFormat) {
  return defineRoute({
    method: "get",
    path: `/services/{slug}${feedPaths()[format]}`,
    operationId: format === "rss" ? "getServiceIncidentsRss" : "getServiceIncidentsAtom",
    tags: ["Feeds"],
    summary: `Incidents of one vendor (${format === "rss" ? "RSS 2.0" : "Atom"})`,
    description:
      "The latest incidents and maintenances of one service, most recently updated first, as " +
      `${format === "rss" ? "RSS 2.0" : "an Atom feed (RFC 4287)"}; items as in the ` +
      "all-vendor feed. An unknown slug answers 404. No credential needed.",
    request: { params: SlugParam },
    responses: {
      ...feedResponse(format, "one service's incidents"),
      404: {
        content: { "application/json": { schema: ErrorSchema } },
        description: "`not_found`: no service has this slug",
      },
    },
  }, OPEN);
}

function boardRoute(format: FeedFormat) {
  return defineRoute({
    method: "get",
    path: `/b/{slug}/feed.${format}`,
    operationId: format === "rss" ? "getBoardIncidentsRss" : "getBoardIncidentsAtom",
    tags: ["Feeds"],
    summary: `Incidents of a board's services (${format === "rss" ? "RSS 2.0" : "Atom"})`,
    description: "The latest incidents and maintenances of every service on a public board, " +
      `most recently updated first, as ${
        format === "rss" ? "RSS 2.0" : "an Atom feed (RFC 4287)"
      }; items as ` +
      "in the all-vendor feed. No public board with this slug answers 404. No credential needed.",
    request: { params: SlugParam },
    responses: {
      ...feedResponse(format, "a board's services' incidents"),
      404: {
        content: { "application/json": { schema: ErrorSchema } },
        description: "`not_found`: no public board has this slug",
      },
    },
  }, OPEN);
}

/** Mounts the six feeds. */
export const registerIncidentFeeds: Register = (api, deps) => {
  const cache = deps.responseCache;
  const publicUrl = deps.app.settings.publicUrl;
  for (const format of ["rss", "atom"] as const) {
    api.openapi(allRoute(format), (c) =>
      cache.send(c, async () => ({
        body: await renderFeed(publicUrl, await incidentFeed(c.get("app")), format),
        contentType: FEED_FORMATS[format],
      }), CACHE_CONTROL) as never);
    api.openapi(boardRoute(format), (c) => {
      const { slug } = c.req.valid("param");
      return cache.send(c, async () => ({
        body: await renderFeed(publicUrl, await boardIncidentFeed(c.get("app"), slug), format),
        contentType: FEED_FORMATS[format],
      }), CACHE_CONTROL) as never;
    });
    api.openapi(serviceRoute(format), (c) => {
      const { slug } = c.req.valid("param");
      return cache.send(c, async () => ({
        body: await renderFeed(publicUrl, await incidentFeed(c.get("app"), slug), format),
        contentType: FEED_FORMATS[format],
      }), CACHE_CONTROL) as never;
    });
  }
};
