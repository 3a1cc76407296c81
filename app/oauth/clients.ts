/**
 * OAuth clients: open dynamic registration (RFC 7591) and client authentication at the token
 * and revocation endpoints.
 * @module
 */
import { z } from "zod";
import type { ClientAuthMethod, OAuthClientRecord } from "../../domain/mod.ts";
import type { AppContext } from "../context.ts";
import { hashToken, randomToken, sameText } from "../_tokens.ts";
import { OAuthError } from "./errors.ts";
import { redirectUriProblem } from "./redirect_uris.ts";

const CLIENT_PREFIX = "sdc_";
const SECRET_PREFIX = "sdcs_";

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
export async function registerClient(
  ctx: AppContext,
  body: unknown,
): Promise<ClientRegistration> {
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
  await ctx.store.oauth.registerClient({
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

/** What the consent page shows of a client. */
export function clientInfo(c: OAuthClientRecord): OAuthClientInfo {
  const uri = c.metadata.client_uri;
  return { id: c.id, name: c.name, clientUri: typeof uri === "string" ? uri : null };
}

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
export async function authenticateClient(
  ctx: AppContext,
  creds: ClientCredentials,
): Promise<OAuthClientRecord> {
  const id = creds.basic?.id ?? creds.clientId;
  if (!id) throw new OAuthError("invalid_client", "client_id is required");
  if (creds.basic && creds.clientId && creds.clientId !== creds.basic.id) {
    throw new OAuthError("invalid_client", "client_id differs from the Basic credentials");
  }
  const client = await ctx.store.oauth.client(id);
  if (!client) throw new OAuthError("invalid_client", "Unknown client; register again");
  if (client.secretHash !== null) {
    const secret = creds.basic?.secret ?? creds.clientSecret;
    if (!secret || !sameText(client.secretHash, hashToken(secret))) {
      throw new OAuthError("invalid_client", "Client authentication failed");
    }
  }
  return client;
}
