/**
 * The shared server-rendered page frame (hono/jsx): head with discovery links, header with
 * navigation, main content, footer. Every human page renders inside `Layout`.
 * @module
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { ASSET_PATHS } from "./assets.ts";

/** Navigation entries, in header order; `key` marks the current one. */
export const NAV = [
  { key: "home", href: "/", label: "Home" },
  { key: "services", href: "/services", label: "Services" },
  { key: "api", href: "/docs", label: "API" },
  { key: "settings", href: "/settings/api-keys", label: "API Keys" },
  { key: "mcp", href: "/settings/mcp", label: "MCP" },
] as const;

/** One of the {@link NAV} keys. */
export type NavKey = (typeof NAV)[number]["key"];

/** What a page passes to the layout. */
export interface LayoutProps {
  /** Page title (the site name is appended). */
  readonly title: string;
  /** `<meta name="description">` text. */
  readonly description?: string;
  /** Absolute base URL (`STATUSD_PUBLIC_URL`) for discovery links and the canonical URL. */
  readonly publicUrl: string;
  /** Path of this page, for `<link rel="canonical">` (omit for non-indexable pages). */
  readonly canonicalPath?: string;
  /** Highlighted nav entry. */
  readonly nav?: NavKey;
  /** Who is signed in (email), shown in the header; null/undefined → a sign-in link. */
  readonly signedInAs?: string | null;
  /** Feeds about this page's subject, advertised as `<link rel="alternate">` (besides the all-vendor ones). */
  readonly feeds?: readonly FeedLink[];
  /** Lets the content use the whole width (the API reference viewer lays out its own columns). */
  readonly wide?: boolean;
  /** Adds `<meta name="robots" content="noindex">` (sign-in, settings, consent pages). */
  readonly noindex?: boolean;
  readonly children?: Child;
}

/** A feed a page advertises. */
export interface FeedLink {
  readonly href: string;
  readonly type: "application/rss+xml" | "application/atom+xml";
  readonly title: string;
}

/** The incident feeds of every vendor, advertised on every page. */
export const SITE_FEEDS: readonly FeedLink[] = [
  { href: "/feed.atom", type: "application/atom+xml", title: "Vendor incidents (Atom)" },
  { href: "/feed.rss", type: "application/rss+xml", title: "Vendor incidents (RSS)" },
];

/** The page frame. Render with `c.html(<Layout …>…</Layout>)`. */
export function Layout(props: LayoutProps) {
  const base = props.publicUrl;
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · statusd`}</title>
          {props.description && <meta name="description" content={props.description} />}
          {props.noindex && <meta name="robots" content="noindex" />}
          {props.canonicalPath !== undefined && (
            <link rel="canonical" href={`${base}${props.canonicalPath}`} />
          )}
          <link rel="api-catalog" href={`${base}/.well-known/api-catalog`} />
          <link rel="service-desc" href={`${base}/openapi.json`} type="application/json" />
          <link rel="describedby" href={`${base}/llms.txt`} type="text/plain" />
          <link rel="stylesheet" href={ASSET_PATHS.css} />
          {[...(props.feeds ?? []), ...SITE_FEEDS].map((f) => (
            <link rel="alternate" type={f.type} title={f.title} href={`${base}${f.href}`} />
          ))}
        </head>
        <body>
          <header class="site">
            <a class="brand" href="/">statusd</a>
            <nav>
              {NAV.map((n) => (
                <a href={n.href} aria-current={props.nav === n.key ? "page" : undefined}>
                  {n.label}
                </a>
              ))}
            </nav>
            <span class="who muted">
              {props.signedInAs ? props.signedInAs : <a href="/sign-in">Sign in</a>}
            </span>
          </header>
          <main class={props.wide ? "wide" : undefined}>{props.children}</main>
          <footer class="site">
            statusd · <a href="/openapi.json">OpenAPI</a> · <a href="/llms.txt">llms.txt</a> ·{" "}
            <a href="/api/mcp">MCP</a> · <a href="/healthz">health</a>
          </footer>
          <script src={ASSET_PATHS.script} defer></script>
        </body>
      </html>
    </>
  );
}

/** A coloured badge for a status level. */
export function StatusBadge(props: { status: string }) {
  return <span class={`badge s-${props.status}`}>{props.status.replaceAll("_", " ")}</span>;
}
