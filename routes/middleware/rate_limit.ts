/**
 * A fixed-window request limit per client address, for endpoints that are open to anyone
 * and costly or sensitive (OAuth client registration, password sign-in and sign-up). The
 * counters are the store's (shared by instances on one PostgreSQL; in memory on SQLite, bounded
 * to `maxKeys` addresses), and the address comes from `clientAddressReader` (trusted proxies
 * only).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { refundAttempt, takeAttempt } from "../../app/mod.ts";
import { type AttemptRule, MINUTE_MS } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { limitKey } from "../../lib/mod.ts";

/** How many requests one address may make per window. */
export interface RateLimit extends AttemptRule {
  /**
   * Which answers count against the limit; the others give their attempt back. Attempts are
   * taken when they start, so concurrent ones cannot slip past the limit.
   */
  readonly counts: (status: number) => boolean;
}

/** A limit with the name its counters are kept under. */
export type NamedRateLimit = RateLimit & { readonly name: string };

/** Built-in limits (PROTOCOLS.md §3.5 suggests 20 registrations an hour per address). */
export const LIMITS = {
  /** Registrations that succeed count; a malformed one (400) costs nothing. */
  register: {
    name: "register",
    limit: 20,
    windowMs: 60 * MINUTE_MS,
    maxKeys: 10_000,
    counts: (s) => s < 400,
  },
  /**
   * Only failed sign-ins count: a refusal because the server is busy (503) or already
   * throttling (429) is not the person's failure and gives its attempt back.
   */
  signIn: {
    name: "sign-in",
    limit: 10,
    windowMs: 5 * MINUTE_MS,
    maxKeys: 10_000,
    counts: (s) => s >= 400 && s !== 503 && s !== 429,
  },
  signUp: {
    name: "sign-up",
    limit: 10,
    windowMs: 5 * MINUTE_MS,
    maxKeys: 10_000,
    counts: () => true,
  },
  /** Email subscriptions from public board pages (each address also has its own daily cap). */
  boardSubscribe: {
    name: "board-subscribe",
    limit: 10,
    windowMs: 60 * MINUTE_MS,
    maxKeys: 10_000,
    counts: () => true,
  },
} as const satisfies Record<string, NamedRateLimit>;

/**
 * Middleware refusing a POST past `limit` per window per client with 429 `rate_limited`: per
 * IPv4 address, per IPv6 /64 (lib `limitKey`). The address is the one `clientAddress` set
 * (trusted proxies only).
 */
export function rateLimit(rule: NamedRateLimit): MiddlewareHandler<Env> {
  return async function rateLimit(c, next) {
    if (c.req.method !== "POST") return await next();
    const app = c.get("app");
    const key = limitKey(c.get("clientAddress"));
    await takeAttempt(app, rule.name, rule, key);
    await next();
    if (!rule.counts(c.res.status)) await refundAttempt(app, rule.name, rule, key);
  };
}
