/**
 * API keys on PostgreSQL: only a hash of the secret is stored, with a short display prefix.
 * @module
 */
import type { ApiKeyRecord, KeyStore, Scope } from "../../domain/mod.ts";
import { toAccount } from "../shared/accounts.ts";
import { read, type Row, type Sql, write } from "./db.ts";

const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));

function toRecord(r: Row): ApiKeyRecord {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    name: String(r.name),
    prefix: String(r.prefix),
    scopes: r.scopes === null ? null : JSON.parse(String(r.scopes)) as Scope[],
    createdAt: Number(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}

async function activeByName(sql: Sql, accountId: string, name: string) {
  const [r] = await sql`SELECT * FROM api_keys WHERE account_id = ${accountId}
    AND name = ${name} AND revoked_at IS NULL`;
  return r ? toRecord(r) : null;
}

/** The keys noun over the pool `sql`. */
export function keyStore(sql: Sql): KeyStore {
  return {
    async create(k) {
      const rows = await sql`INSERT INTO api_keys (id, account_id, name, prefix, key_hash,
          scopes, created_at)
        VALUES (${k.id}, ${k.accountId}, ${k.name}, ${k.prefix}, ${k.keyHash},
          ${k.scopes === null ? null : JSON.stringify(k.scopes)}, ${k.createdAt})
        ON CONFLICT (account_id, name) WHERE revoked_at IS NULL DO NOTHING RETURNING id`;
      return rows.length > 0;
    },
    async list(accountId) {
      const rows = await sql`SELECT * FROM api_keys WHERE account_id = ${accountId}
        AND revoked_at IS NULL ORDER BY created_at DESC, seq DESC`;
      return rows.map(toRecord);
    },
    activeByName: (accountId, name) => activeByName(sql, accountId, name),
    revoke(accountId, keyId, at) {
      return write(sql, async (tx) => {
        const revoked = await tx`UPDATE api_keys SET revoked_at = ${at}
          WHERE account_id = ${accountId} AND id = ${keyId} AND revoked_at IS NULL`;
        const [r] = await tx`SELECT * FROM api_keys WHERE account_id = ${accountId}
          AND id = ${keyId}`;
        return r ? { key: toRecord(r), revokedNow: revoked.count > 0 } : null;
      });
    },
    byHash(keyHash) {
      return read(sql, async (tx) => {
        const [k] = await tx`SELECT * FROM api_keys WHERE key_hash = ${keyHash}`;
        if (!k) return null;
        const [a] = await tx`SELECT * FROM accounts WHERE id = ${String(k.account_id)}`;
        if (!a) return null;
        return { key: toRecord(k), keyHash: String(k.key_hash), account: toAccount(a) };
      });
    },
    async touch(uses) {
      if (uses.size === 0) return;
      const ids = [...uses.keys()];
      const ats = ids.map((id) => uses.get(id)!);
      await sql`UPDATE api_keys k SET last_used_at = u.at
        FROM (SELECT * FROM unnest(${sql.array(ids)}::text[], ${sql.array(ats)}::bigint[])
              AS u(id, at)) u
        WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`;
    },
  };
}
