/**
 * Security headers on every response: `X-Content-Type-Options: nosniff`, a `Referrer-Policy`,
 * HSTS when the public URL is https; and on HTML pages a Content-Security-Policy that allows
 * only statusd's own stylesheet and script (no inline code; `/docs` also inline styles, for its
 * viewer) and forbids framing (but for a board's embed page), plus `X-Frame-Options: DENY` for
 * older browsers.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";

/**
 * The policy of every HTML page. No `form-action`: the OAuth consent form's answer is a
 * redirect to the client's own `redirect_uri`, which browsers would check against it.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The policy of `/docs`: the API reference viewer (Scalar) injects its stylesheet and sets
 * style attributes, so that page alone also allows inline styles (never inline scripts) and
 * fonts from statusd itself.
 */
export const DOCS_CSP = PAGE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("img-src", "font-src 'self'; img-src");

/**
 * The policy of a board's embed page (`/b/{slug}/embed`), the one page other sites may frame:
 * as {@link PAGE_CSP} but with any frame ancestor (and no `X-Frame-Options`).
 */
export const EMBED_CSP = PAGE_CSP.replace("frame-ancestors 'none'", "frame-ancestors *");

/** Sent with every response. */
export const REFERRER_POLICY = "same-origin";

/** HSTS value behind an https public URL (one year; subdomains are left to the self-hoster). */
export const HSTS = "max-age=31536000";

/** Middleware adding the headers above; `publicUrl` decides HSTS. */
export function securityHeaders(publicUrl: string): MiddlewareHandler<Env> {
  const https = publicUrl.startsWith("https:");
  return async function securityHeaders(c, next) {
    await next();
    const headers: [string, string][] = [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", REFERRER_POLICY],
    ];
    if (https) headers.push(["Strict-Transport-Security", HSTS]);
    if ((c.res.headers.get("content-type") ?? "").startsWith("text/html")) {
      // A page may declare one of the policies above (`/docs`, a board's embed); else PAGE_CSP.
      const declared = c.res.headers.get("Content-Security-Policy");
      const own = declared === DOCS_CSP || declared === EMBED_CSP ? declared : PAGE_CSP;
      headers.push(["Content-Security-Policy", own]);
      if (own !== EMBED_CSP) headers.push(["X-Frame-Options", "DENY"]);
    }
    try {
      for (const [name, value] of headers) c.res.headers.set(name, value);
    } catch {
      // Immutable headers (a Response made elsewhere): copy it once, then set.
      c.res = new Response(c.res.body, c.res);
      for (const [name, value] of headers) c.res.headers.set(name, value);
    }
  };
}
