/**
 * Public pages answered from the in-memory response cache (`api/cache.ts`: dropped on every
 * committed change and after a few seconds), with an ETag so browsers revalidate cheaply. A
 * caller with a live session gets the page rendered for them (their email and a sign-out in
 * the header) and never shared-cached.
 * @module
 */
import type { Context } from "hono";
import { HtmlEscapedCallbackPhase, type HtmlEscapedString, resolveCallback } from "hono/utils/html";
import type { Env } from "../env.ts";
import { ANONYMOUS, AppError } from "../../domain/mod.ts";
import type { Caller } from "../../app/mod.ts";
import { wantsJson } from "../errors.ts";
import { errorPageResponse } from "./error_page.tsx";
import type { SignedIn } from "./layout.tsx";
import { optionalSession, signedInOf } from "./session.ts";

/** What a page's JSX evaluates to. */
type PageMarkup = HtmlEscapedString | Promise<HtmlEscapedString>;

/** What a page renderer returns: the JSX page, and its status when not 200. */
export interface RenderedPage {
  readonly html: PageMarkup;
  readonly status?: number;
}

/** Headers of an anonymous (shared) page: stored by browsers, revalidated each time. */
const SHARED = { "Cache-Control": "no-cache", Vary: "Cookie" };
/** Headers of a page rendered for a signed-in person. */
const PRIVATE = { "Cache-Control": "private, no-store", Vary: "Cookie" };

async function toText(html: PageMarkup): Promise<string> {
  return await resolveCallback(
    await html,
    HtmlEscapedCallbackPhase.Stringify,
    false,
    {},
  );
}

/**
 * The page `render` draws for this caller: anonymous callers share one cached copy per URL
 * (path and query); signed-in callers get their own, uncached. `headers` are added to both.
 */
export async function publicPage(
  c: Context<Env>,
  render: (signedIn: SignedIn | null, who: Caller) => RenderedPage | Promise<RenderedPage>,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  try {
    return await renderPage(c, render, headers);
  } catch (err) {
    // A page's own errors (an unknown slug) are an HTML page unless JSON was asked for.
    if (err instanceof AppError && !wantsJson(c)) return await errorPageResponse(c, err);
    throw err;
  }
}

async function renderPage(
  c: Context<Env>,
  render: (signedIn: SignedIn | null, who: Caller) => RenderedPage | Promise<RenderedPage>,
  headers: Readonly<Record<string, string>>,
): Promise<Response> {
  const session = await optionalSession(c);
  if (session) {
    const page = await render(signedInOf(session), session.principal);
    return new Response(await toText(page.html), {
      status: page.status ?? 200,
      headers: { ...headers, ...PRIVATE, "Content-Type": "text/html; charset=UTF-8" },
    });
  }
  return await c.get("responseCache").send(c, async () => {
    const page = await render(null, ANONYMOUS);
    return {
      body: await toText(page.html),
      contentType: "text/html; charset=UTF-8",
      status: page.status,
    };
  }, { ...headers, ...SHARED });
}
