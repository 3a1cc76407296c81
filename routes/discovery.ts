/**
 * Discovery files (SPEC §4, PROTOCOLS §4 and §6): `/sitemap.xml`, `/llms.txt`, `/robots.txt`,
 * `/.well-known/api-catalog` (RFC 9727 linkset) and the RFC 8288 `Link` header value the
 * homepage sends. Every URL is built from `STATUSD_PUBLIC_URL`, never from the request.
 * @module
 */
import { serviceLastChanges } from "../app/mod.ts";
import { type EpochMs, toIso } from "../domain/mod.ts";
import type { Register } from "./register.ts";

/** RFC 9727's profile URI for linksets that are API catalogs. */
export const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";

/** Media type of the api-catalog (RFC 9727 §4.4: linkset JSON with the profile parameter). */
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

/**
 * Media types the discovery files are served with. The OpenAPI documents use the registered
 * `application/json` and `application/yaml` (RFC 9512): `application/openapi+json` and
 * `+yaml` are still an Internet-Draft, not in the IANA registry, and RFC 9727's own examples
 * use the registered types.
 */
export const MEDIA = {
  openapiJson: "application/json",
  openapiYaml: "application/yaml",
  text: "text/plain",
  json: "application/json",
  xml: "application/xml",
} as const;

/**
 * Relation type for the sitemap. `sitemap` is not in the IANA link-relation registry, so
 * (RFC 8288 §2.1.2) an extension relation type, a URI: the sitemaps.org protocol page.
 */
export const SITEMAP_REL = "https://www.sitemaps.org/protocol.html";

/** One link of the homepage's `Link` header. */
interface HomeLink {
  readonly path: string;
  /** A registered relation name or an absolute URI. */
  readonly rel: string;
  readonly type: string;
  /** Context of the link when it is not the homepage (RFC 8288 §3.2). */
  readonly anchorPath?: string;
  readonly profile?: string;
}

/** The links the homepage advertises. */
const HOME_LINKS: readonly HomeLink[] = [
  {
    path: "/.well-known/api-catalog",
    rel: "api-catalog",
    type: "application/linkset+json",
    profile: API_CATALOG_PROFILE,
  },
  { path: "/openapi.json", rel: "service-desc", type: MEDIA.openapiJson },
  { path: "/openapi.yaml", rel: "service-desc", type: MEDIA.openapiYaml },
  { path: "/llms.txt", rel: "service-doc", type: MEDIA.text },
  { path: "/healthz", rel: "status", type: MEDIA.json },
  { path: "/llms.txt", rel: "describedby", type: MEDIA.text },
  { path: "/sitemap.xml", rel: SITEMAP_REL, type: MEDIA.xml },
  // The MCP manifest describes the MCP endpoint, not the homepage: the registered
  // `service-desc` with that endpoint as the link's context.
  { path: "/.well-known/mcp.json", rel: "service-desc", type: MEDIA.json, anchorPath: "/api/mcp" },
];

/** The RFC 8288 `Link` header value of the homepage. */
export function homeLinkHeader(publicUrl: string): string {
  return HOME_LINKS.map((l) =>
    [
      `<${publicUrl}${l.path}>`,
      `rel="${l.rel}"`,
      ...(l.anchorPath ? [`anchor="${publicUrl}${l.anchorPath}"`] : []),
      `type="${l.type}"`,
      ...(l.profile ? [`profile="${l.profile}"`] : []),
    ].join("; ")
  ).join(", ");
}

/** The RFC 9727 api-catalog document (RFC 9264 linkset JSON). */
export function apiCatalog(publicUrl: string): { linkset: Record<string, unknown>[] } {
  const health = [{ href: `${publicUrl}/healthz`, type: MEDIA.json }];
  return {
    linkset: [
      {
        anchor: `${publicUrl}/api`,
        "service-desc": [
          {
            href: `${publicUrl}/openapi.json`,
            type: MEDIA.openapiJson,
            title: "statusd REST API, OpenAPI 3.1 (JSON)",
          },
          {
            href: `${publicUrl}/openapi.yaml`,
            type: MEDIA.openapiYaml,
            title: "statusd REST API, OpenAPI 3.1 (YAML)",
          },
        ],
        "service-doc": [
          { href: `${publicUrl}/llms.txt`, type: MEDIA.text, title: "API summary" },
          { href: `${publicUrl}/docs`, type: "text/html", title: "API reference" },
        ],
        status: health,
      },
      {
        anchor: `${publicUrl}/api/mcp`,
        "service-desc": [
          {
            href: `${publicUrl}/.well-known/mcp.json`,
            type: MEDIA.json,
            title: "MCP server manifest",
          },
        ],
        "service-doc": [{ href: `${publicUrl}/llms.txt`, type: MEDIA.text }],
        status: health,
      },
    ],
  };
}

/**
 * The `/llms.txt` text (llmstxt.org: an H1, a `>` summary, notes, then H2 sections that are
 * lists of `- [name](url): notes`). Every link is a real URL (no URI templates); `exampleSlug`
 * (a service in this deployment's catalog, if any) makes the per-service links concrete.
 */
export function llmsTxt(
  publicUrl: string,
  services: number,
  exampleSlug: string | null,
): string {
  const u = publicUrl;
  const one = exampleSlug === null ? [] : [
    `- [One service: ${exampleSlug}](${u}/api/services/${exampleSlug}): its components and open incidents with timelines (getService); any slug from the list works the same way`,
    `- [Daily history of ${exampleSlug}](${u}/api/services/${exampleSlug}/history?days=30): worst status per UTC day, \`days\` 1..90 (getServiceHistory)`,
    `- [Uptime of ${exampleSlug}](${u}/api/services/${exampleSlug}/uptime): 7/30/90-day uptime percent and MTTR minutes (getServiceUptime)`,
  ];
  return [
    "# statusd",
    "",
    `> statusd reads the official status pages of ${services} cloud and SaaS vendors, normalises them into one shape (OPERATIONAL, UNDER_MAINTENANCE, DEGRADED_PERFORMANCE, PARTIAL_OUTAGE, MAJOR_OUTAGE, UNKNOWN) and serves them as a REST API, an OpenAPI 3.1 document, an MCP server and a command-line client.`,
    "",
    `The REST API base is ${u}/api. Public status reads need no credential. Account data (API-key metadata and SLA reports) needs an API key (\`sd_live_…\`) sent as \`X-API-Key: <key>\` or \`Authorization: Bearer <key>\`. Bodies are JSON, timestamps ISO 8601 UTC, lists come in a page envelope \`{content, totalElements, page, size, totalPages}\` with \`page\` (0-based) and \`limit\` (1..500). Errors are \`{error, status, message}\`. One service's resources sit under \`/api/services/<slug>\` (\`/history\`, \`/uptime\`), with slugs from the service list.`,
    "",
    `The \`status\` command-line client wraps the public API: \`status github\`, \`status incidents --active\`, \`status uptime github --days 30\`, \`status check github --fail-on degraded\` (exit 1 at that level or worse), \`status gate github stripe --within 2h\` (exit 1 on an open incident or maintenance due within 2 hours). Point it at this server with \`STATUS_API_URL=${u}\` or \`--api ${u}\`.`,
    "",
    "## API",
    "",
    `- [OpenAPI 3.1 (JSON)](${u}/openapi.json): every operation, its parameters, scopes (\`x-required-scopes\`), responses and their schemas`,
    `- [OpenAPI 3.1 (YAML)](${u}/openapi.yaml): the same document as YAML`,
    `- [API catalog](${u}/.well-known/api-catalog): RFC 9727 linkset of the APIs and their descriptions`,
    `- [List services](${u}/api/services?limit=100): filters \`status\` (e.g. MAJOR_OUTAGE), \`category\`, \`provider\`, \`q\`, \`reading\` (e.g. failing) (listServices)`,
    ...one,
    `- [Active incidents](${u}/api/incidents?active=true): cross-vendor feed, newest first; also \`service\` and \`since\` (listIncidents)`,
    `- [Providers](${u}/api/status/providers-overview): one row per provider (getProvidersOverview)`,
    `- [Live events](${u}/api/events): Server-Sent Events of status changes and incident updates; resume with \`Last-Event-ID\` (streamEvents)`,
    `- [Maintenance](${u}/api/maintenances?within=2h): unfinished vendor maintenance with its announced window; \`service=a,b\`, \`provider\`, \`within\` (listMaintenances)`,
    `- [API reference](${u}/docs): the OpenAPI document rendered for people`,
    "",
    "## Feeds",
    "",
    `- [Incidents (Atom)](${u}/feed.atom): every vendor's incidents, newest first; one vendor's at \`/services/<slug>/feed.atom\``,
    `- [Incidents (RSS 2.0)](${u}/feed.rss): the same as RSS; one vendor's at \`/services/<slug>/feed.rss\``,
    `- [Maintenance calendar](${u}/calendar.ics): iCalendar of upcoming and in-progress vendor maintenance; \`service=a,b\`, \`provider\``,
    ...(exampleSlug === null ? [] : [
      `- [Status badge of ${exampleSlug}](${u}/badge/${exampleSlug}.svg): SVG in the shields.io style for READMEs; any slug, \`label\` and \`style\` options`,
    ]),
    "",
    "## MCP",
    "",
    `- [MCP server](${u}/api/mcp): Streamable HTTP (POST only), protocol 2025-06-18 (2025-11-25 also agreed); OAuth 2.1 with PKCE, or an API key holding \`mcp:invoke\`; Pro plan`,
    `- [MCP manifest](${u}/.well-known/mcp.json): tools, authentication and supported protocol revisions`,
    `- [Protected-resource metadata](${u}/.well-known/oauth-protected-resource/api/mcp): where MCP clients find the OAuth 2.1 authorization server`,
    "",
    "## Optional",
    "",
    `- [Service catalog (HTML)](${u}/services): every vendor with its current status`,
    `- [Sitemap](${u}/sitemap.xml): every page with its last change`,
    `- [Health](${u}/healthz): is the database answering and the poller running`,
    "",
  ].join("\n");
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
        Link: `<${publicUrl}/.well-known/api-catalog>; rel="api-catalog"; ` +
          `type="application/linkset+json"; profile="${API_CATALOG_PROFILE}"`,
      }),
  );

  api.get("/llms.txt", async (c) => {
    const services = await serviceLastChanges(deps.app);
    const example = services.some((s) => s.slug === "github") ? "github" : services[0]?.slug;
    return c.body(llmsTxt(publicUrl, services.length, example ?? null), 200, {
      ...cors,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    });
  });

  api.get("/sitemap.xml", async (c) => {
    const { xml, lastModified } = sitemapXml(
      publicUrl,
      await serviceLastChanges(deps.app),
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
