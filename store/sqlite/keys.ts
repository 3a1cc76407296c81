/**
 * API keys: only a hash of the secret is stored, with a short display prefix.
 * @module
 */
import type { EpochMs, Scope } from "../domain/mod.ts";
import type { Db } from "./db.ts";

/** A stored key's metadata (never the secret; the hash only where verification needs it). */
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
}

interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const METADATA = "id, account_id, name, prefix, scopes, created_at, last_used_at, revoked_at";

function toRecord(r: Omit<KeyRow, "key_hash">): ApiKeyRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes === null ? null : JSON.parse(r.scopes) as Scope[],
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

/** Inserts a key; `scopes` null stores a legacy (all-scope) key. */
export function insertApiKey(
  db: Db,
  k: Omit<ApiKeyRecord, "lastUsedAt" | "revokedAt"> & { readonly keyHash: string },
): void {
  db.prepare(
    `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    k.id,
    k.accountId,
    k.name,
    k.prefix,
    k.keyHash,
    k.scopes === null ? null : JSON.stringify(k.scopes),
    k.createdAt,
  );
}

/** The key whose hash is `keyHash` (revoked or not), with that hash, or null. */
export function apiKeyByHash(
  db: Db,
  keyHash: string,
): (ApiKeyRecord & { readonly keyHash: string }) | null {
  const r = db.prepare("SELECT * FROM api_keys WHERE key_hash = ?").get(keyHash) as
    | KeyRow
    | undefined;
  return r ? { ...toRecord(r), keyHash: r.key_hash } : null;
}

/** An account's keys, newest first; revoked ones only when `includeRevoked`. */
export function listApiKeys(
  db: Db,
  accountId: string,
  includeRevoked = false,
): ApiKeyRecord[] {
  const rows = db.prepare(
    `SELECT ${METADATA} FROM api_keys WHERE account_id = ?
     ${includeRevoked ? "" : "AND revoked_at IS NULL"} ORDER BY created_at DESC, rowid DESC`,
  ).all(accountId) as unknown as Omit<KeyRow, "key_hash">[];
  return rows.map(toRecord);
}

/** One of an account's keys by id, or null. */
export function apiKeyById(db: Db, accountId: string, id: string): ApiKeyRecord | null {
  const r = db.prepare(`SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND id = ?`)
    .get(accountId, id) as Omit<KeyRow, "key_hash"> | undefined;
  return r ? toRecord(r) : null;
}

/** The account's active key with that name, or null. */
export function activeApiKeyByName(db: Db, accountId: string, name: string): ApiKeyRecord | null {
  const r = db.prepare(
    `SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND name = ? AND revoked_at IS NULL`,
  ).get(accountId, name) as Omit<KeyRow, "key_hash"> | undefined;
  return r ? toRecord(r) : null;
}

/** Marks a key revoked at `at` (once; a revoked key stays revoked); false when nothing changed. */
export function revokeApiKey(db: Db, accountId: string, id: string, at: EpochMs): boolean {
  return db.prepare(
    "UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL",
  ).run(at, accountId, id).changes > 0;
}

/** Records uses: sets `last_used_at` for each key id, never moving it backwards. */
export function touchApiKeys(db: Db, uses: ReadonlyMap<string, EpochMs>): void {
  const stmt = db.prepare(
    "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
  );
  for (const [id, at] of uses) stmt.run(at, id, at);
}
