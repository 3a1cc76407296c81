/**
 * OAuth clients, authorization codes, grants and tokens, once for both engines. Secrets
 * arrive hashed.
 * @module
 */
import type {
  ClientAuthMethod,
  EpochMs,
  NewOAuthToken,
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthStore,
  OAuthTokenRecord,
  Role,
  Scope,
} from "../../domain/mod.ts";
import { accountById } from "./accounts.ts";
import {
  all,
  type Engine,
  first,
  json,
  numOrNull,
  type Query,
  type Row,
  run,
  strOrNull,
} from "./query.ts";

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

function* insertTokens(tokens: readonly NewOAuthToken[]): Query<void> {
  for (const t of tokens) {
    yield* run(
      `INSERT INTO oauth_tokens (token_hash, grant_id, kind, scopes, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      t.tokenHash,
      t.grantId,
      t.kind,
      JSON.stringify(t.scopes),
      t.createdAt,
      t.expiresAt,
    );
  }
}

/** Revokes grant `id` and every token of it; false when it was already revoked. */
function* revokeGrant(id: string, at: EpochMs): Query<boolean> {
  const changed = yield* run(
    "UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
    at,
    id,
  );
  yield* run(
    "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE grant_id = ? AND revoked_at IS NULL",
    at,
    id,
  );
  return changed > 0;
}

/** The OAuth noun over `engine`. */
export function oauthStore(engine: Engine): OAuthStore {
  const order = engine.dialect.insertionOrder;
  return {
    registerClient(c) {
      return engine.once(run(
        `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, auth_method, metadata,
           created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        c.id,
        c.secretHash,
        c.name,
        JSON.stringify(c.redirectUris),
        c.authMethod,
        JSON.stringify(c.metadata),
        c.createdAt,
      )).then(() => {});
    },
    client(id) {
      return engine.once((function* () {
        const r = yield* first("SELECT * FROM oauth_clients WHERE id = ?", id);
        return r ? toClient(r) : null;
      })());
    },
    issueCode(c, expiredBefore) {
      return engine.write((function* () {
        yield* run("DELETE FROM oauth_codes WHERE expires_at < ?", expiredBefore);
        yield* run(
          `INSERT INTO oauth_codes (code_hash, client_id, account_id, member_id, redirect_uri,
             code_challenge, scopes, resource, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      })());
    },
    code(codeHash) {
      return engine.once((function* () {
        const r = yield* first("SELECT * FROM oauth_codes WHERE code_hash = ?", codeHash);
        return r ? toCode(r) : null;
      })());
    },
    redeemCode(r) {
      return engine.write((function* () {
        const claimed = yield* run(
          "UPDATE oauth_codes SET used_at = ?, grant_id = ? WHERE code_hash = ? AND used_at IS NULL",
          r.at,
          r.grant.id,
          r.codeHash,
        );
        if (claimed === 0) {
          // A code used twice: whatever the first use granted is revoked (RFC 6749 §4.1.2).
          const used = yield* first(
            "SELECT grant_id FROM oauth_codes WHERE code_hash = ?",
            r.codeHash,
          );
          if (used?.grant_id) yield* revokeGrant(String(used.grant_id), r.at);
          return "reused" as const;
        }
        const g = r.grant;
        yield* run(
          `INSERT INTO oauth_grants (id, client_id, account_id, member_id, scopes, resource,
             created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          g.id,
          g.clientId,
          g.accountId,
          g.memberId,
          JSON.stringify(g.scopes),
          g.resource,
          g.createdAt,
        );
        yield* insertTokens(r.tokens);
        return "redeemed" as const;
      })());
    },
    token(tokenHash) {
      return engine.read((function* () {
        const t = yield* first("SELECT * FROM oauth_tokens WHERE token_hash = ?", tokenHash);
        const g = t
          ? yield* first("SELECT * FROM oauth_grants WHERE id = ?", String(t.grant_id))
          : undefined;
        if (!t || !g) return null;
        const grant = toGrant(g);
        const member = grant.memberId === null
          ? null
          : yield* first("SELECT role FROM members WHERE id = ?", grant.memberId);
        return {
          token: toToken(t),
          grant,
          account: yield* accountById(grant.accountId),
          memberRole: grant.memberId === null ? null : ((member?.role ?? "MEMBER") as Role),
        };
      })());
    },
    rotateRefreshToken(r) {
      return engine.write((function* () {
        const rotated = yield* run(
          `UPDATE oauth_tokens SET rotated_at = ?, replay = ?
           WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL`,
          r.at,
          r.replay,
          r.tokenHash,
        );
        if (rotated === 0) return false;
        yield* insertTokens(r.tokens);
        yield* run("DELETE FROM oauth_tokens WHERE expires_at < ?", r.pruneBefore);
        yield* run(
          "UPDATE oauth_tokens SET replay = NULL WHERE replay IS NOT NULL AND rotated_at < ?",
          r.replayBefore,
        );
        return true;
      })());
    },
    revokeGrant: (id, at) => engine.write(revokeGrant(id, at)),
    revokeToken(tokenHash, at) {
      return engine.once(run(
        "UPDATE oauth_tokens SET revoked_at = ?, replay = NULL WHERE token_hash = ? AND revoked_at IS NULL",
        at,
        tokenHash,
      )).then((n) => n > 0);
    },
    touchGrant(id, at) {
      return engine.once(run(
        "UPDATE oauth_grants SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
        at,
        id,
        at,
      )).then(() => {});
    },
    connectedClients(accountId) {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT g.id AS grant_id, g.client_id, c.name, c.redirect_uris, g.scopes, g.created_at,
             g.last_used_at
           FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
           WHERE g.account_id = ? AND g.revoked_at IS NULL
           ORDER BY g.created_at DESC, g.${order} DESC`,
          accountId,
        );
        return rows.map((r) => ({
          grantId: String(r.grant_id),
          clientId: String(r.client_id),
          clientName: String(r.name),
          redirectUris: json<string[]>(r.redirect_uris),
          scopes: json<Scope[]>(r.scopes),
          createdAt: Number(r.created_at),
          lastUsedAt: numOrNull(r.last_used_at),
        }));
      })());
    },
    disconnectClient(accountId, clientId, at) {
      return engine.write((function* () {
        const rows = yield* all(
          "SELECT id FROM oauth_grants WHERE account_id = ? AND client_id = ? AND revoked_at IS NULL",
          accountId,
          clientId,
        );
        for (const r of rows) yield* revokeGrant(String(r.id), at);
        return rows.length;
      })());
    },
  };
}
