/**
 * Reads a status page once, by its URL alone (a page a person adds, #47): fetches it through the
 * poller's guard (the private-address rules on every hop, the size and time caps), detects its
 * platform with every adapter's detection, finds its data endpoint where the platform needs to,
 * reads it with the platform's adapter, and says what the page calls itself. Every failure is a
 * reason a person can act on, never a stack trace.
 * @module
 */
import type { AddressAllowance, ProxySettings } from "../lib/mod.ts";
import type { PageRead, PageReadFailure, Platform, Snapshot } from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { ADAPTERS } from "./adapters/mod.ts";
import { detectPlatform, type ProbeResponse } from "./detect.ts";
import { type FetchOptions, politeFetch } from "./http.ts";
import { createPinnedPool } from "./pinned_client.ts";

/** Options of {@link readStatusPage}. */
export interface PageReadOptions {
  /** Non-public addresses the fetches may reach (the self-hoster's vendor allowance). */
  readonly allowPrivate?: AddressAllowance;
  /** Each request's deadline (ms); 10 s by default. */
  readonly timeoutMs?: number;
  /** Largest document read (bytes); 5 MiB by default. */
  readonly maxBytes?: number;
  /** Platform adapters (tests); the built-in ones by default. */
  readonly adapters?: Partial<Record<Platform, Adapter>>;
  /** The proxy vendor fetches go through (`STATUSD_PROXY`), if any. */
  readonly proxy?: ProxySettings;
  /** Extra root certificates (PEM) trusted for https (tests). */
  readonly caCerts?: readonly string[];
  /** Extra fetch options (a resolver in tests). */
  readonly fetch?: Partial<FetchOptions>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** Reads the status page at `url` once (see the module). */
export async function readStatusPage(
  url: string,
  options: PageReadOptions = {},
): Promise<PageRead> {
  const pool = createPinnedPool({ caCerts: options.caCerts, idleMs: 1_000, proxy: options.proxy });
  try {
    return await read(url, options, {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      allowPrivate: options.allowPrivate,
      pool,
      ...options.fetch,
    });
  } finally {
    pool.close();
  }
}

async function read(
  url: string,
  options: PageReadOptions,
  fetchOptions: FetchOptions,
): Promise<PageRead> {
  const adapters = options.adapters ?? ADAPTERS;
  const page = await politeFetch(url, fetchOptions);
  if (page.kind === "failed") {
    if (page.reason === "too_large") {
      return fail("unreadable", `the page is larger than statusd reads (${page.detail})`);
    }
    return page.reason === "refused_address"
      ? fail("refused_address", `statusd may not reach this address (${page.detail})`)
      : fail(
        "unreachable",
        `the page did not answer${page.status ? ` (HTTP ${page.status})` : ""}: ${page.detail}`,
      );
  }
  if (page.kind !== "ok") return fail("unreachable", "the page did not answer with a document");
  const pageUrl = page.url;
  const seen = new Map<string, ProbeResponse | null>([[url, toProbe(page)]]);
  const platform = await detectPlatform(pageUrl, async (u) => {
    if (seen.has(u)) return seen.get(u)!;
    const out = await politeFetch(u, fetchOptions);
    const probe = out.kind === "ok"
      ? toProbe(out)
      : out.kind === "failed" && out.status !== undefined
      ? { status: out.status, headers: {}, body: "" }
      : null;
    seen.set(u, probe);
    return probe;
  });
  const adapter = adapters[platform];
  if (platform === "unknown") {
    return fail(
      "not_a_status_page",
      "no status page statusd reads answered at this address (Statuspage, incident.io, " +
        "Instatus, Better Stack, status.io, Cachet, or an RSS/Atom feed)",
    );
  }
  if (!adapter) {
    return fail(
      "unsupported",
      `this looks like a ${platform} page, which statusd cannot read yet`,
    );
  }
  const vendor = { statusPageUrl: pageUrl, slug: "page" };
  let endpoint: URL | null = adapter.endpoint(vendor);
  if (adapter.discovery?.needed(vendor)) {
    endpoint = adapter.discovery.find(page.body, new URL(pageUrl));
    if (endpoint === null) {
      return fail("unreadable", `the page names no ${platform} data endpoint`);
    }
  }
  const data = await politeFetch(endpoint, fetchOptions);
  if (data.kind !== "ok") {
    const detail = data.kind === "failed" ? data.detail : "no document";
    return fail("unreadable", `its ${platform} document did not load: ${detail}`);
  }
  let snapshot: Snapshot;
  try {
    snapshot = adapter.parse(data.body, {
      pageUrl: new URL(pageUrl),
      fetchedAt: Date.now(),
      documentUrl: new URL(data.url),
    });
  } catch (err) {
    return fail("unreadable", `its ${platform} document did not read: ${(err as Error).message}`);
  }
  const hosts = [...new Set([new URL(pageUrl).hostname, new URL(data.url).hostname])];
  return {
    ok: true,
    platform,
    name: pageName(data.body, page.body) ?? new URL(pageUrl).hostname,
    url: pageUrl,
    hosts,
    indicator: snapshot.indicator,
    components: snapshot.components.map((c) => c.name),
  };
}

function fail(reason: PageReadFailure, message: string): PageRead {
  return { ok: false, reason, message };
}

function toProbe(out: { status: number; headers: Headers; body: string }): ProbeResponse {
  return { status: out.status, headers: out.headers, body: out.body };
}

/** A name as a page gives it: trimmed, one line, at most 100 characters; null when empty. */
function cleanName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const name = raw.replace(/\s+/g, " ").trim().slice(0, 100);
  return name === "" ? null : name;
}

/**
 * What the page calls itself: its data's page name (`page.name` of Statuspage, incident.io and
 * Instatus, `page_title`, Better Stack's `company_name`), else the HTML title or site name
 * without a trailing "Status", else null.
 */
export function pageName(documentBody: string, pageHtml: string): string | null {
  try {
    const json = JSON.parse(documentBody) as Record<string, unknown>;
    const pageField = json.page as Record<string, unknown> | undefined;
    const data = json.data as { attributes?: Record<string, unknown> } | undefined;
    const fromData = cleanName(pageField?.name) ?? cleanName(json.page_title) ??
      cleanName(data?.attributes?.company_name);
    if (fromData) return withoutStatus(fromData);
  } catch {
    // Not JSON (a feed, HTML): the page's own title.
  }
  const html = pageHtml.slice(0, 200_000);
  const name = cleanName(decodeEntities(siteNameOf(html) ?? titleOf(html) ?? ""));
  return name === null ? null : withoutStatus(name);
}

/** The page's `og:site_name`, if it gives one. */
function siteNameOf(html: string): string | undefined {
  for (const tag of html.match(/<meta\b[^<>]*>/gi) ?? []) {
    if (!/property=["']og:site_name["']/i.test(tag)) continue;
    const content = /content=["']([^"']*)["']/i.exec(tag)?.[1];
    if (content) return content;
  }
  return undefined;
}

/** The page's `<title>` text (found by position: no regular expression to backtrack). */
function titleOf(html: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf("<title");
  const start = open < 0 ? -1 : lower.indexOf(">", open);
  const end = start < 0 ? -1 : lower.indexOf("</title", start);
  return end < 0 ? undefined : html.slice(start + 1, end);
}

/** Words a page's name ends with that say it is a status page, last word first. */
const STATUS_ENDINGS: readonly (readonly string[])[] = [
  ["page", "status", "system"],
  ["page", "status"],
  ["status", "system"],
  ["status", "service"],
  ["status", "platform"],
  ["status"],
  ["history", "incident"],
  ["uptime"],
  ["health"],
];

/** Separators between a page's name and what it says it is ("Acme - Status"). */
const SEPARATORS = new Set(["-", "–", "|", ":", "·"]);

/** `"Acme Status"`, `"Acme - Status Page"`, `"Acme Status - Incident History"` → `"Acme"`. */
function withoutStatus(name: string): string {
  const words = name.split(" ").filter((w) => w !== "");
  for (let changed = true; changed;) {
    changed = false;
    while (words.length > 1 && SEPARATORS.has(words[words.length - 1]!)) {
      words.pop();
      changed = true;
    }
    for (const ending of STATUS_ENDINGS) {
      if (words.length <= ending.length) continue;
      const tail = words.slice(-ending.length).reverse().map((w) => w.toLowerCase());
      if (ending.every((e, i) => tail[i] === e)) {
        words.splice(-ending.length);
        changed = true;
        break;
      }
    }
  }
  return words.join(" ") || name;
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, "&").replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}
