/**
 * The authorization endpoint: checking a request (PROTOCOLS §3.6 order) and recording a
 * signed-in member's approval as a single-use code.
 * @module
 */
import { DAY_MS, planAtLeast, type Principal, type Scope } from "../../domain/mod.ts";
import { currentAccount } from "../accounts.ts";
import type { AppContext } from "../context.ts";
import { MCP_PLAN, scopesFor } from "../policy.ts";
import { hashToken, randomToken } from "../_tokens.ts";
import { clientInfo, type OAuthClientInfo } from "./clients.ts";
import { OAuthError, type OAuthErrorCode } from "./errors.ts";
import { redirectUriMatches } from "./redirect_uris.ts";
import { canonicalResource, CODE_TTL_MS, grantableScopes, issuer } from "./resource.ts";

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

/** Checks the query of GET /oauth/authorize (or the echoed fields of the consent form). */
export async function checkAuthorizationRequest(
  ctx: AppContext,
  params: Readonly<Record<string, string | undefined>>,
): Promise<AuthorizationCheck> {
  const clientId = params.client_id ?? "";
  const client = clientId ? await ctx.store.oauth.client(clientId) : null;
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
export async function approveAuthorization(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
  req: AuthorizationRequest,
): Promise<string> {
  const account = await currentAccount(ctx, who.account.id) ?? who.account;
  if (!planAtLeast(account.plan, MCP_PLAN)) {
    throw new OAuthError("access_denied", `MCP access requires the ${MCP_PLAN} plan or above`);
  }
  // A member grants only what their role may hold (one table: ROLE_SCOPES).
  const scopes = scopesFor(who.member.role, req.scopes);
  if (scopes.length === 0) {
    throw new OAuthError(
      "access_denied",
      `As ${who.member.role}, you cannot grant any of the scopes asked for`,
    );
  }
  const now = ctx.clock.now();
  const code = randomToken();
  await ctx.store.oauth.issueCode({
    codeHash: hashToken(code),
    clientId: req.client.id,
    accountId: account.id,
    memberId: who.member.id,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    scopes,
    resource: req.resource,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  }, now - DAY_MS);
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
