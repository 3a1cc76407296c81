/**
 * The shared server-rendered page frame (hono/jsx): head with discovery links, header with
 * navigation, main content, footer. Every human page renders inside `Layout`.
 * @module
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { ASSET_PATHS } from "./assets.ts";
import { FAVICON_PATHS } from "./favicon.ts";
import { CSRF_FIELD, type SignedIn } from "./session.ts";

export type { SignedIn };

/** Navigation entries, in header order; `key` marks the current one. */
export const NAV = [
  { key: "home", href: "/", label: "Home" },
  { key: "services", href: "/services", label: "Services" },
  { key: "api", href: "/docs", label: "API" },
  { key: "monitors", href: "/settings/monitors", label: "Monitors" },
  { key: "alerts", href: "/settings/alerts", label: "Alerts" },
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
  /**
   * Who is signed in, shown in the header with a sign-out button (a POST carrying the session's
   * CSRF token); null/undefined → a sign-in link.
   */
  readonly signedIn?: SignedIn | null;
  /** Feeds about this page's subject, advertised as `<link rel="alternate">` (besides the all-vendor ones). */
  readonly feeds?: readonly FeedLink[];
  /** Lets the content use the whole width (the API reference viewer lays out its own columns). */
  readonly wide?: boolean;
  /**
   * The content draws its own `<main>` landmark (the API reference viewer does): the frame then
   * wraps it in a full-width `<div id="main">` instead, so the page has exactly one.
   */
  readonly ownMain?: boolean;
  /** Adds `<meta name="robots" content="noindex">` (sign-in, settings, consent pages). */
  readonly noindex?: boolean;
  /** Extra scripts (served assets, loaded deferred after the site script). */
  readonly scripts?: readonly string[];
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

/** A served script, run after the page is parsed. */
function deferredScript(src: string) {
  return <script src={src} defer></script>;
}

/** The navigation links, the current page marked. */
function NavLinks(props: { current?: NavKey }) {
  return (
    <>
      {NAV.map((n) => (
        <a key={n.key} href={n.href} aria-current={props.current === n.key ? "page" : undefined}>
          {n.label}
        </a>
      ))}
    </>
  );
}

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
          <link rel="icon" href={FAVICON_PATHS.svg} type="image/svg+xml" />
          <link rel="icon" href={FAVICON_PATHS.ico} sizes="32x32" />
          {[...(props.feeds ?? []), ...SITE_FEEDS].map((f) => (
            <link rel="alternate" type={f.type} title={f.title} href={`${base}${f.href}`} />
          ))}
        </head>
        <body>
          <a class="skip" href="#main">Skip to content</a>
          <header class="site">
            <a class="brand" href="/">statusd</a>
            <nav aria-label="Main" class="wide-nav">
              <NavLinks current={props.nav} />
            </nav>
            {/* On a phone the same links fold into a menu that needs no script. */}
            <details class="narrow-nav">
              <summary>Menu</summary>
              <nav aria-label="Main">
                <NavLinks current={props.nav} />
              </nav>
            </details>
            <div class="who">
              {props.signedIn
                ? (
                  <form method="post" action="/sign-out" class="sign-out">
                    <span class="muted">{props.signedIn.email}</span>
                    <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
                    <button type="submit" class="link">Sign out</button>
                  </form>
                )
                : <a href="/sign-in">Sign in</a>}
            </div>
          </header>
          {props.ownMain
            ? (
              <div id="main" tabindex={-1} class="wide">
                {props.children}
              </div>
            )
            : (
              <main id="main" tabindex={-1} class={props.wide ? "wide" : undefined}>
                {props.children}
              </main>
            )}
          <footer class="site">
            statusd · <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a> ·{" "}
            <a href="/llms.txt">llms.txt</a> · <a href="/api/mcp">MCP</a> ·{" "}
            <a href="/feed.atom">Atom</a> · <a href="/calendar.ics">Maintenance calendar</a> ·{" "}
            <a href="/healthz">health</a>
          </footer>
          <script src={ASSET_PATHS.script} defer></script>
          {(props.scripts ?? []).map(deferredScript)}
        </body>
      </html>
    </>
  );
}

/** A coloured badge for a status level, in words ("partial outage"; UNKNOWN is "no data"). */
export function StatusBadge(props: { status: string }) {
  const words = props.status === "UNKNOWN"
    ? "no data"
    : props.status.replaceAll("_", " ").toLowerCase();
  return <span class={`badge s-${props.status}`}>{words}</span>;
}

/**
 * A labelled region that scrolls sideways when its content (a wide table, code) is wider than
 * a phone, so the page itself never does; focusable so keyboard users can scroll it.
 */
export function Scroll(props: { label: string; children?: Child }) {
  return (
    <div class="scroll" role="region" aria-label={props.label} tabindex={0}>
      {props.children}
    </div>
  );
}
