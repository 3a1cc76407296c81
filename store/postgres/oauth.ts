/**
 * OAuth clients, authorization codes, grants and tokens on PostgreSQL. Secrets arrive hashed.
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
  Scope,
} from "../../domain/mod.ts";
import { accountById } from "./accounts.ts";
import { read, type Row, type Sql, write } from "./db.ts";

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

async function insertTokens(sql: Sql, tokens: readonly NewOAuthToken[]): Promise<void> {
  for (const t of tokens) {
    await sql`INSERT INTO oauth_tokens (token_hash, grant_id, kind, scopes, created_at,
        expires_at)
      VALUES (${t.tokenHash}, ${t.grantId}, ${t.kind}, ${JSON.stringify(t.scopes)},
        ${t.createdAt}, ${t.expiresAt})`;
  }
}

async function revokeGrant(sql: Sql, id: string, at: EpochMs): Promise<boolean> {
  const changed = await sql`UPDATE oauth_grants SET revoked_at = ${at}
    WHERE id = ${id} AND revoked_at IS NULL`;
  await sql`UPDATE oauth_tokens SET revoked_at = ${at}, replay = NULL
    WHERE grant_id = ${id} AND revoked_at IS NULL`;
  return changed.count > 0;
}

/** The OAuth noun over the pool `sql`. */
export function oauthStore(sql: Sql): OAuthStore {
  return {
    async registerClient(c) {
      await sql`INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, auth_method,
          metadata, created_at)
        VALUES (${c.id}, ${c.secretHash}, ${c.name}, ${JSON.stringify(c.redirectUris)},
          ${c.authMethod}, ${JSON.stringify(c.metadata)}, ${c.createdAt})`;
    },
    async client(id) {
      const [r] = await sql`SELECT * FROM oauth_clients WHERE id = ${id}`;
      return r ? toClient(r) : null;
    },
    async issueCode(c, expiredBefore) {
      await write(sql, async (tx) => {
        await tx`DELETE FROM oauth_codes WHERE expires_at < ${expiredBefore}`;
        await tx`INSERT INTO oauth_codes (code_hash, client_id, account_id, member_id,
            redirect_uri, code_challenge, scopes, resource, created_at, expires_at)
          VALUES (${c.codeHash}, ${c.clientId}, ${c.accountId}, ${c.memberId}, ${c.redirectUri},
            ${c.codeChallenge}, ${JSON.stringify(c.scopes)}, ${c.resource}, ${c.createdAt},
            ${c.expiresAt})`;
      });
    },
    async code(codeHash) {
      const [r] = await sql`SELECT * FROM oauth_codes WHERE code_hash = ${codeHash}`;
      return r ? toCode(r) : null;
    },
    redeemCode(r) {
      return write(sql, async (tx) => {
        const claimed = await tx`UPDATE oauth_codes SET used_at = ${r.at}, grant_id = ${r.grant.id}
          WHERE code_hash = ${r.codeHash} AND used_at IS NULL`;
        if (claimed.count === 0) {
          const [first] = await tx`SELECT grant_id FROM oauth_codes
            WHERE code_hash = ${r.codeHash}`;
          if (first?.grant_id) await revokeGrant(tx, String(first.grant_id), r.at);
          return "reused" as const;
        }
        const g = r.grant;
        await tx`INSERT INTO oauth_grants (id, client_id, account_id, member_id, scopes,
            resource, created_at)
          VALUES (${g.id}, ${g.clientId}, ${g.accountId}, ${g.memberId},
            ${JSON.stringify(g.scopes)}, ${g.resource}, ${g.createdAt})`;
        await insertTokens(tx, r.tokens);
        return "redeemed" as const;
      });
    },
    token(tokenHash) {
      return read(sql, async (tx) => {
        const [t] = await tx`SELECT * FROM oauth_tokens WHERE token_hash = ${tokenHash}`;
        const [g] = t ? await tx`SELECT * FROM oauth_grants WHERE id = ${String(t.grant_id)}` : [];
        if (!t || !g) return null;
        const grant = toGrant(g);
        return { token: toToken(t), grant, account: await accountById(tx, grant.accountId) };
      });
    },
    rotateRefreshToken(r) {
      return write(sql, async (tx) => {
        const rotated = await tx`UPDATE oauth_tokens SET rotated_at = ${r.at}, replay = ${r.replay}
          WHERE token_hash = ${r.tokenHash} AND rotated_at IS NULL AND revoked_at IS NULL`;
        if (rotated.count === 0) return false;
        await insertTokens(tx, r.tokens);
        await tx`DELETE FROM oauth_tokens WHERE expires_at < ${r.pruneBefore}`;
        await tx`UPDATE oauth_tokens SET replay = NULL
          WHERE replay IS NOT NULL AND rotated_at < ${r.replayBefore}`;
        return true;
      });
    },
    revokeGrant: (id, at) => write(sql, (tx) => revokeGrant(tx, id, at)),
    async revokeToken(tokenHash, at) {
      const r = await sql`UPDATE oauth_tokens SET revoked_at = ${at}, replay = NULL
        WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`;
      return r.count > 0;
    },
    async touchGrant(id, at) {
      await sql`UPDATE oauth_grants SET last_used_at = ${at}
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`;
    },
    async connectedClients(accountId) {
      const rows = await sql`SELECT g.id AS grant_id, g.client_id, c.name, c.redirect_uris,
          g.scopes, g.created_at, g.last_used_at
        FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
        WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
        ORDER BY g.created_at DESC, g.seq DESC`;
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
      return write(sql, async (tx) => {
        const ids = (await tx`SELECT id FROM oauth_grants WHERE account_id = ${accountId}
          AND client_id = ${clientId} AND revoked_at IS NULL`).map((r) => String(r.id));
        for (const id of ids) await revokeGrant(tx, id, at);
        return ids.length;
      });
    },
  };
}
