/**
 * A fixed-window request limit per client address, for endpoints that are open to anyone
 * and costly or sensitive (OAuth client registration, password sign-in and sign-up).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import { RateLimited } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

/** How many requests one address may make per window. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** Built-in limits (PROTOCOLS.md §3.5 suggests 20 registrations an hour per address). */
export const LIMITS = {
  register: { limit: 20, windowMs: 60 * 60 * 1000 },
  signIn: { limit: 10, windowMs: 5 * 60 * 1000 },
} as const satisfies Record<string, RateLimit>;

/** The caller's address, or "local" for in-process requests (tests' `app.request`). */
function addressOf(c: Parameters<MiddlewareHandler<Env>>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? "local";
  } catch {
    return "local";
  }
}

/**
 * Middleware refusing a POST past `limit` per window per address with 429 `rate_limited`.
 * With `counts`, an answer whose status it rejects (e.g. a 400 for a malformed registration)
 * is given back to the window: only the attempts that cost something are limited.
 */
export function rateLimit(
  { limit, windowMs }: RateLimit,
  counts?: (status: number) => boolean,
): MiddlewareHandler<Env> {
  const windows = new Map<string, { start: number; count: number }>();
  return async function rateLimit(c, next) {
    if (c.req.method !== "POST") return await next();
    const now = c.get("app").clock.now();
    const key = addressOf(c);
    let w = windows.get(key);
    if (!w || now - w.start >= windowMs) {
      if (windows.size > 10_000) windows.clear();
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    if (w.count >= limit) {
      throw new RateLimited(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
    }
    w.count++;
    await next();
    if (counts && !counts(c.res.status)) w.count = Math.max(0, w.count - 1);
  };
}
