/**
 * Platform detection for a status page whose platform is not known (FORMATS §14): URL patterns
 * first, then the page's headers and HTML, then the JSON APIs each platform answers, then feeds.
 * Every URL is fetched at most once; the caller supplies the (polite) fetch.
 * @module
 */
import type { Platform } from "../domain/mod.ts";

/** What a probe returns; null when the request failed (network, timeout, refused). */
export interface ProbeResponse {
  readonly status: number;
  readonly headers: Headers | Readonly<Record<string, string>>;
  readonly body: string;
}

/** GETs one absolute URL. */
export type ProbeFetch = (url: string) => Promise<ProbeResponse | null>;

/** Hosts (exact or as a suffix after a dot) that name their platform. */
const HOSTS: readonly (readonly [RegExp, Platform])[] = [
  [/^status\.cloud\.google\.com$/, "google-cloud"],
  [/^(health|status)\.aws\.amazon\.com$/, "aws"],
  [/^(azure\.status\.microsoft|rssfeed\.azure\.status\.microsoft|status\.azure\.com)$/, "azure"],
  [/^(slack-status\.com|status\.slack\.com)$/, "slack"],
  [/^status\.heroku\.com$/, "heroku"],
  [/^((api\.)?status\.salesforce\.com|trust\.salesforce\.com)$/, "salesforce"],
  [/(^|\.)statuspage\.io$/, "statuspage"],
  [/(^|\.)instatus\.com$/, "instatus"],
  [/(^|\.)(betteruptime|betterstack)\.com$/, "betterstack"],
  [/(^|\.)status\.io$/, "statusio"],
  [/(^|\.)incident\.io$/, "incidentio"],
];

/** Platform a URL alone reveals (known hosts, hosted-platform domains, feed paths), else null. */
export function platformFromUrl(url: string | URL): Platform | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  if (host === "www.google.com" && u.pathname.startsWith("/appsstatus")) return "google-cloud";
  if (host === "azure.microsoft.com" && /\/status(\/|$)/.test(u.pathname)) return "azure";
  for (const [pattern, platform] of HOSTS) if (pattern.test(host)) return platform;
  if (/(\.(rss|atom)|\/feed(\.xml)?\/?|\/history\.(rss|atom))$/i.test(u.pathname)) return "rss";
  return null;
}

function header(headers: ProbeResponse["headers"], name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? null : headers[key] ?? null;
}

/** Platform the page's own headers and HTML reveal, else null. */
function fromPage(page: ProbeResponse): Platform | null {
  if (header(page.headers, "x-statuspage-version") !== null) return "statuspage";
  const html = page.body;
  if (/dka575ofm4ao0\.cloudfront\.net|statuspage\.io\/|class="page-status/i.test(html)) {
    return "statuspage";
  }
  if (/self\.__next_f\.push/.test(html) && /status_page_id|incident\.io/.test(html)) {
    return "incidentio";
  }
  if (/instatus\.com|instatus-/i.test(html)) return "instatus";
  if (/betteruptime\.com|betterstack\.com/i.test(html)) return "betterstack";
  if (/cdn\.status\.io|api\.status\.io\/1\.0\/status\/[0-9a-f]{24}/i.test(html)) return "statusio";
  // 2.x: "Powered by <a …>Cachet</a>"; 3.x: assets under vendor/cachethq/cachet/.
  if (
    /Powered by[ \t\r\n]*(?:<[^<>]+>[ \t\r\n]*){0,5}Cachet|\/vendor\/cachethq\/cachet\//i.test(html)
  ) return "cachet";
  return null;
}

function json(r: ProbeResponse | null): unknown {
  if (r === null || r.status !== 200) return null;
  try {
    return JSON.parse(r.body);
  } catch {
    return null;
  }
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? v as Record<string, unknown>
    : null;
}

/** `/api/v2/summary.json`: Statuspage (12-char ids) or incident.io (26-char ULIDs). */
function fromSummary(v: unknown): Platform | null {
  const doc = obj(v);
  const page = obj(doc?.page);
  if (!doc || !page || !Array.isArray(doc.components)) return null;
  const id = String(page.id ?? "");
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) return "incidentio";
  return "statuspage";
}

/** Instatus `/summary.json`: `page.status` in its three words and no top-level components. */
function fromInstatus(v: unknown): Platform | null {
  const doc = obj(v);
  const status = obj(doc?.page)?.status;
  const known = status === "UP" || status === "HASISSUES" || status === "UNDERMAINTENANCE";
  return doc && known && !("components" in doc) ? "instatus" : null;
}

/** Better Stack `/index.json`: `data.type == "status_page"`. */
function fromBetterStack(v: unknown): Platform | null {
  return obj(obj(v)?.data)?.type === "status_page" ? "betterstack" : null;
}

/** A feed the page links (`<link rel="alternate" type="application/rss+xml|atom+xml">`). */
function feedLink(html: string, base: URL): string | null {
  for (const tag of html.match(/<link\b[^<>]*>/gi) ?? []) {
    if (!/rel=["']?alternate/i.test(tag) || !/application\/(rss|atom)\+xml/i.test(tag)) continue;
    const href = /href=["']([^"']+)["']/i.exec(tag)?.[1];
    if (href) return new URL(href, base).href;
  }
  return null;
}

function isFeed(r: ProbeResponse | null): boolean {
  return r !== null && r.status === 200 && /<(rss|feed)[\s>]/.test(r.body.slice(0, 2000));
}

/**
 * Detects the platform behind a status page URL; "unknown" when nothing matches. Probes, in
 * order and each at most once: the URL, the page, `api/v2/summary.json`, `summary.json`,
 * `index.json`, `api/v1/ping` (Cachet 2.x), `api/ping` (Cachet 3.x), then the linked feed or
 * `history.atom`.
 */
export async function detectPlatform(
  pageUrl: string | URL,
  fetchFn: ProbeFetch,
): Promise<Platform> {
  const byUrl = platformFromUrl(pageUrl);
  if (byUrl !== null) return byUrl;
  const page = new URL(pageUrl);
  const base = new URL(page.pathname.endsWith("/") ? page.href : `${page.href}/`);
  const at = (path: string) => new URL(path, base).href;

  const html = await fetchFn(page.href);
  const fromHtml = html && html.status < 400 ? fromPage(html) : null;
  if (fromHtml !== null) return fromHtml;

  const summary = fromSummary(json(await fetchFn(at("api/v2/summary.json"))));
  if (summary !== null) return summary;
  const instatus = fromInstatus(json(await fetchFn(at("summary.json"))));
  if (instatus !== null) return instatus;
  const better = fromBetterStack(json(await fetchFn(at("index.json"))));
  if (better !== null) return better;
  // Cachet answers {"data":"Pong!"}: 2.x at api/v1/ping, 3.x at api/ping.
  for (const path of ["api/v1/ping", "api/ping"]) {
    const ping = await fetchFn(at(path));
    if (ping?.status === 200 && /Pong!/.test(ping.body)) return "cachet";
  }

  const linked = html && html.status < 400 ? feedLink(html.body, base) : null;
  const feed = await fetchFn(linked ?? at("history.atom"));
  if (isFeed(feed)) {
    return /<generator[^<>]*>[ \t\r\n]*incident\.io/i.test(feed!.body) ? "incidentio" : "rss";
  }
  return "unknown";
}
