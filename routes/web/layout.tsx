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
  { key: "api", href: "/openapi.json", label: "API" },
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
  /** Adds `<meta name="robots" content="noindex">` (sign-in, settings, consent pages). */
  readonly noindex?: boolean;
  readonly children?: Child;
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
          <main>{props.children}</main>
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
