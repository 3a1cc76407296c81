/**
 * Discovery files (SPEC §4, PROTOCOLS §4 and §6): `/sitemap.xml`, `/llms.txt`, `/robots.txt`,
 * `/.well-known/api-catalog` (RFC 9727 linkset) and the RFC 8288 `Link` header value the
 * homepage sends. Every URL is built from `STATUSD_PUBLIC_URL`, never from the request.
 * @module
 */
import { serviceLastChanges } from "../app/mod.ts";
import { type EpochMs, toIso } from "../domain/mod.ts";
import type { Register } from "./mod.ts";

/** Media type of the api-catalog (RFC 9727 §4.4 profile). */
export const API_CATALOG_TYPE =
  'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** The links the homepage advertises, as `[path, rel, type]`. */
const HOME_LINKS: readonly [string, string, string][] = [
  ["/.well-known/api-catalog", "api-catalog", "application/linkset+json"],
  ["/openapi.json", "service-desc", "application/openapi+json"],
  ["/openapi.yaml", "service-desc", "application/openapi+yaml"],
  ["/llms.txt", "service-doc", "text/plain"],
  ["/healthz", "status", "application/json"],
  ["/llms.txt", "describedby", "text/plain"],
  ["/sitemap.xml", "sitemap", "application/xml"],
  ["/.well-known/mcp.json", "mcp-server-card", "application/json"],
];

/** The RFC 8288 `Link` header value of the homepage. */
export function homeLinkHeader(publicUrl: string): string {
  return HOME_LINKS.map(([path, rel, type]) =>
    `<${publicUrl}${path}>; rel="${rel}"; type="${type}"`
  )
    .join(", ");
}

/** The RFC 9727 api-catalog document (RFC 9264 linkset JSON). */
export function apiCatalog(publicUrl: string): { linkset: Record<string, unknown>[] } {
  const health = [{ href: `${publicUrl}/healthz`, type: "application/json" }];
  return {
    linkset: [
      {
        anchor: `${publicUrl}/api`,
        "service-desc": [
          {
            href: `${publicUrl}/openapi.json`,
            type: "application/openapi+json",
            title: "statusd REST API, OpenAPI 3.1 (JSON)",
          },
          {
            href: `${publicUrl}/openapi.yaml`,
            type: "application/openapi+yaml",
            title: "statusd REST API, OpenAPI 3.1 (YAML)",
          },
        ],
        "service-doc": [
          { href: `${publicUrl}/llms.txt`, type: "text/plain", title: "API summary" },
        ],
        status: health,
      },
      {
        anchor: `${publicUrl}/api/mcp`,
        "service-desc": [
          {
            href: `${publicUrl}/.well-known/mcp.json`,
            type: "application/json",
            title: "MCP server manifest",
          },
        ],
        "service-doc": [{ href: `${publicUrl}/llms.txt`, type: "text/plain" }],
        status: health,
      },
    ],
  };
}

/** The `/llms.txt` text (llmstxt.org shape: H1, summary, notes, H2 link lists). */
export function llmsTxt(publicUrl: string, services: number): string {
  const u = publicUrl;
  return `# statusd

> statusd reads the official status pages of ${services} cloud and SaaS vendors, normalises them into one shape (OPERATIONAL, UNDER_MAINTENANCE, DEGRADED_PERFORMANCE, PARTIAL_OUTAGE, MAJOR_OUTAGE, UNKNOWN) and serves them as a REST API, an OpenAPI 3.1 document, an MCP server and a command-line client.

The REST API base is ${u}/api. Public status reads need no credential. Account data (SLA reports, monitors, alerts) needs an API key sent as \`X-API-Key: <key>\` or \`Authorization: Bearer <key>\`. Bodies are JSON, timestamps ISO 8601 UTC, lists come in a page envelope \`{content, totalElements, page, size, totalPages}\` with \`page\` (0-based) and \`limit\` (1..500). Errors are \`{error, status, message}\`.

## API

- [OpenAPI 3.1 (JSON)](${u}/openapi.json): every operation, its parameters, scopes (\`x-required-scopes\`) and response shapes
- [OpenAPI 3.1 (YAML)](${u}/openapi.yaml)
- [API catalog](${u}/.well-known/api-catalog): RFC 9727 linkset
- [List services](${u}/api/services): \`GET /api/services?status=MAJOR_OUTAGE&category=cloud&q=…&limit=100\` (listServices)
- [One service](${u}/api/services/{slug}): components and open incidents with timelines (getService)
- [Daily history](${u}/api/services/{slug}/history): worst status per UTC day, \`days\` 1..90 (getServiceHistory)
- [Uptime](${u}/api/services/{slug}/uptime): 7/30/90-day uptime percent and MTTR minutes (getServiceUptime)
- [Incidents](${u}/api/incidents): cross-vendor feed, newest first; \`active=true\`, \`service\`, \`since\` (listIncidents)
- [Providers](${u}/api/status/providers-overview): one row per provider (getProvidersOverview)
- [Live events](${u}/api/events): Server-Sent Events of status changes and incident updates; resume with \`Last-Event-ID\`

## MCP

- [MCP server](${u}/api/mcp): Streamable HTTP, protocol 2025-06-18; OAuth 2.1 with PKCE, or an API key holding \`mcp:invoke\`
- [MCP manifest](${u}/.well-known/mcp.json)

## CLI

- The \`status\` command wraps the public API: \`status github\`, \`status incidents --active\`, \`status uptime github --days 30\`, \`status check github --fail-on degraded\` (exit 1 at that level or worse). Point it at this server with \`STATUSD_URL=${u}\`.

## Optional

- [Service catalog (HTML)](${u}/services)
- [Sitemap](${u}/sitemap.xml)
- [Health](${u}/healthz)
`;
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** URLs per sitemap file (sitemaps.org limit). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * The sitemap: home, catalog and every service page, each with `lastmod` = when its content
 * last changed (home and catalog: the newest of all). `fallback` is now: nothing is dated later
 * (a vendor's future-dated incident must not date a page in the future).
 */
export function sitemapXml(
  publicUrl: string,
  all: readonly { slug: string; lastModified: EpochMs | null }[],
  fallback: EpochMs,
): { xml: string; lastModified: EpochMs } {
  const pages = all.map((p) => ({
    slug: p.slug,
    lastModified: p.lastModified === null ? null : Math.min(p.lastModified, fallback),
  }));
  const newest = pages.reduce((m, p) => Math.max(m, p.lastModified ?? 0), 0) || fallback;
  const url = (path: string, at: EpochMs) =>
    `<url><loc>${xmlEscape(`${publicUrl}${path}`)}</loc><lastmod>${
      toIso(at).replace(/\.\d{3}Z$/, "Z")
    }</lastmod></url>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url("/", newest),
    url("/services", newest),
    ...pages.slice(0, SITEMAP_MAX_URLS - 2).map((p) =>
      url(`/services/${encodeURIComponent(p.slug)}`, p.lastModified ?? fallback)
    ),
    "</urlset>",
    "",
  ];
  return { xml: lines.join("\n"), lastModified: newest };
}

/** Mounts the discovery files. */
export const registerDiscovery: Register = (api, deps) => {
  const publicUrl = deps.app.settings.publicUrl;
  const cors = { "Access-Control-Allow-Origin": "*" };

  api.get(
    "/.well-known/api-catalog",
    (c) =>
      c.body(JSON.stringify(apiCatalog(publicUrl), null, 2), 200, {
        ...cors,
        "Content-Type": API_CATALOG_TYPE,
        "Cache-Control": "public, max-age=3600",
        Link: `<${publicUrl}/.well-known/api-catalog>; rel="api-catalog"`,
      }),
  );

  api.get("/llms.txt", (c) => {
    const services = serviceLastChanges(deps.app).length;
    return c.body(llmsTxt(publicUrl, services), 200, {
      ...cors,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    });
  });

  api.get("/sitemap.xml", (c) => {
    const { xml, lastModified } = sitemapXml(
      publicUrl,
      serviceLastChanges(deps.app),
      deps.app.clock.now(),
    );
    const lm = new Date(lastModified).toUTCString();
    const since = c.req.header("if-modified-since");
    if (since && Date.parse(since) >= Math.floor(lastModified / 1000) * 1000) {
      return c.body(null, 304, { "Last-Modified": lm });
    }
    return c.body(xml, 200, {
      "Content-Type": "application/xml; charset=utf-8",
      "Last-Modified": lm,
      "Cache-Control": "public, max-age=300",
    });
  });

  api.get("/robots.txt", (c) =>
    c.body(
      `User-agent: *\nDisallow: /api/\nDisallow: /settings\nDisallow: /oauth\n\nSitemap: ${publicUrl}/sitemap.xml\n`,
      200,
      { "Content-Type": "text/plain; charset=utf-8" },
    ));
};
