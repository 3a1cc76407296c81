/**
 * OAuth clients, authorization codes, grants and tokens on SQLite. Secrets arrive hashed.
 * @module
 */
import type {
  Account,
  ClientAuthMethod,
  EpochMs,
  NewOAuthToken,
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthStore,
  OAuthTokenRecord,
  Plan,
  Scope,
} from "../../domain/mod.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

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

function insertToken(db: Db, t: NewOAuthToken): void {
  statement(
    db,
    `INSERT INTO oauth_tokens (token_hash, grant_id, kind, scopes, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(t.tokenHash, t.grantId, t.kind, JSON.stringify(t.scopes), t.createdAt, t.expiresAt);
}

function revokeGrant(db: Db, id: string, at: EpochMs): boolean {
  const changed = statement(
    db,
    "UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  ).run(at, id).changes > 0;
  statement(
    db,
    "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE grant_id = ? AND revoked_at IS NULL",
  ).run(at, id);
  return changed;
}

function accountById(db: Db, id: string): Account | null {
  const r = statement(db, "SELECT * FROM accounts WHERE id = ?").get(id) as Row | undefined;
  return r
    ? {
      id: String(r.id),
      name: String(r.name),
      plan: r.plan as Plan,
      slaTarget: Number(r.sla_target),
      createdAt: Number(r.created_at),
    }
    : null;
}

/** The OAuth noun over `db`. */
export function oauthStore(db: Db): OAuthStore {
  return promised<OAuthStore>({
    registerClient(c) {
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
    },
    client(id) {
      const r = statement(db, "SELECT * FROM oauth_clients WHERE id = ?").get(id) as
        | Row
        | undefined;
      return r ? toClient(r) : null;
    },
    issueCode(c, expiredBefore) {
      transaction(db, () => {
        db.prepare("DELETE FROM oauth_codes WHERE expires_at < ?").run(expiredBefore);
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
      });
    },
    code(codeHash) {
      const r = db.prepare("SELECT * FROM oauth_codes WHERE code_hash = ?").get(codeHash) as
        | Row
        | undefined;
      return r ? toCode(r) : null;
    },
    redeemCode(r) {
      return transaction(db, () => {
        const used = db.prepare(
          "UPDATE oauth_codes SET used_at = ?, grant_id = ? WHERE code_hash = ? AND used_at IS NULL",
        ).run(r.at, r.grant.id, r.codeHash).changes === 0;
        if (used) {
          const first = db.prepare("SELECT grant_id FROM oauth_codes WHERE code_hash = ?")
            .get(r.codeHash) as { grant_id: string | null } | undefined;
          if (first?.grant_id) revokeGrant(db, first.grant_id, r.at);
          return "reused" as const;
        }
        const g = r.grant;
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
        for (const t of r.tokens) insertToken(db, t);
        return "redeemed" as const;
      });
    },
    token(tokenHash) {
      return readTransaction(db, () => {
        const t = statement(db, "SELECT * FROM oauth_tokens WHERE token_hash = ?").get(tokenHash) as
          | Row
          | undefined;
        const g = t
          ? statement(db, "SELECT * FROM oauth_grants WHERE id = ?").get(String(t.grant_id)) as
            | Row
            | undefined
          : undefined;
        if (!t || !g) return null;
        const grant = toGrant(g);
        return { token: toToken(t), grant, account: accountById(db, grant.accountId) };
      });
    },
    rotateRefreshToken(r) {
      return transaction(db, () => {
        const rotated = db.prepare(
          `UPDATE oauth_tokens SET rotated_at = ?, replay = ?
           WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL`,
        ).run(r.at, r.replay, r.tokenHash).changes > 0;
        if (!rotated) return false;
        for (const t of r.tokens) insertToken(db, t);
        db.prepare("DELETE FROM oauth_tokens WHERE expires_at < ?").run(r.pruneBefore);
        db.prepare(
          "UPDATE oauth_tokens SET replay = NULL WHERE replay IS NOT NULL AND rotated_at < ?",
        ).run(r.replayBefore);
        return true;
      });
    },
    revokeGrant: (id, at) => transaction(db, () => revokeGrant(db, id, at)),
    revokeToken(tokenHash, at) {
      return db.prepare(
        "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE token_hash = ? AND revoked_at IS NULL",
      ).run(at, tokenHash).changes > 0;
    },
    touchGrant(id, at) {
      statement(
        db,
        "UPDATE oauth_grants SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
      ).run(at, id, at);
    },
    connectedClients(accountId) {
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
    },
    disconnectClient(accountId, clientId, at) {
      return transaction(db, () => {
        const ids = (db.prepare(
          "SELECT id FROM oauth_grants WHERE account_id = ? AND client_id = ? AND revoked_at IS NULL",
        ).all(accountId, clientId) as Row[]).map((r) => String(r.id));
        for (const id of ids) revokeGrant(db, id, at);
        return ids.length;
      });
    },
  });
}
