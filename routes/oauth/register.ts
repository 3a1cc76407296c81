/**
 * RFC 7591 dynamic client registration: open (no initial access token), `201`, the stored
 * metadata echoed back including `redirect_uris` (both SDK clients need it), a secret only
 * for the secret-based auth methods.
 * @module
 */
import type { Hono } from "hono";
import { OAuthError, registerClient } from "../../app/mod.ts";
import type { Env } from "../env.ts";
import { NO_STORE } from "./errors.ts";

/** Adds `POST /oauth/register` to `app`. */
export function registerRoutes(app: Hono<Env>): void {
  app.post("/oauth/register", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new OAuthError("invalid_client_metadata", "The body must be a JSON object");
    }
    return c.json(await registerClient(c.get("app"), body), 201, NO_STORE);
  });
}
