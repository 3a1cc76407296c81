/**
 * `store.sessions`: server-side sign-in sessions (the cookie holds the id, the store its hash).
 * @module
 */
import type { Account, Member } from "../account.ts";
import type { EpochMs } from "../time.ts";

/** A stored session. */
export interface SessionRecord {
  readonly idHash: string;
  readonly memberId: string;
  /** The token every form of this session must echo back. */
  readonly csrfToken: string;
  readonly createdAt: EpochMs;
  readonly expiresAt: EpochMs;
}

/** The sessions noun of the store. */
export interface SessionStore {
  /** Stores a new session and deletes the sessions expired at `now`. */
  start(session: SessionRecord, now: EpochMs): Promise<void>;
  /** The session with that id hash, live at `now`, with its member and account; or null. */
  resolve(idHash: string, now: EpochMs): Promise<
    { readonly session: SessionRecord; readonly member: Member; readonly account: Account } | null
  >;
  /** Deletes one session (sign-out); unknown hashes are ignored. */
  end(idHash: string): Promise<void>;
}
