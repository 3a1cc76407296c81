/**
 * Counting attempts against a limit (rate limits per client address): the counters are the
 * store's, so instances sharing a database share the limits.
 * @module
 */
import { type AttemptRule, RateLimited } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";

/** Counts one attempt by `key` under the limit named `scope`; RateLimited past the limit. */
export async function takeAttempt(
  ctx: AppContext,
  scope: string,
  rule: AttemptRule,
  key: string,
): Promise<void> {
  const waitMs = await ctx.store.attempts.take(scope, key, rule, ctx.clock.now());
  if (waitMs > 0) throw new RateLimited(Math.ceil(waitMs / 1000));
}

/** Gives back an attempt that did not count (the rule's `counts` said so). */
export async function refundAttempt(
  ctx: AppContext,
  scope: string,
  rule: AttemptRule,
  key: string,
): Promise<void> {
  await ctx.store.attempts.refund(scope, key, rule, ctx.clock.now());
}
