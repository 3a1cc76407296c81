/**
 * The built-in OAuth 2.1 authorization server behind /api/mcp (PROTOCOLS §3): dynamic client
 * registration, authorization codes with PKCE S256, rotating refresh tokens with a grace
 * window, revocation, and verification of the access tokens it issued. Every secret is stored
 * only as its SHA-256. One file per concern; this is the folder's public face.
 * @module
 */
export {
  approveAuthorization,
  type AuthorizationCheck,
  type AuthorizationRequest,
  checkAuthorizationRequest,
  redirectWith,
} from "./authorize.ts";
export {
  authenticateClient,
  type ClientCredentials,
  type ClientRegistration,
  type OAuthClientInfo,
  registerClient,
} from "./clients.ts";
export { type ConnectedClient, listConnectedClients, revokeClient } from "./connected.ts";
export { OAuthError, type OAuthErrorCode } from "./errors.ts";
export { redirectUriMatches, redirectUriProblem } from "./redirect_uris.ts";
export {
  ACCESS_TOKEN_TTL_MS,
  canonicalResource,
  CODE_TTL_MS,
  GRANT_MAX_AGE_MS,
  grantableScopes,
  isOAuthAccessToken,
  issuer,
  mcpResource,
  OAUTH_SCOPES,
  REFRESH_GRACE_MS,
  REFRESH_TOKEN_TTL_MS,
} from "./resource.ts";
export {
  type CodeExchange,
  exchangeCode,
  refresh,
  type RefreshRequest,
  revoke,
  type TokenResponse,
} from "./tokens.ts";
export { verifyAccessToken } from "./verify.ts";
