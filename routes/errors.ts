/**
 * The one mapping from typed errors to HTTP responses (DESIGN §9):
 * `{"error": code, "status": http, "message": text, ...own fields}`. A browser asking for HTML
 * outside `/api` gets the same status as an error page instead (404, 429, 500 …), and the
 * OAuth JSON endpoints their RFC 6749 body for an oversized request.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  AppError,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  Unauthorized,
} from "../domain/mod.ts";
import type { Logger } from "../log.ts";
import { errorBody, retryHeaders } from "./error_body.ts";
import type { Env } from "./env.ts";
import { NO_STORE } from "./oauth/errors.ts";
import { errorPageResponse, internalErrorPage } from "./web/error_page.tsx";

export { errorBody } from "./error_body.ts";

/** The error body every /api error has; registered as the OpenAPI error schema. */
export const ErrorSchema = z.object({
  error: z.string().openapi({ example: "not_found" }),
  status: z.number().int().openapi({ example: 404 }),
  message: z.string(),
  requiredScope: z.string().optional(),
  requiredPlan: z.string().optional(),
  issues: z.array(z.object({ parameter: z.string(), message: z.string() })).optional(),
  suggestions: z.array(z.string()).optional(),
  requestId: z.string().optional(),
}).openapi("Error");

/** The `WWW-Authenticate` value sent with a 401 outside /api/mcp. */
export const API_CHALLENGE = 'Bearer realm="statusd", error="invalid_token"';

/** The OAuth endpoints that answer JSON in RFC 6749 / RFC 7591 style. */
export const OAUTH_JSON_PATHS: ReadonlySet<string> = new Set([
  "/oauth/token",
  "/oauth/revoke",
  "/oauth/register",
]);

/**
 * True when the caller is a browser on a page: not under `/api/`, not an OAuth JSON endpoint,
 * and `text/html` is in its `Accept`. API clients always get JSON.
 */
export function wantsHtml(c: Context): boolean {
  const path = new URL(c.req.url).pathname;
  if (path === "/api" || path.startsWith("/api/") || OAUTH_JSON_PATHS.has(path)) return false;
  return /\btext\/html\b/i.test(c.req.header("accept") ?? "");
}

/**
 * True when the caller asked for JSON and not for HTML (`Accept: application/json`): a page
 * URL then answers its errors as JSON; without that, pages answer them as HTML pages.
 */
export function wantsJson(c: Context): boolean {
  const accept = c.req.header("accept") ?? "";
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
}

/** Names Deno gives errors of a connection or body that ended early. */
const ABORTED_NAMES: ReadonlySet<string> = new Set([
  "AbortError",
  "Interrupted",
  "BadResource",
  "ConnectionReset",
  "ConnectionAborted",
  "BrokenPipe",
  "UnexpectedEof",
]);

/** True when `err` comes from a request whose connection or body ended before it was read. */
export function isAbortedRequest(err: Error, c: Context): boolean {
  if (c.req.raw.signal?.aborted) return true;
  if (ABORTED_NAMES.has(err.name)) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && ABORTED_NAMES.has(cause.name);
}

/** Hono `onError` handler: typed errors → their JSON, anything else → 500 with a request id. */
export function handleError(log: Logger) {
  return function onError(err: Error, c: Context<Env>): Response | Promise<Response> {
    if (err instanceof AppError) {
      if (wantsHtml(c)) return errorPageResponse(c, err);
      if (err instanceof PayloadTooLarge && OAUTH_JSON_PATHS.has(new URL(c.req.url).pathname)) {
        // The size check runs before the OAuth router's CORS middleware: browser clients
        // must still be able to read this answer, as every other one from these endpoints.
        return c.json(
          { error: "invalid_request", error_description: err.message },
          413,
          { ...NO_STORE, "Access-Control-Allow-Origin": "*" },
        );
      }
      const { status, body } = errorBody(err);
      const headers: Record<string, string> = retryHeaders(err);
      if (err instanceof Unauthorized) {
        headers["WWW-Authenticate"] = c.res.headers.get("WWW-Authenticate") ?? API_CHALLENGE;
      }
      return c.json(body, status as 400, headers);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 404 ? "not_found" : "invalid_request";
      const message = err.message || code;
      if (wantsHtml(c)) {
        const typed = err.status === 404
          ? new NotFound("page", new URL(c.req.url).pathname)
          : new InvalidRequest([], message);
        return errorPageResponse(c, typed);
      }
      return c.json({ error: code, status: err.status, message }, err.status);
    }
    if (isAbortedRequest(err, c)) {
      // The client went away (or the server is stopping) while its body was being read:
      // nothing went wrong here, and nobody is left to read an answer.
      log.warn("request aborted before its body was read", {
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        err: String(err).slice(0, 200),
      });
      return c.json(
        { error: "invalid_request", status: 400, message: "The request was aborted" },
        400,
      );
    }
    const requestId = crypto.randomUUID();
    log.error("unhandled error", { requestId, err: String(err), stack: err.stack });
    if (wantsHtml(c)) return internalErrorPage(c, requestId);
    return c.json(
      { error: "internal", status: 500, message: "Internal error", requestId },
      500,
    );
  };
}
