/**
 * The token and revocation endpoints: redeeming a code (single use, PKCE), rotating refresh
 * tokens with a grace window (RFC 9700 §4.14), and revoking (RFC 7009).
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import {
  DAY_MS,
  isScope,
  type NewOAuthToken,
  type OAuthClientRecord,
  type OAuthGrantRecord,
  type Scope,
} from "../../domain/mod.ts";
import type { AppContext } from "../context.ts";
import { hashToken, randomToken, sameText } from "../_tokens.ts";
import { OAuthError } from "./errors.ts";
import {
  ACCESS_PREFIX,
  ACCESS_TOKEN_TTL_MS,
  canonicalResource,
  GRANT_MAX_AGE_MS,
  REFRESH_GRACE_MS,
  REFRESH_PREFIX,
  REFRESH_TOKEN_TTL_MS,
} from "./resource.ts";

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** A successful token reply (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: "Bearer";
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

/** A new access and refresh token pair under `grant`, and the records to store for it. */
function mintPair(
  grant: Pick<OAuthGrantRecord, "id" | "scopes" | "createdAt">,
  scopes: readonly Scope[],
  now: number,
): { reply: TokenResponse; tokens: NewOAuthToken[] } {
  const access = ACCESS_PREFIX + randomToken();
  const refresh = REFRESH_PREFIX + randomToken();
  return {
    reply: {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_TTL_MS / 1000,
      refresh_token: refresh,
      scope: scopes.join(" "),
    },
    tokens: tokenRecords(grant, { access, refresh }, scopes, now),
  };
}

/** The stored records of a pair: the access token with `scopes`, the refresh token with the grant's. */
function tokenRecords(
  grant: Pick<OAuthGrantRecord, "id" | "scopes" | "createdAt">,
  pair: { access: string; refresh: string },
  scopes: readonly Scope[],
  now: number,
): NewOAuthToken[] {
  return [
    {
      tokenHash: hashToken(pair.access),
      grantId: grant.id,
      kind: "access",
      scopes,
      createdAt: now,
      expiresAt: now + ACCESS_TOKEN_TTL_MS,
    },
    {
      tokenHash: hashToken(pair.refresh),
      grantId: grant.id,
      kind: "refresh",
      scopes: grant.scopes,
      createdAt: now,
      expiresAt: Math.min(now + REFRESH_TOKEN_TTL_MS, grant.createdAt + GRANT_MAX_AGE_MS),
    },
  ];
}

function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  return sameText(computed, challenge);
}

/** The fields of an `authorization_code` grant. */
export interface CodeExchange {
  readonly code?: string;
  readonly redirectUri?: string;
  readonly codeVerifier?: string;
  readonly resource?: string;
}

/**
 * Redeems an authorization code (single use, short life, PKCE, same redirect URI, same client)
 * for an access and refresh token. A second redemption fails and revokes what the first issued.
 */
export async function exchangeCode(
  ctx: AppContext,
  client: OAuthClientRecord,
  input: CodeExchange,
): Promise<TokenResponse> {
  if (!input.code) throw new OAuthError("invalid_request", "code is required");
  if (!input.codeVerifier) throw new OAuthError("invalid_grant", "code_verifier is required");
  const now = ctx.clock.now();
  const codeHash = hashToken(input.code);
  const code = await ctx.store.oauth.code(codeHash);
  if (!code || code.clientId !== client.id) {
    throw new OAuthError("invalid_grant", "Unknown authorization code");
  }
  const reused = () => {
    ctx.log.warn("oauth code reused; grant revoked", { clientId: client.id });
    return new OAuthError("invalid_grant", "This authorization code was already used");
  };
  if (code.usedAt !== null) {
    if (code.grantId) await ctx.store.oauth.revokeGrant(code.grantId, now);
    throw reused();
  }
  if (code.expiresAt <= now) throw new OAuthError("invalid_grant", "The code has expired");
  if (!input.redirectUri || input.redirectUri !== code.redirectUri) {
    throw new OAuthError("invalid_grant", "redirect_uri differs from the authorization request");
  }
  if (!VERIFIER.test(input.codeVerifier) || !pkceMatches(input.codeVerifier, code.codeChallenge)) {
    throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
  }
  if (input.resource !== undefined && canonicalResource(ctx, input.resource) !== code.resource) {
    throw new OAuthError("invalid_target", "resource differs from the authorization request");
  }
  const grant = {
    id: crypto.randomUUID(),
    clientId: client.id,
    accountId: code.accountId,
    memberId: code.memberId,
    scopes: code.scopes,
    resource: code.resource,
    createdAt: now,
  };
  const { reply, tokens } = mintPair(grant, grant.scopes, now);
  // Single use is decided by the store, atomically: a concurrent redemption that won makes
  // this one a replay, and the grant it issued is revoked.
  const outcome = await ctx.store.oauth.redeemCode({ codeHash, at: now, grant, tokens });
  if (outcome === "reused") throw reused();
  return reply;
}

async function replayKey(refreshToken: string): Promise<CryptoKey> {
  // Derived from the old token itself, which is never stored: the database alone cannot
  // decrypt a replay.
  const material = sha256(new TextEncoder().encode(`statusd oauth replay\0${refreshToken}`));
  return await crypto.subtle.importKey("raw", new Uint8Array(material), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
}

async function sealReplay(refreshToken: string, pair: TokenResponse): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await replayKey(refreshToken),
    new TextEncoder().encode(JSON.stringify(pair)),
  );
  return encodeBase64urlNoPadding(iv) + "." + encodeBase64urlNoPadding(new Uint8Array(sealed));
}

async function openReplay(refreshToken: string, replay: string): Promise<TokenResponse | null> {
  try {
    const [iv, data] = replay.split(".");
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: new Uint8Array(decodeBase64urlIgnorePadding(iv!)) },
      await replayKey(refreshToken),
      new Uint8Array(decodeBase64urlIgnorePadding(data!)),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as TokenResponse;
  } catch {
    return null;
  }
}

/** The fields of a `refresh_token` grant. */
export interface RefreshRequest {
  readonly refreshToken?: string;
  /** May only narrow the granted scopes. */
  readonly scope?: string;
  readonly resource?: string;
}

/**
 * Rotates a refresh token: a new pair, the old token retired. Presenting the old token again
 * within {@link REFRESH_GRACE_MS} returns the same new pair (concurrent or retried refreshes);
 * later, it counts as theft: the whole grant is revoked (RFC 9700 §4.14).
 */
export async function refresh(
  ctx: AppContext,
  client: OAuthClientRecord,
  input: RefreshRequest,
): Promise<TokenResponse> {
  const token = input.refreshToken ?? "";
  if (!token) throw new OAuthError("invalid_request", "refresh_token is required");
  const tokenHash = hashToken(token);
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = ctx.clock.now();
    const found = await ctx.store.oauth.token(tokenHash);
    const stored = found?.token;
    const grant = found?.grant;
    if (!stored || stored.kind !== "refresh" || !grant || grant.clientId !== client.id) {
      throw new OAuthError("invalid_grant", "Unknown refresh token");
    }
    if (stored.revokedAt !== null || grant.revokedAt !== null) {
      throw new OAuthError("invalid_grant", "This refresh token was revoked");
    }
    if (stored.rotatedAt !== null) {
      if (now - stored.rotatedAt <= REFRESH_GRACE_MS && stored.replay) {
        const pair = await openReplay(token, stored.replay);
        if (pair) return pair;
      }
      await ctx.store.oauth.revokeGrant(grant.id, now);
      ctx.log.warn("oauth refresh token replayed; grant revoked", { clientId: client.id });
      throw new OAuthError("invalid_grant", "This refresh token was already used");
    }
    if (stored.expiresAt <= now) throw new OAuthError("invalid_grant", "The refresh token expired");
    if (
      input.resource !== undefined && input.resource !== "" &&
      canonicalResource(ctx, input.resource) !== grant.resource
    ) {
      throw new OAuthError("invalid_target", "resource differs from the original grant");
    }
    let scopes: readonly Scope[] = grant.scopes;
    if (input.scope && input.scope.trim() !== "") {
      const asked = input.scope.trim().split(/\s+/);
      if (asked.some((s) => !isScope(s) || !grant.scopes.includes(s))) {
        throw new OAuthError("invalid_scope", "A refresh may only narrow the granted scopes");
      }
      scopes = asked as Scope[];
    }
    // Mint and seal first, then let the store rotate only if nobody rotated this token
    // meanwhile; if someone did, the next attempt takes the replay path.
    const t = ctx.clock.now();
    const { reply: pair, tokens } = mintPair(grant, scopes, t);
    const rotated = await ctx.store.oauth.rotateRefreshToken({
      tokenHash,
      at: t,
      replay: await sealReplay(token, pair),
      tokens,
      pruneBefore: t - DAY_MS,
      replayBefore: t - REFRESH_GRACE_MS,
    });
    if (rotated) return pair;
  }
  throw new OAuthError("invalid_grant", "The refresh token is being used concurrently");
}

/**
 * Revokes an access or refresh token of this client (RFC 7009). Revoking a refresh token
 * revokes its whole grant. Unknown tokens are ignored (the endpoint always answers 200).
 */
export async function revoke(
  ctx: AppContext,
  client: OAuthClientRecord,
  token: string,
): Promise<void> {
  const found = await ctx.store.oauth.token(hashToken(token));
  if (!found || found.grant.clientId !== client.id) return;
  const now = ctx.clock.now();
  if (found.token.kind === "refresh") await ctx.store.oauth.revokeGrant(found.grant.id, now);
  else await ctx.store.oauth.revokeToken(found.token.tokenHash, now);
}
