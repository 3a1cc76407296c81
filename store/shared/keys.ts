/**
 * API keys, once for both engines: only a hash of the secret is stored, with a short display
 * prefix.
 * @module
 */
import type { ApiKeyRecord, KeyStore, Role, Scope } from "../../domain/mod.ts";
import { toAccount } from "./accounts.ts";
import { all, type Engine, first, numOrNull, type Query, type Row, run } from "./query.ts";

const METADATA =
  "id, account_id, name, prefix, scopes, created_at, last_used_at, revoked_at, member_id";

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
    memberId: r.member_id === null || r.member_id === undefined ? null : String(r.member_id),
  };
}

function* keyWhere(where: string, ...params: string[]): Query<ApiKeyRecord | null> {
  const r = yield* first(`SELECT ${METADATA} FROM api_keys WHERE ${where}`, ...params);
  return r ? toRecord(r) : null;
}

/** The keys noun over `engine`. */
export function keyStore(engine: Engine): KeyStore {
  const order = engine.dialect.insertionOrder;
  return {
    async create(k) {
      const added = await engine.once(run(
        `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, scopes, created_at,
           member_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, name) WHERE revoked_at IS NULL DO NOTHING`,
        k.id,
        k.accountId,
        k.name,
        k.prefix,
        k.keyHash,
        k.scopes === null ? null : JSON.stringify(k.scopes),
        k.createdAt,
        k.memberId,
      ));
      return added > 0;
    },
    list(accountId) {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT ${METADATA} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
           ORDER BY created_at DESC, ${order} DESC`,
          accountId,
        );
        return rows.map(toRecord);
      })());
    },
    activeByName: (accountId, name) =>
      engine.once(
        keyWhere("account_id = ? AND name = ? AND revoked_at IS NULL", accountId, name),
      ),
    revoke(accountId, keyId, at) {
      return engine.write((function* () {
        const revoked = yield* run(
          "UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL",
          at,
          accountId,
          keyId,
        );
        const key = yield* keyWhere("account_id = ? AND id = ?", accountId, keyId);
        return key ? { key, revokedNow: revoked > 0 } : null;
      })());
    },
    byHash(keyHash) {
      return engine.once((function* () {
        const r = yield* first(
          `SELECT k.*, a.name AS account_name, a.plan AS account_plan,
             a.sla_target AS account_sla_target, a.created_at AS account_created_at,
             m.role AS maker_role
           FROM api_keys k JOIN accounts a ON a.id = k.account_id
           LEFT JOIN members m ON m.id = k.member_id WHERE k.key_hash = ?`,
          keyHash,
        );
        if (!r) return null;
        const account = toAccount({
          id: r.account_id,
          name: r.account_name,
          plan: r.account_plan,
          sla_target: r.account_sla_target,
          created_at: r.account_created_at,
        });
        const makerRole = r.member_id === null ? null : ((r.maker_role ?? "MEMBER") as Role);
        return { key: toRecord(r), keyHash: String(r.key_hash), account, makerRole };
      })());
    },
    async touch(uses) {
      if (uses.size === 0) return;
      await engine.write((function* () {
        for (const [id, at] of uses) {
          yield* run(
            "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
            at,
            id,
            at,
          );
        }
      })());
    },
  };
}
