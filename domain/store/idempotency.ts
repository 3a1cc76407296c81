/**
 * `store.idempotency`: what a create answered for an account's `Idempotency-Key`,
 * so a retried POST replays the first answer instead of creating a second resource.
 * @module
 */
import type { EpochMs } from "../time.ts";

/** A finished create, as it was answered. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly body: string;
  readonly location: string | null;
}

/** What `begin` found for a key. */
export type IdempotencyBegin =
  | { readonly state: "started" }
  | { readonly state: "in_progress"; readonly fingerprint: string }
  | { readonly state: "done"; readonly fingerprint: string; readonly answer: IdempotentAnswer };

/** The idempotency noun of the store. */
export interface IdempotencyStore {
  /**
   * Claims `key` for the account with the request's `fingerprint` at `now`, in one atomic act:
   * "started" when it is new (or its record expired before `expiredBefore`), else what is
   * recorded for it.
   */
  begin(
    accountId: string,
    key: string,
    fingerprint: string,
    now: EpochMs,
    expiredBefore: EpochMs,
  ): Promise<IdempotencyBegin>;
  /** Records the answer of the create that `begin` started. */
  finish(accountId: string, key: string, answer: IdempotentAnswer): Promise<void>;
  /** Forgets a started key whose create failed (the client may retry it). */
  abandon(accountId: string, key: string): Promise<void>;
  /** Deletes records created before `before`; how many went. */
  prune(before: EpochMs): Promise<number>;
}
