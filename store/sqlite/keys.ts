/**
 * API keys on SQLite: only a hash of the secret is stored, with a short display prefix.
 * @module
 */
import type { Account, ApiKeyRecord, EpochMs, KeyStore, Plan, Scope } from "../../domain/mod.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

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

function activeByName(db: Db, accountId: string, name: string): ApiKeyRecord | null {
  const r = db.prepare(
    `SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND name = ? AND revoked_at IS NULL`,
  ).get(accountId, name) as Omit<KeyRow, "key_hash"> | undefined;
  return r ? toRecord(r) : null;
}

function byId(db: Db, accountId: string, id: string): ApiKeyRecord | null {
  const r = db.prepare(`SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND id = ?`)
    .get(accountId, id) as Omit<KeyRow, "key_hash"> | undefined;
  return r ? toRecord(r) : null;
}

/** The keys noun over `db`. */
export function keyStore(db: Db): KeyStore {
  return promised<KeyStore>({
    create(k) {
      return transaction(db, () => {
        if (activeByName(db, k.accountId, k.name)) return false;
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
        return true;
      });
    },
    list(accountId) {
      const rows = db.prepare(
        `SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
         ORDER BY created_at DESC, rowid DESC`,
      ).all(accountId) as unknown as Omit<KeyRow, "key_hash">[];
      return rows.map(toRecord);
    },
    activeByName: (accountId, name) => activeByName(db, accountId, name),
    revoke(accountId, keyId, at: EpochMs) {
      return transaction(db, () => {
        const revokedNow = db.prepare(
          "UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL",
        ).run(at, accountId, keyId).changes > 0;
        const key = byId(db, accountId, keyId);
        return key ? { key, revokedNow } : null;
      });
    },
    byHash(keyHash) {
      return readTransaction(db, () => {
        const r = statement(
          db,
          `SELECT k.*, a.name AS account_name, a.plan AS account_plan,
             a.sla_target AS account_sla_target, a.created_at AS account_created_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?`,
        ).get(keyHash) as
          | KeyRow & {
            account_name: string;
            account_plan: Plan;
            account_sla_target: number;
            account_created_at: number;
          }
          | undefined;
        if (!r) return null;
        const account: Account = {
          id: r.account_id,
          name: r.account_name,
          plan: r.account_plan,
          slaTarget: r.account_sla_target,
          createdAt: r.account_created_at,
        };
        return { key: toRecord(r), keyHash: r.key_hash, account };
      });
    },
    touch(uses) {
      if (uses.size === 0) return;
      transaction(db, () => {
        const stmt = db.prepare(
          "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
        );
        for (const [id, at] of uses) stmt.run(at, id, at);
      });
    },
  });
}
