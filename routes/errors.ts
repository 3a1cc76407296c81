/**
 * The one mapping from typed errors to HTTP responses (DESIGN §9):
 * `{"error": code, "status": http, "message": text, ...own fields}`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  AppError,
  InsufficientScope,
  InvalidRequest,
  NotFound,
  PlanRequired,
  RateLimited,
  Unauthorized,
} from "../domain/mod.ts";
import type { Logger } from "../log.ts";

const STATUS_OF: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  rate_limited: 429,
};

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

/** Body and status for an AppError. */
export function errorBody(err: AppError): { status: number; body: Record<string, unknown> } {
  const status = STATUS_OF[err.code] ?? 500;
  const body: Record<string, unknown> = { error: err.code, status, message: err.message };
  if (err instanceof InsufficientScope) body.requiredScope = err.requiredScope;
  if (err instanceof PlanRequired) body.requiredPlan = err.requiredPlan;
  if (err instanceof InvalidRequest) body.issues = err.issues;
  if (err instanceof NotFound && err.suggestions.length) body.suggestions = err.suggestions;
  return { status, body };
}

/** The `WWW-Authenticate` value sent with a 401 outside /api/mcp. */
export const API_CHALLENGE = 'Bearer realm="statusd", error="invalid_token"';

/** Hono `onError` handler: typed errors → their JSON, anything else → 500 with a request id. */
export function handleError(log: Logger) {
  return function onError(err: Error, c: Context): Response {
    if (err instanceof AppError) {
      const { status, body } = errorBody(err);
      const headers: Record<string, string> = {};
      if (err instanceof Unauthorized) {
        headers["WWW-Authenticate"] = c.res.headers.get("WWW-Authenticate") ?? API_CHALLENGE;
      }
      if (err instanceof RateLimited) headers["Retry-After"] = String(err.retryAfterSeconds);
      return c.json(body, status as 400, headers);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 404 ? "not_found" : "invalid_request";
      return c.json({ error: code, status: err.status, message: err.message || code }, err.status);
    }
    const requestId = crypto.randomUUID();
    log.error("unhandled error", { requestId, err: String(err), stack: err.stack });
    return c.json(
      { error: "internal", status: 500, message: "Internal error", requestId },
      500,
    );
  };
}
