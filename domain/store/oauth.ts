/**
 * `store.oauth`: the built-in authorization server's clients, codes, grants and tokens. Every
 * secret arrives already hashed.
 * @module
 */
import type { Account, Role } from "../account.ts";
import type { Scope } from "../scope.ts";
import type { EpochMs } from "../time.ts";

/** How a client proves itself at the token endpoint. */
export type ClientAuthMethod = "none" | "client_secret_post" | "client_secret_basic";

/** A registered OAuth client. */
export interface OAuthClientRecord {
  readonly id: string;
  /** SHA-256 of the secret; null for public clients (`none`). */
  readonly secretHash: string | null;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly authMethod: ClientAuthMethod;
  /** The registration as stored and echoed (RFC 7591 names). */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly createdAt: EpochMs;
}

/** An issued authorization code (by hash). */
export interface OAuthCodeRecord {
  readonly codeHash: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly memberId: string | null;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly Scope[];
  readonly resource: string;
  readonly createdAt: EpochMs;
  readonly expiresAt: EpochMs;
  /** When it was redeemed; null while unused. */
  readonly usedAt: EpochMs | null;
  /** The grant its redemption created. */
  readonly grantId: string | null;
}

/** One approval: what a member let a client do. */
export interface OAuthGrantRecord {
  readonly id: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly memberId: string | null;
  readonly scopes: readonly Scope[];
  readonly resource: string;
  readonly createdAt: EpochMs;
  readonly lastUsedAt: EpochMs | null;
  readonly revokedAt: EpochMs | null;
}

/** An access or refresh token (by hash). */
export interface OAuthTokenRecord {
  readonly tokenHash: string;
  readonly grantId: string;
  readonly kind: "access" | "refresh";
  readonly scopes: readonly Scope[];
  readonly createdAt: EpochMs;
  readonly expiresAt: EpochMs;
  readonly rotatedAt: EpochMs | null;
  /** Encrypted successor pair, kept only during the refresh grace window. */
  readonly replay: string | null;
  readonly revokedAt: EpochMs | null;
}

/** A token to store. */
export type NewOAuthToken = Omit<OAuthTokenRecord, "rotatedAt" | "replay" | "revokedAt">;

/** A grant joined with its client, for the settings page. */
export interface ConnectedClientRow {
  readonly grantId: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly Scope[];
  readonly createdAt: EpochMs;
  readonly lastUsedAt: EpochMs | null;
}

/** A code redemption: the grant and token pair it issues. */
export interface CodeRedemption {
  readonly codeHash: string;
  readonly at: EpochMs;
  readonly grant: Omit<OAuthGrantRecord, "lastUsedAt" | "revokedAt">;
  readonly tokens: readonly NewOAuthToken[];
}

/** A refresh-token rotation. */
export interface TokenRotation {
  readonly tokenHash: string;
  readonly at: EpochMs;
  /** The new pair sealed for the grace window (domain: only the old token can open it). */
  readonly replay: string;
  readonly tokens: readonly NewOAuthToken[];
  /** Tokens expired before this instant are deleted. */
  readonly pruneBefore: EpochMs;
  /** Replay data of tokens rotated before this instant is forgotten. */
  readonly replayBefore: EpochMs;
}

/** The OAuth noun of the store. */
export interface OAuthStore {
  /** Stores a registered client. */
  registerClient(client: OAuthClientRecord): Promise<void>;
  /** The client with that id, or null. */
  client(id: string): Promise<OAuthClientRecord | null>;
  /** Stores an authorization code, deleting codes that expired before `expiredBefore`. */
  issueCode(
    code: Omit<OAuthCodeRecord, "usedAt" | "grantId">,
    expiredBefore: EpochMs,
  ): Promise<void>;
  /** The code with that hash (used or not, expired or not), or null. */
  code(codeHash: string): Promise<OAuthCodeRecord | null>;
  /**
   * Redeems a code once, atomically: marks it used and stores the grant and its tokens. When it
   * was already used (a replay, or a concurrent redemption that won), nothing is stored, the
   * grant its first redemption issued is revoked with all its tokens, and the answer is
   * `"reused"`.
   */
  redeemCode(redemption: CodeRedemption): Promise<"redeemed" | "reused">;
  /**
   * The token with that hash, its grant, the grant's account as stored now and the current role
   * of the member who approved it (null: the grant names no member; `MEMBER` when that member is
   * gone); or null.
   */
  token(tokenHash: string): Promise<
    {
      readonly token: OAuthTokenRecord;
      readonly grant: OAuthGrantRecord;
      readonly account: Account | null;
      readonly memberRole: Role | null;
    } | null
  >;
  /**
   * Rotates a refresh token once, atomically: marks it rotated (keeping `replay`), stores the
   * new tokens and prunes expired ones; false (nothing stored) when it was already rotated or
   * revoked.
   */
  rotateRefreshToken(rotation: TokenRotation): Promise<boolean>;
  /** Revokes a grant and every token under it; false when it already was revoked (or unknown). */
  revokeGrant(grantId: string, at: EpochMs): Promise<boolean>;
  /** Revokes one token; false when unknown or already revoked. */
  revokeToken(tokenHash: string, at: EpochMs): Promise<boolean>;
  /** Moves a grant's `lastUsedAt` to `at` (never backwards). */
  touchGrant(grantId: string, at: EpochMs): Promise<void>;
  /** An account's live grants with their clients, newest first. */
  connectedClients(accountId: string): Promise<readonly ConnectedClientRow[]>;
  /** Revokes every live grant of one client on one account; how many. */
  disconnectClient(accountId: string, clientId: string, at: EpochMs): Promise<number>;
}
