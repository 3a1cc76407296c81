/**
 * Sessions and CSRF for the server-rendered pages: the `sd_session` cookie → the signed-in
 * person (or null), the cookie's attributes, and the form-token check every POST runs.
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { checkFormToken, newFormToken, resolveSession, type WebSession } from "../../app/mod.ts";
import { Forbidden, InvalidRequest } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

/** Cookie holding the session id. */
export const SESSION_COOKIE = "sd_session";
/** Cookie holding the form token of pages shown before sign-in (double-submit). */
export const FORM_COOKIE = "sd_form";
/** Name of the hidden form field carrying the CSRF token. */
export const CSRF_FIELD = "_csrf";

/** The pages' Hono environment: the shared one plus the session. */
export interface WebEnv {
  Variables: Env["Variables"] & { session: WebSession | null };
}

/** Sets `c.get("session")` from the session cookie (null when absent, unknown or expired). */
export const webSession: MiddlewareHandler<WebEnv> = async function webSession(c, next) {
  c.set("session", await resolveSession(c.get("app"), getCookie(c, SESSION_COOKIE)));
  c.header("Cache-Control", "no-store");
  await next();
};

/** The signed-in person as the page header shows them. */
export interface SignedIn {
  readonly email: string;
  /** The session's CSRF token, for the sign-out form. */
  readonly csrf: string;
}

/** The header's view of a session (email and sign-out token), or null when signed out. */
export function signedInOf(session: WebSession | null): SignedIn | null {
  return session ? { email: session.principal.member.email, csrf: session.csrfToken } : null;
}

/**
 * The session of a public page's caller, or null: looked up only when the session cookie is
 * sent, so anonymous requests cost nothing (and their pages can be shared-cached).
 */
export async function optionalSession<E extends Env>(c: Context<E>): Promise<WebSession | null> {
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? await resolveSession(c.get("app"), cookie) : null;
}

function secure(c: Context<WebEnv>): boolean {
  return c.get("app").settings.publicUrl.startsWith("https:");
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure behind https, until `expiresAt`. */
export function setSessionCookie(c: Context<WebEnv>, sessionId: string, expiresAt: number): void {
  setCookie(c, SESSION_COOKIE, sessionId, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    // Max-Age (relative) rather than Expires, so a skewed browser clock cannot end it early.
    maxAge: Math.max(0, Math.floor((expiresAt - c.get("app").clock.now()) / 1000)),
  });
}

/** The cookie a browser keeps after signing in: its sign-ins are throttled on their own. */
export const DEVICE_COOKIE = "sd_device";

/** Sets the device cookie (a year; HttpOnly, SameSite=Lax, sent only to `/sign-in`). */
export function setDeviceCookie(c: Context<WebEnv>, token: string): void {
  setCookie(c, DEVICE_COOKIE, token, {
    path: "/sign-in",
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    maxAge: 365 * 24 * 3600,
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context<WebEnv>): void {
  deleteCookie(c, SESSION_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
  });
}

/**
 * The CSRF token to embed in a form: the session's own token when signed in, otherwise a
 * random token also set in the `sd_form` cookie (SameSite=Strict, HttpOnly).
 */
export function formToken(c: Context<WebEnv>): string {
  const session = c.get("session");
  if (session) return session.csrfToken;
  const existing = getCookie(c, FORM_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = newFormToken();
  setCookie(c, FORM_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "Strict",
    secure: secure(c),
  });
  return token;
}

/**
 * Reads a POSTed form and checks it came from our own page: a cross-site `Origin` is refused,
 * and the CSRF field must equal the session's token (or the `sd_form` cookie before sign-in).
 */
export async function readForm(c: Context<WebEnv>): Promise<Record<string, string | string[]>> {
  return (await readFormWithFiles(c)).fields;
}

/** A file sent with a form: its name, its bytes and those as UTF-8 text. */
export interface FormFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly content: string;
}

/**
 * {@link readForm}, with the files the form sent (field `files`, each read as UTF-8 text; an
 * empty file input sends none). The body's size is bounded by the route's limit.
 */
export async function readFormWithFiles(
  c: Context<WebEnv>,
): Promise<{ fields: Record<string, string | string[]>; files: FormFile[] }> {
  const origin = c.req.header("origin");
  if (origin && origin !== "null") {
    const allowed = [new URL(c.req.url).origin, new URL(c.get("app").settings.publicUrl).origin];
    if (!allowed.includes(origin)) throw new Forbidden("Forms must be sent from this site.");
  }
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody({ all: true }) as Record<string, unknown>;
  } catch {
    // e.g. multipart/form-data without a boundary, or a body that is not the declared type.
    throw new InvalidRequest([{ parameter: "body", message: "could not read the form" }]);
  }
  const session = c.get("session");
  const expected = session ? session.csrfToken : getCookie(c, FORM_COOKIE);
  checkFormToken(expected, body[CSRF_FIELD]);
  const out: Record<string, string | string[]> = {};
  const files: FormFile[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (typeof v === "string") out[k] = v;
    else if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === "string");
    for (const f of [v].flat()) {
      if (k === "files" && f instanceof File && f.name !== "" && f.size > 0) {
        const bytes = new Uint8Array(await f.arrayBuffer());
        files.push({ name: f.name, bytes, content: new TextDecoder().decode(bytes) });
      }
    }
  }
  return { fields: out, files };
}

/** One text field of a parsed form ("" when absent). */
export function field(form: Record<string, string | string[]>, name: string): string {
  const v = form[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v[0] ?? "" : "";
}

/** Origin used only to resolve a candidate path; never sent anywhere. */
const PLACEHOLDER_ORIGIN = "http://next.invalid";

/**
 * The one check for every `next` (where to go back after sign-in or sign-up, or an OAuth
 * authorization to resume): a path on this site, starting with a single `/`, with no control
 * characters, spaces or backslashes (browsers drop tabs and newlines and read `\` as `/`, so
 * `/\t/evil.example` would leave the site). Anything else gives `fallback`. The result is the
 * path as a URL serialises it (non-ASCII percent-encoded), safe for a `Location` header.
 */
export function safeNext(value: string | undefined, fallback: string): string {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return fallback;
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || ch === "\\") return fallback;
  }
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? fallback : path;
}
