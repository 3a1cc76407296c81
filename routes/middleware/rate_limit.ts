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
import type { AddressOf } from "./client_address.ts";

/** How many requests one address may make per window. */
export interface RateLimit extends AttemptRule {
  /**
   * Count only requests that fail (status 400 and above): a success gives its attempt back.
   * Attempts are counted when they start, so concurrent ones cannot slip past the limit.
   */
  readonly failuresOnly: boolean;
}

/** Built-in limits (PROTOCOLS.md §3.5 suggests 20 registrations an hour per address). */
export const LIMITS = {
  register: { limit: 20, windowMs: 60 * MINUTE_MS, maxKeys: 10_000, failuresOnly: false },
  signIn: { limit: 10, windowMs: 5 * MINUTE_MS, maxKeys: 10_000, failuresOnly: true },
  signUp: { limit: 10, windowMs: 5 * MINUTE_MS, maxKeys: 10_000, failuresOnly: false },
} as const satisfies Record<string, RateLimit>;

/** Middleware refusing a POST past `limit` per window per address with 429 `rate_limited`. */
export function rateLimit(rule: RateLimit, addressOf: AddressOf): MiddlewareHandler<Env> {
  const attempts = new AttemptCounter(rule);
  return async function rateLimit(c, next) {
    if (c.req.method !== "POST") return await next();
    const clock = c.get("app").clock;
    const key = addressOf(c);
    const waitMs = attempts.take(key, clock.now());
    if (waitMs > 0) throw new RateLimited(Math.ceil(waitMs / 1000));
    await next();
    if (rule.failuresOnly && c.res.status < 400) attempts.refund(key, clock.now());
  };
}
