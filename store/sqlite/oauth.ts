/**
 * OAuth clients, authorization codes, grants and tokens: named queries only. Secrets arrive
 * here already hashed.
 * @module
 */
import type { EpochMs, Scope } from "../domain/mod.ts";
import type { Db } from "./db.ts";

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
  readonly usedAt: EpochMs | null;
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

type Row = Record<string, unknown>;
const json = <T>(v: unknown): T => JSON.parse(String(v)) as T;
const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null ? null : String(v));

function toClient(r: Row): OAuthClientRecord {
  return {
    id: String(r.id),
    secretHash: strOrNull(r.secret_hash),
    name: String(r.name),
    redirectUris: json<string[]>(r.redirect_uris),
    authMethod: r.auth_method as ClientAuthMethod,
    metadata: json<Record<string, unknown>>(r.metadata),
    createdAt: Number(r.created_at),
  };
}

function toCode(r: Row): OAuthCodeRecord {
  return {
    codeHash: String(r.code_hash),
    clientId: String(r.client_id),
    accountId: String(r.account_id),
    memberId: strOrNull(r.member_id),
    redirectUri: String(r.redirect_uri),
    codeChallenge: String(r.code_challenge),
    scopes: json<Scope[]>(r.scopes),
    resource: String(r.resource),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: numOrNull(r.used_at),
    grantId: strOrNull(r.grant_id),
  };
}

function toGrant(r: Row): OAuthGrantRecord {
  return {
    id: String(r.id),
    clientId: String(r.client_id),
    accountId: String(r.account_id),
    memberId: strOrNull(r.member_id),
    scopes: json<Scope[]>(r.scopes),
    resource: String(r.resource),
    createdAt: Number(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}

function toToken(r: Row): OAuthTokenRecord {
  return {
    tokenHash: String(r.token_hash),
    grantId: String(r.grant_id),
    kind: r.kind as "access" | "refresh",
    scopes: json<Scope[]>(r.scopes),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    rotatedAt: numOrNull(r.rotated_at),
    replay: strOrNull(r.replay),
    revokedAt: numOrNull(r.revoked_at),
  };
}

/** Inserts a registered client. */
export function insertOAuthClient(db: Db, c: OAuthClientRecord): void {
  db.prepare(
    `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, auth_method, metadata, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.id,
    c.secretHash,
    c.name,
    JSON.stringify(c.redirectUris),
    c.authMethod,
    JSON.stringify(c.metadata),
    c.createdAt,
  );
}

/** The client with that id, or null. */
export function oauthClientById(db: Db, id: string): OAuthClientRecord | null {
  const r = db.prepare("SELECT * FROM oauth_clients WHERE id = ?").get(id) as Row | undefined;
  return r ? toClient(r) : null;
}

/** Inserts an authorization code. */
export function insertOAuthCode(
  db: Db,
  c: Omit<OAuthCodeRecord, "usedAt" | "grantId">,
): void {
  db.prepare(
    `INSERT INTO oauth_codes (code_hash, client_id, account_id, member_id, redirect_uri,
       code_challenge, scopes, resource, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.codeHash,
    c.clientId,
    c.accountId,
    c.memberId,
    c.redirectUri,
    c.codeChallenge,
    JSON.stringify(c.scopes),
    c.resource,
    c.createdAt,
    c.expiresAt,
  );
}

/** The code with that hash (used or not, expired or not), or null. */
export function oauthCodeByHash(db: Db, codeHash: string): OAuthCodeRecord | null {
  const r = db.prepare("SELECT * FROM oauth_codes WHERE code_hash = ?").get(codeHash) as
    | Row
    | undefined;
  return r ? toCode(r) : null;
}

/** Marks a code used and records the grant its redemption created; false if already used. */
export function markOAuthCodeUsed(
  db: Db,
  codeHash: string,
  at: EpochMs,
  grantId: string | null,
): boolean {
  return db.prepare(
    "UPDATE oauth_codes SET used_at = ?, grant_id = ? WHERE code_hash = ? AND used_at IS NULL",
  ).run(at, grantId, codeHash).changes > 0;
}

/** Deletes codes that expired before `before`; returns how many. */
export function deleteExpiredOAuthCodes(db: Db, before: EpochMs): number {
  return Number(db.prepare("DELETE FROM oauth_codes WHERE expires_at < ?").run(before).changes);
}

/** Inserts a grant. */
export function insertOAuthGrant(
  db: Db,
  g: Omit<OAuthGrantRecord, "lastUsedAt" | "revokedAt">,
): void {
  db.prepare(
    `INSERT INTO oauth_grants (id, client_id, account_id, member_id, scopes, resource, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    g.id,
    g.clientId,
    g.accountId,
    g.memberId,
    JSON.stringify(g.scopes),
    g.resource,
    g.createdAt,
  );
}

/** The grant with that id, or null. */
export function oauthGrantById(db: Db, id: string): OAuthGrantRecord | null {
  const r = db.prepare("SELECT * FROM oauth_grants WHERE id = ?").get(id) as Row | undefined;
  return r ? toGrant(r) : null;
}

/** Sets `last_used_at` of a grant (never backwards). */
export function touchOAuthGrant(db: Db, id: string, at: EpochMs): void {
  db.prepare(
    "UPDATE oauth_grants SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
  ).run(at, id, at);
}

/** Revokes one grant and every token under it; false when it was already revoked. */
export function revokeOAuthGrant(db: Db, id: string, at: EpochMs): boolean {
  const changed = db.prepare(
    "UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  ).run(at, id).changes > 0;
  db.prepare(
    "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE grant_id = ? AND revoked_at IS NULL",
  ).run(at, id);
  return changed;
}

/** Live grant ids of one client on one account. */
export function liveOAuthGrantIds(db: Db, accountId: string, clientId: string): string[] {
  const rows = db.prepare(
    "SELECT id FROM oauth_grants WHERE account_id = ? AND client_id = ? AND revoked_at IS NULL",
  ).all(accountId, clientId) as Row[];
  return rows.map((r) => String(r.id));
}

/** An account's live grants with their clients, newest first. */
export function listConnectedOAuthClients(db: Db, accountId: string): ConnectedClientRow[] {
  const rows = db.prepare(
    `SELECT g.id AS grant_id, g.client_id, c.name, c.redirect_uris, g.scopes, g.created_at,
            g.last_used_at
     FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
     WHERE g.account_id = ? AND g.revoked_at IS NULL
     ORDER BY g.created_at DESC, g.rowid DESC`,
  ).all(accountId) as Row[];
  return rows.map((r) => ({
    grantId: String(r.grant_id),
    clientId: String(r.client_id),
    clientName: String(r.name),
    redirectUris: json<string[]>(r.redirect_uris),
    scopes: json<Scope[]>(r.scopes),
    createdAt: Number(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
  }));
}

/** Inserts a token. */
export function insertOAuthToken(
  db: Db,
  t: Omit<OAuthTokenRecord, "rotatedAt" | "replay" | "revokedAt">,
): void {
  db.prepare(
    `INSERT INTO oauth_tokens (token_hash, grant_id, kind, scopes, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(t.tokenHash, t.grantId, t.kind, JSON.stringify(t.scopes), t.createdAt, t.expiresAt);
}

/** The token with that hash, or null. */
export function oauthTokenByHash(db: Db, tokenHash: string): OAuthTokenRecord | null {
  const r = db.prepare("SELECT * FROM oauth_tokens WHERE token_hash = ?").get(tokenHash) as
    | Row
    | undefined;
  return r ? toToken(r) : null;
}

/** Marks a refresh token rotated, keeping `replay` for the grace window; false if it already was. */
export function rotateOAuthToken(
  db: Db,
  tokenHash: string,
  at: EpochMs,
  replay: string,
): boolean {
  return db.prepare(
    `UPDATE oauth_tokens SET rotated_at = ?, replay = ?
     WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL`,
  ).run(at, replay, tokenHash).changes > 0;
}

/** Revokes one token; false when it was unknown or already revoked. */
export function revokeOAuthToken(db: Db, tokenHash: string, at: EpochMs): boolean {
  return db.prepare(
    "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE token_hash = ? AND revoked_at IS NULL",
  ).run(at, tokenHash).changes > 0;
}

/** Deletes tokens expired before `before` and forgets replay data older than `replayBefore`. */
export function pruneOAuthTokens(db: Db, before: EpochMs, replayBefore: EpochMs): void {
  db.prepare("DELETE FROM oauth_tokens WHERE expires_at < ?").run(before);
  db.prepare("UPDATE oauth_tokens SET replay = NULL WHERE replay IS NOT NULL AND rotated_at < ?")
    .run(replayBefore);
}
