/**
 * The token and revocation endpoints (RFC 6749 §3.2, RFC 7009): form-encoded bodies, client
 * authentication by `none`, `client_secret_post` or `client_secret_basic`, JSON replies with
 * `Cache-Control: no-store`.
 * @module
 */
import type { Context, Hono } from "hono";
import {
  authenticateClient,
  type ClientCredentials,
  exchangeCode,
  OAuthError,
  refresh,
  revoke,
} from "../../app/mod.ts";
import type { Env } from "../env.ts";
import { NO_STORE } from "./errors.ts";

/** The form fields of a POST (last value wins for repeats; files ignored). */
async function formOf(c: Context<Env>): Promise<Record<string, string>> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError(
      "invalid_request",
      "Send the parameters as application/x-www-form-urlencoded",
    );
  }
  const params = new URLSearchParams(await c.req.text());
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

/** Client credentials from the Basic header and the form. */
function credentialsOf(c: Context<Env>, form: Record<string, string>): ClientCredentials {
  const auth = c.req.header("authorization") ?? "";
  let basic: ClientCredentials["basic"];
  const m = /^Basic[ \t]+([^ \t].*)$/i.exec(auth.trim());
  if (m) {
    let decoded: string;
    try {
      decoded = atob(m[1]!);
    } catch {
      throw new OAuthError("invalid_client", "Malformed Basic credentials");
    }
    const i = decoded.indexOf(":");
    if (i < 0) throw new OAuthError("invalid_client", "Malformed Basic credentials");
    try {
      basic = {
        id: decodeURIComponent(decoded.slice(0, i).replaceAll("+", " ")),
        secret: decodeURIComponent(decoded.slice(i + 1).replaceAll("+", " ")),
      };
    } catch {
      throw new OAuthError("invalid_client", "Malformed Basic credentials");
    }
  }
  return { clientId: form.client_id, clientSecret: form.client_secret, basic };
}

/** Adds `POST /oauth/token` and `POST /oauth/revoke` to `app`. */
export function tokenRoutes(app: Hono<Env>): void {
  app.post("/oauth/token", async (c) => {
    const ctx = c.get("app");
    const form = await formOf(c);
    const grantType = form.grant_type;
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      throw new OAuthError(
        grantType ? "unsupported_grant_type" : "invalid_request",
        grantType ? `grant_type "${grantType}" is not supported` : "grant_type is required",
      );
    }
    const client = await authenticateClient(ctx, credentialsOf(c, form));
    const tokens = grantType === "authorization_code"
      ? await exchangeCode(ctx, client, {
        code: form.code,
        redirectUri: form.redirect_uri,
        codeVerifier: form.code_verifier,
        resource: form.resource,
      })
      : await refresh(ctx, client, {
        refreshToken: form.refresh_token,
        scope: form.scope,
        resource: form.resource,
      });
    return c.json(tokens, 200, NO_STORE);
  });

  app.post("/oauth/revoke", async (c) => {
    const ctx = c.get("app");
    const form = await formOf(c);
    const client = await authenticateClient(ctx, credentialsOf(c, form));
    if (!form.token) throw new OAuthError("invalid_request", "token is required");
    await revoke(ctx, client, form.token);
    return c.body(null, 200, NO_STORE);
  });
}
