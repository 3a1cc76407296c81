/**
 * A fixed-window request limit per client address, for endpoints that are open to anyone
 * and costly or sensitive (OAuth client registration, password sign-in and sign-up).
 * Memory is bounded (`maxKeys` addresses; an address being refused is never the one
 * forgotten), and the address comes from `clientAddressReader` (trusted proxies only).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { AttemptCounter, type AttemptRule, MINUTE_MS, RateLimited } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

/** How many requests one address may make per window. */
export interface RateLimit extends AttemptRule {
  /**
   * Which answers count against the limit; the others give their attempt back. Attempts are
   * taken when they start, so concurrent ones cannot slip past the limit.
   */
  readonly counts: (status: number) => boolean;
}

/** Built-in limits (PROTOCOLS.md §3.5 suggests 20 registrations an hour per address). */
export const LIMITS = {
  /** Registrations that succeed count; a malformed one (400) costs nothing. */
  register: { limit: 20, windowMs: 60 * MINUTE_MS, maxKeys: 10_000, counts: (s) => s < 400 },
  /** Only failed sign-ins count. */
  signIn: { limit: 10, windowMs: 5 * MINUTE_MS, maxKeys: 10_000, counts: (s) => s >= 400 },
  signUp: { limit: 10, windowMs: 5 * MINUTE_MS, maxKeys: 10_000, counts: () => true },
} as const satisfies Record<string, RateLimit>;

/**
 * Middleware refusing a POST past `limit` per window per address with 429 `rate_limited`.
 * The address is the one `clientAddress` set (trusted proxies only).
 */
export function rateLimit(rule: RateLimit): MiddlewareHandler<Env> {
  const attempts = new AttemptCounter(rule);
  return async function rateLimit(c, next) {
    if (c.req.method !== "POST") return await next();
    const clock = c.get("app").clock;
    const key = c.get("clientAddress");
    const waitMs = attempts.take(key, clock.now());
    if (waitMs > 0) throw new RateLimited(Math.ceil(waitMs / 1000));
    await next();
    if (!rule.counts(c.res.status)) attempts.refund(key, clock.now());
  };
}
