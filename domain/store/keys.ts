/**
 * `store.keys`: API keys. Only a hash of the secret is ever given to the store.
 * @module
 */
import type { Account, Role } from "../account.ts";
import type { Scope } from "../scope.ts";
import type { EpochMs } from "../time.ts";

/** A stored key's metadata (never the secret). */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** The first characters of the key (`sd_live_AbCd`), enough to recognise it. */
  readonly prefix: string;
  /** Stored scope list; null for a key made before scopes existed. */
  readonly scopes: readonly Scope[] | null;
  readonly createdAt: EpochMs;
  readonly lastUsedAt: EpochMs | null;
  readonly revokedAt: EpochMs | null;
  /**
   * The member who created it (its scopes are bounded by that member's role at each use); null
   * for a key the self-hoster made with `statusd admin`, or made before keys recorded it.
   */
  readonly memberId: string | null;
}

/** A key to store: its metadata and the SHA-256 of its secret. */
export interface NewApiKey extends Omit<ApiKeyRecord, "lastUsedAt" | "revokedAt"> {
  readonly keyHash: string;
}

/** The keys noun of the store. */
export interface KeyStore {
  /** Stores a key; false (nothing stored) when the account has an active key of that name. */
  create(key: NewApiKey): Promise<boolean>;
  /** An account's active keys, newest first. */
  list(accountId: string): Promise<readonly ApiKeyRecord[]>;
  /** The account's active key with that name, or null. */
  activeByName(accountId: string, name: string): Promise<ApiKeyRecord | null>;
  /**
   * Revokes one of an account's keys at `at` (a revoked key stays revoked, its first date
   * kept): the key after, and whether this call revoked it; null when the account has no such key.
   */
  revoke(
    accountId: string,
    keyId: string,
    at: EpochMs,
  ): Promise<{ readonly key: ApiKeyRecord; readonly revokedNow: boolean } | null>;
  /**
   * The key with that hash (revoked or not), its hash, its account as stored now and the current
   * role of the member who made it (null: no member made it; `MEMBER` when that member is gone);
   * or null.
   */
  byHash(keyHash: string): Promise<
    {
      readonly key: ApiKeyRecord;
      readonly keyHash: string;
      readonly account: Account;
      readonly makerRole: Role | null;
    } | null
  >;
  /** Records uses: `lastUsedAt` of each key id, never moved backwards. */
  touch(uses: ReadonlyMap<string, EpochMs>): Promise<void>;
}
