/**
 * The built-in OAuth 2.1 authorization server behind /api/mcp (PROTOCOLS §3): dynamic client
 * registration, authorization codes with PKCE S256, rotating refresh tokens with a grace
 * window, revocation, and verification of the access tokens it issued. Every secret is stored
 * only as its SHA-256.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { z } from "zod";
import {
  type Account,
  AppError,
  DAY_MS,
  HOUR_MS,
  isScope,
  MINUTE_MS,
  planAtLeast,
  type Principal,
  type Scope,
  SECOND_MS,
  Unauthorized,
} from "../domain/mod.ts";
import {
  type ClientAuthMethod,
  deleteExpiredOAuthCodes,
  insertOAuthClient,
  insertOAuthCode,
  insertOAuthGrant,
  insertOAuthToken,
  listConnectedOAuthClients,
  liveOAuthGrantIds,
  markOAuthCodeUsed,
  oauthClientById,
  type OAuthClientRecord,
  oauthCodeByHash,
  oauthGrantById,
  type OAuthGrantRecord,
  oauthTokenByHash,
  pruneOAuthTokens,
  revokeOAuthGrant,
  revokeOAuthToken,
  rotateOAuthToken,
  touchOAuthGrant,
  transaction,
} from "../store/mod.ts";
import { currentAccount } from "./accounts.ts";
import type { AppContext } from "./context.ts";
import { hashToken, randomToken, sameText } from "./_tokens.ts";

/** Access-token life. */
export const ACCESS_TOKEN_TTL_MS = HOUR_MS;
/** Refresh-token life (sliding: each refresh starts a new one). */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;
/** Absolute cap on a grant: no refresh token outlives it. */
export const GRANT_MAX_AGE_MS = 180 * DAY_MS;
/** Authorization-code life. */
export const CODE_TTL_MS = 5 * MINUTE_MS;
/** How long a just-rotated refresh token still returns the same new pair. */
export const REFRESH_GRACE_MS = 60 * SECOND_MS;

/** Scopes an OAuth client may ask for: the MCP gate plus the reads the tools need. */
export const OAUTH_SCOPES: readonly Scope[] = [
  "mcp:invoke",
  "status:read",
  "incidents:read",
  "sla:read",
];

/** Plan an account needs to connect MCP clients. */
export const MCP_PLAN = "PRO";

const ACCESS_PREFIX = "sd_oat_";
const REFRESH_PREFIX = "sd_ort_";
const CLIENT_PREFIX = "sdc_";
const SECRET_PREFIX = "sdcs_";

/** RFC 6749 / 7591 / 8707 error codes this server answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "server_error";

/** A failure the OAuth endpoints report with an RFC 6749 body (`error`, `error_description`). */
export class OAuthError extends AppError {
  constructor(override readonly code: OAuthErrorCode, readonly description: string) {
    super(code, description);
  }
}

/** The canonical name of the one protected resource: `{publicUrl}/api/mcp`. */
export function mcpResource(ctx: AppContext): string {
  return `${ctx.settings.publicUrl}/api/mcp`;
}

/** The issuer string: `publicUrl` verbatim (no trailing slash), the same everywhere. */
export function issuer(ctx: AppContext): string {
  return ctx.settings.publicUrl;
}

/** True when a presented credential looks like an access token issued here (not an API key). */
export function isOAuthAccessToken(credential: string): boolean {
  return credential.startsWith(ACCESS_PREFIX);
}

function normalisedUrl(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  if (u.hash || value.includes("#")) return null;
  // URL already lower-cases scheme and host and drops a default port.
  const path = u.pathname.endsWith("/") ? u.pathname.slice(0, -1) : u.pathname;
  return `${u.protocol}//${u.host}${path}${u.search}`;
}

/**
 * The RFC 8707 `resource` a client named, as the canonical MCP resource. Absent → the MCP
 * resource; the MCP URL or the bare origin, with or without one trailing slash → the MCP
 * resource; anything else → invalid_target.
 */
export function canonicalResource(ctx: AppContext, value: string | null | undefined): string {
  const canonical = mcpResource(ctx);
  if (value === null || value === undefined || value === "") return canonical;
  const n = normalisedUrl(value);
  if (n !== null && (n === normalisedUrl(canonical) || n === normalisedUrl(issuer(ctx)))) {
    return canonical;
  }
  throw new OAuthError("invalid_target", `This server only issues tokens for ${canonical}`);
}

/** Scopes asked for (space-separated) → the ones granted; unknown extras are dropped. */
export function grantableScopes(requested: string | null | undefined): Scope[] {
  if (requested === null || requested === undefined || requested.trim() === "") {
    return [...OAUTH_SCOPES];
  }
  const asked = requested.trim().split(/\s+/);
  const out = OAUTH_SCOPES.filter((s) => asked.includes(s));
  if (out.length === 0) {
    throw new OAuthError(
      "invalid_scope",
      `Ask for one or more of: ${OAUTH_SCOPES.join(" ")}`,
    );
  }
  return out;
}

// ---------------------------------------------------------------- redirect URIs (RFC 8252)

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:"]);

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (uri.includes("#")) return `"${uri}" must not have a fragment`;
  if (u.username || u.password) return `"${uri}" must not carry user information`;
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `"${uri}" uses a scheme that is not allowed`;
  if (u.protocol === "http:" && !LOOPBACK_HOSTS.has(u.hostname)) {
    return `"${uri}": plain http is allowed only for localhost, 127.0.0.1 and [::1]`;
  }
  return null;
}

/**
 * Exact match, except that an `http` loopback redirect matches on any port (RFC 8252 §7.3).
 * Scheme, host, path and query must still be identical.
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  let r: URL, p: URL;
  try {
    r = new URL(registered);
    p = new URL(presented);
  } catch {
    return false;
  }
  return r.protocol === "http:" && p.protocol === "http:" && LOOPBACK_HOSTS.has(r.hostname) &&
    r.hostname === p.hostname && r.pathname === p.pathname && r.search === p.search &&
    !presented.includes("#") && !p.username && !p.password;
}

// ---------------------------------------------------------------- registration (RFC 7591)

const optionalUrl = z.string().max(2048).optional();
const ClientMetadataSchema = z.object({
  redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
  client_name: z.string().max(200).optional(),
  token_endpoint_auth_method: z.enum(["none", "client_secret_post", "client_secret_basic"])
    .optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  scope: z.string().max(1000).optional(),
  client_uri: optionalUrl,
  logo_uri: optionalUrl,
  tos_uri: optionalUrl,
  policy_uri: optionalUrl,
  contacts: z.array(z.string().max(320)).max(10).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
});

/** The registration reply (RFC 7591 §3.2.1): the stored metadata plus the client's identity. */
export type ClientRegistration = Record<string, unknown> & {
  readonly client_id: string;
  readonly client_id_issued_at: number;
  readonly redirect_uris: readonly string[];
  readonly token_endpoint_auth_method: ClientAuthMethod;
  readonly client_secret?: string;
  readonly client_secret_expires_at?: number;
};

/** Registers a client (open registration); the secret, if any, is shown only in this reply. */
export function registerClient(ctx: AppContext, body: unknown): ClientRegistration {
  const parsed = ClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const redirectIssue = parsed.error.issues.find((i) => i.path[0] === "redirect_uris");
    throw new OAuthError(
      redirectIssue ? "invalid_redirect_uri" : "invalid_client_metadata",
      parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "),
    );
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }
  if (m.response_types && m.response_types.some((t) => t !== "code")) {
    throw new OAuthError("invalid_client_metadata", 'response_types may only hold "code"');
  }
  const grantTypes = m.grant_types ?? ["authorization_code", "refresh_token"];
  if (grantTypes.some((g) => g !== "authorization_code" && g !== "refresh_token")) {
    throw new OAuthError(
      "invalid_client_metadata",
      'grant_types may hold "authorization_code" and "refresh_token"',
    );
  }
  // RFC 7591's default method is client_secret_basic; public clients say "none".
  const authMethod: ClientAuthMethod = m.token_endpoint_auth_method ?? "client_secret_basic";
  const now = ctx.clock.now();
  const id = CLIENT_PREFIX + randomToken(24);
  const secret = authMethod === "none" ? null : SECRET_PREFIX + randomToken();
  const metadata: Record<string, unknown> = {
    ...m,
    grant_types: m.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: m.response_types ?? ["code"],
    token_endpoint_auth_method: authMethod,
  };
  insertOAuthClient(ctx.db, {
    id,
    secretHash: secret === null ? null : hashToken(secret),
    name: m.client_name?.trim() || "Unnamed client",
    redirectUris: m.redirect_uris,
    authMethod,
    metadata,
    createdAt: now,
  });
  ctx.log.info("oauth client registered", { clientId: id, authMethod });
  return {
    ...metadata,
    client_id: id,
    client_id_issued_at: Math.floor(now / 1000),
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: authMethod,
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
  };
}

/** A registered client as the consent page shows it. */
export interface OAuthClientInfo {
  readonly id: string;
  readonly name: string;
  readonly clientUri: string | null;
}

function clientInfo(c: OAuthClientRecord): OAuthClientInfo {
  const uri = c.metadata.client_uri;
  return { id: c.id, name: c.name, clientUri: typeof uri === "string" ? uri : null };
}

// ---------------------------------------------------------------- authorization endpoint

/** A checked authorization request, ready for the user's decision. */
export interface AuthorizationRequest {
  readonly client: OAuthClientInfo;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly Scope[];
  readonly resource: string;
  readonly state: string | null;
}

/** Outcome of checking an authorization request (PROTOCOLS §3.6 order of checks). */
export type AuthorizationCheck =
  /** Unknown client or redirect URI: show an error page, never redirect (open-redirect rule). */
  | { readonly kind: "page_error"; readonly message: string }
  /** Anything else wrong: send the error back to the client's redirect URI. */
  | {
    readonly kind: "redirect_error";
    readonly redirectUri: string;
    readonly error: OAuthErrorCode;
    readonly description: string;
    readonly state: string | null;
  }
  | { readonly kind: "ok"; readonly request: AuthorizationRequest };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Checks the query of GET /oauth/authorize (or the echoed fields of the consent form). */
export function checkAuthorizationRequest(
  ctx: AppContext,
  params: Readonly<Record<string, string | undefined>>,
): AuthorizationCheck {
  const clientId = params.client_id ?? "";
  const client = clientId ? oauthClientById(ctx.db, clientId) : null;
  if (!client) {
    return {
      kind: "page_error",
      message: "This application is not registered here (unknown client_id).",
    };
  }
  let redirectUri = params.redirect_uri;
  if (!redirectUri) {
    if (client.redirectUris.length !== 1) {
      return { kind: "page_error", message: "The request does not say where to return to." };
    }
    redirectUri = client.redirectUris[0]!;
  } else if (!client.redirectUris.some((r) => redirectUriMatches(r, redirectUri!))) {
    return {
      kind: "page_error",
      message: "The return address in this request is not registered for this application.",
    };
  }
  const state = params.state ?? null;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    kind: "redirect_error",
    redirectUri: redirectUri!,
    error,
    description,
    state,
  });
  if (params.response_type !== "code") {
    return fail("unsupported_response_type", 'response_type must be "code"');
  }
  if (!params.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (params.code_challenge_method !== "S256") {
    return fail("invalid_request", 'code_challenge_method must be "S256"');
  }
  if (!CHALLENGE.test(params.code_challenge)) {
    return fail("invalid_request", "code_challenge must be 43 base64url characters");
  }
  let scopes: Scope[], resource: string;
  try {
    scopes = grantableScopes(params.scope ?? (client.metadata.scope as string | undefined));
    resource = canonicalResource(ctx, params.resource);
  } catch (err) {
    if (err instanceof OAuthError) return fail(err.code, err.description);
    throw err;
  }
  return {
    kind: "ok",
    request: {
      client: clientInfo(client),
      redirectUri,
      codeChallenge: params.code_challenge,
      scopes,
      resource,
      state,
    },
  };
}

/**
 * Records the signed-in member's approval and returns the single-use code. The account must be
 * on the Pro plan or above, else `access_denied` (refusing here avoids a useless token).
 */
export function approveAuthorization(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
  req: AuthorizationRequest,
): string {
  const account = currentAccount(ctx, who.account.id) ?? who.account;
  if (!planAtLeast(account.plan, MCP_PLAN)) {
    throw new OAuthError("access_denied", `MCP access requires the ${MCP_PLAN} plan or above`);
  }
  const now = ctx.clock.now();
  const code = randomToken();
  deleteExpiredOAuthCodes(ctx.db, now - DAY_MS);
  insertOAuthCode(ctx.db, {
    codeHash: hashToken(code),
    clientId: req.client.id,
    accountId: account.id,
    memberId: who.member.id,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    scopes: req.scopes,
    resource: req.resource,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  ctx.log.info("oauth consent approved", { clientId: req.client.id, accountId: account.id });
  return code;
}

/** `redirect_uri` with the given response parameters and `iss` (RFC 9207) appended. */
export function redirectWith(
  ctx: AppContext,
  redirectUri: string,
  params: Record<string, string | null>,
): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  u.searchParams.set("iss", issuer(ctx));
  return u.toString();
}

// ---------------------------------------------------------------- token endpoint

/** How a client authenticated at the token or revocation endpoint. */
export interface ClientCredentials {
  /** `client_id` from the form body. */
  readonly clientId?: string;
  /** `client_secret` from the form body. */
  readonly clientSecret?: string;
  /** Decoded HTTP Basic credentials, when sent. */
  readonly basic?: { readonly id: string; readonly secret: string };
}

/** Checks client authentication (none, client_secret_post or client_secret_basic). */
export function authenticateClient(ctx: AppContext, creds: ClientCredentials): OAuthClientRecord {
  const id = creds.basic?.id ?? creds.clientId;
  if (!id) throw new OAuthError("invalid_client", "client_id is required");
  if (creds.basic && creds.clientId && creds.clientId !== creds.basic.id) {
    throw new OAuthError("invalid_client", "client_id differs from the Basic credentials");
  }
  const client = oauthClientById(ctx.db, id);
  if (!client) throw new OAuthError("invalid_client", "Unknown client; register again");
  if (client.secretHash !== null) {
    const secret = creds.basic?.secret ?? creds.clientSecret;
    if (!secret || !sameText(client.secretHash, hashToken(secret))) {
      throw new OAuthError("invalid_client", "Client authentication failed");
    }
  }
  return client;
}

/** A successful token reply (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: "Bearer";
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

function mintPair(
  ctx: AppContext,
  grant: OAuthGrantRecord,
  scopes: readonly Scope[],
  now: number,
): TokenResponse {
  const access = ACCESS_PREFIX + randomToken();
  const refresh = REFRESH_PREFIX + randomToken();
  insertOAuthToken(ctx.db, {
    tokenHash: hashToken(access),
    grantId: grant.id,
    kind: "access",
    scopes,
    createdAt: now,
    expiresAt: now + ACCESS_TOKEN_TTL_MS,
  });
  insertOAuthToken(ctx.db, {
    tokenHash: hashToken(refresh),
    grantId: grant.id,
    kind: "refresh",
    scopes: grant.scopes,
    createdAt: now,
    expiresAt: Math.min(now + REFRESH_TOKEN_TTL_MS, grant.createdAt + GRANT_MAX_AGE_MS),
  });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refresh,
    scope: scopes.join(" "),
  };
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
export function exchangeCode(
  ctx: AppContext,
  client: OAuthClientRecord,
  input: CodeExchange,
): TokenResponse {
  if (!input.code) throw new OAuthError("invalid_request", "code is required");
  if (!input.codeVerifier) throw new OAuthError("invalid_grant", "code_verifier is required");
  const now = ctx.clock.now();
  const codeHash = hashToken(input.code);
  const outcome = transaction(ctx.db, (): TokenResponse | "reused" => {
    const code = oauthCodeByHash(ctx.db, codeHash);
    if (!code || code.clientId !== client.id) {
      throw new OAuthError("invalid_grant", "Unknown authorization code");
    }
    if (code.usedAt !== null) {
      // Committed, not thrown: the revocation must survive the refusal.
      if (code.grantId) revokeOAuthGrant(ctx.db, code.grantId, now);
      return "reused";
    }
    if (code.expiresAt <= now) throw new OAuthError("invalid_grant", "The code has expired");
    if (!input.redirectUri || input.redirectUri !== code.redirectUri) {
      throw new OAuthError("invalid_grant", "redirect_uri differs from the authorization request");
    }
    if (
      !VERIFIER.test(input.codeVerifier!) || !pkceMatches(input.codeVerifier!, code.codeChallenge)
    ) {
      throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
    }
    if (input.resource !== undefined && canonicalResource(ctx, input.resource) !== code.resource) {
      throw new OAuthError("invalid_target", "resource differs from the authorization request");
    }
    const grant: OAuthGrantRecord = {
      id: crypto.randomUUID(),
      clientId: client.id,
      accountId: code.accountId,
      memberId: code.memberId,
      scopes: code.scopes,
      resource: code.resource,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    };
    insertOAuthGrant(ctx.db, grant);
    markOAuthCodeUsed(ctx.db, codeHash, now, grant.id);
    return mintPair(ctx, grant, grant.scopes, now);
  });
  if (outcome === "reused") {
    ctx.log.warn("oauth code reused; grant revoked", { clientId: client.id });
    throw new OAuthError("invalid_grant", "This authorization code was already used");
  }
  return outcome;
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
    const stored = oauthTokenByHash(ctx.db, tokenHash);
    const grant = stored ? oauthGrantById(ctx.db, stored.grantId) : null;
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
      revokeOAuthGrant(ctx.db, grant.id, now);
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
    // Mint and seal first (sealing is async), then commit only if nobody rotated this token
    // meanwhile; if someone did, the next attempt takes the replay path.
    const pair: TokenResponse = {
      access_token: ACCESS_PREFIX + randomToken(),
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_TTL_MS / 1000,
      refresh_token: REFRESH_PREFIX + randomToken(),
      scope: scopes.join(" "),
    };
    const sealed = await sealReplay(token, pair);
    const committed = transaction(ctx.db, () => {
      const t = ctx.clock.now();
      if (!rotateOAuthToken(ctx.db, tokenHash, t, sealed)) return false;
      insertOAuthToken(ctx.db, {
        tokenHash: hashToken(pair.access_token),
        grantId: grant.id,
        kind: "access",
        scopes,
        createdAt: t,
        expiresAt: t + ACCESS_TOKEN_TTL_MS,
      });
      insertOAuthToken(ctx.db, {
        tokenHash: hashToken(pair.refresh_token),
        grantId: grant.id,
        kind: "refresh",
        scopes: grant.scopes,
        createdAt: t,
        expiresAt: Math.min(t + REFRESH_TOKEN_TTL_MS, grant.createdAt + GRANT_MAX_AGE_MS),
      });
      pruneOAuthTokens(ctx.db, t - DAY_MS, t - REFRESH_GRACE_MS);
      return true;
    });
    if (committed) return pair;
  }
  throw new OAuthError("invalid_grant", "The refresh token is being used concurrently");
}

/**
 * Revokes an access or refresh token of this client (RFC 7009). Revoking a refresh token
 * revokes its whole grant. Unknown tokens are ignored (the endpoint always answers 200).
 */
export function revoke(ctx: AppContext, client: OAuthClientRecord, token: string): void {
  const stored = oauthTokenByHash(ctx.db, hashToken(token));
  const grant = stored ? oauthGrantById(ctx.db, stored.grantId) : null;
  if (!stored || !grant || grant.clientId !== client.id) return;
  const now = ctx.clock.now();
  if (stored.kind === "refresh") revokeOAuthGrant(ctx.db, grant.id, now);
  else revokeOAuthToken(ctx.db, stored.tokenHash, now);
}

// ---------------------------------------------------------------- resource server side

/**
 * The principal behind an access token issued here: live, unexpired, its grant not revoked,
 * its audience the MCP resource. Anything else → Unauthorized.
 */
export function verifyAccessToken(
  ctx: AppContext,
  token: string,
): Extract<Principal, { kind: "oauth" }> {
  const now = ctx.clock.now();
  const stored = oauthTokenByHash(ctx.db, hashToken(token));
  const grant = stored ? oauthGrantById(ctx.db, stored.grantId) : null;
  if (!stored || stored.kind !== "access" || !grant) throw new Unauthorized("Unknown access token");
  if (stored.revokedAt !== null || grant.revokedAt !== null) {
    throw new Unauthorized("The access token was revoked");
  }
  if (stored.expiresAt <= now) throw new Unauthorized("The access token expired");
  if (grant.resource !== mcpResource(ctx)) {
    throw new Unauthorized("The access token was issued for another resource");
  }
  const account: Account | null = currentAccount(ctx, grant.accountId);
  if (!account) throw new Unauthorized("The account behind this token no longer exists");
  touchOAuthGrant(ctx.db, grant.id, now);
  return {
    kind: "oauth",
    account,
    clientId: grant.clientId,
    scopes: stored.scopes,
    resource: grant.resource,
  };
}

// ---------------------------------------------------------------- settings page

/** One connected application as Settings > MCP lists it. */
export interface ConnectedClient {
  readonly clientId: string;
  readonly name: string;
  /** Hosts of its redirect URIs: the part of its identity that is not self-asserted. */
  readonly redirectHosts: readonly string[];
  readonly scopes: readonly Scope[];
  readonly connectedAt: number;
  readonly lastUsedAt: number | null;
}

/** The OAuth clients holding live grants on the caller's account, most recent first. */
export function listConnectedClients(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
): ConnectedClient[] {
  const byClient = new Map<string, ConnectedClient>();
  for (const row of listConnectedOAuthClients(ctx.db, who.account.id)) {
    const seen = byClient.get(row.clientId);
    const hosts = row.redirectUris.map((u) => {
      try {
        return new URL(u).host || u;
      } catch {
        return u;
      }
    });
    byClient.set(row.clientId, {
      clientId: row.clientId,
      name: row.clientName,
      redirectHosts: [...new Set(hosts)],
      scopes: [...new Set([...(seen?.scopes ?? []), ...row.scopes])],
      connectedAt: Math.min(seen?.connectedAt ?? row.createdAt, row.createdAt),
      lastUsedAt: Math.max(seen?.lastUsedAt ?? 0, row.lastUsedAt ?? 0) || null,
    });
  }
  return [...byClient.values()];
}

/** Disconnects a client from the caller's account: every grant and token it holds ends now. */
export function revokeClient(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
  clientId: string,
): number {
  const now = ctx.clock.now();
  const ids = liveOAuthGrantIds(ctx.db, who.account.id, clientId);
  transaction(ctx.db, () => {
    for (const id of ids) revokeOAuthGrant(ctx.db, id, now);
  });
  if (ids.length) {
    ctx.log.info("oauth client disconnected", { clientId, accountId: who.account.id });
  }
  return ids.length;
}
