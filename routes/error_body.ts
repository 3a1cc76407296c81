/**
 * The status and JSON body of each typed error (DESIGN §9), shared by the JSON mapping
 * (`errors.ts`) and the HTML error pages (`web/error_page.tsx`).
 * @module
 */
import {
  AppError,
  Busy,
  InsufficientScope,
  InvalidRequest,
  NotFound,
  PageUnreadable,
  PlanRequired,
  RateLimited,
} from "../domain/mod.ts";

const STATUS_OF: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  page_unreadable: 422,
  payload_too_large: 413,
  rate_limited: 429,
  busy: 503,
};

/** Body and status for an AppError. */
export function errorBody(err: AppError): { status: number; body: Record<string, unknown> } {
  const status = STATUS_OF[err.code] ?? 500;
  const body: Record<string, unknown> = { error: err.code, status, message: err.message };
  if (err instanceof InsufficientScope) body.requiredScope = err.requiredScope;
  if (err instanceof PlanRequired) body.requiredPlan = err.requiredPlan;
  if (err instanceof InvalidRequest) body.issues = err.issues;
  if (err instanceof NotFound && err.suggestions.length) body.suggestions = err.suggestions;
  if (err instanceof PageUnreadable) body.reason = err.reason;
  return { status, body };
}

/** `Retry-After` for errors that say when to come back (429 `rate_limited`, 503 `busy`). */
export function retryHeaders(err: AppError): Record<string, string> {
  return err instanceof RateLimited || err instanceof Busy
    ? { "Retry-After": String(err.retryAfterSeconds) }
    : {};
}
