/**
 * `Idempotency-Key` on creates: a client that retries a POST with the same key gets
 * the first answer again, and one resource exists. The same key with a different request is a
 * 422; while the first is still running, a 409. Records are kept {@link IDEMPOTENCY_TTL_MS}.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import {
  Conflict,
  HOUR_MS,
  IdempotencyKeyReused,
  type IdempotentAnswer,
  InvalidRequest,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import type { Caller } from "./policy.ts";

/** How long a key's answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * HOUR_MS;

/** What a key may look like (the IETF draft's advice: a UUID or a similar opaque token). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** An answer, and whether it is a replay of an earlier one. */
export interface IdempotentResult extends IdempotentAnswer {
  readonly replayed: boolean;
}

/**
 * Runs `create` once per (account, `key`): the first time it runs and its answer is recorded;
 * a retry with the same `request` replays it. Without a key (or for an anonymous caller, whom
 * `create` refuses) it simply runs. `operation` names the create, so one key cannot replay
 * another operation's answer.
 */
export async function idempotentCreate(
  ctx: AppContext,
  who: Caller,
  key: string | undefined,
  operation: string,
  request: unknown,
  create: () => Promise<IdempotentAnswer>,
): Promise<IdempotentResult> {
  if (key === undefined || who.kind === "anonymous") {
    return { ...await create(), replayed: false };
  }
  if (!KEY.test(key)) {
    throw new InvalidRequest([{
      parameter: "Idempotency-Key",
      message: "expected 1 to 255 printable ASCII characters, such as a UUID",
    }]);
  }
  const accountId = who.account.id;
  const fingerprint = encodeHexLowerCase(
    sha256(new TextEncoder().encode(`${operation}\n${JSON.stringify(request)}`)),
  );
  const now = ctx.clock.now();
  const found = await ctx.store.idempotency.begin(
    accountId,
    key,
    fingerprint,
    now,
    now - IDEMPOTENCY_TTL_MS,
  );
  if (found.state === "started") {
    let answer: IdempotentAnswer;
    try {
      answer = await create();
    } catch (err) {
      await ctx.store.idempotency.abandon(accountId, key);
      throw err;
    }
    await ctx.store.idempotency.finish(accountId, key, answer);
    return { ...answer, replayed: false };
  }
  if (found.state === "in_progress") {
    throw new Conflict("A request with this Idempotency-Key is still being processed: retry later");
  }
  if (found.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
  return { ...found.answer, replayed: true };
}
