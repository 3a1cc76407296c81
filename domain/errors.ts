/**
 * Typed errors every surface maps in one place (REST JSON, MCP tool error, CLI exit code).
 * None of them knows HTTP.
 * @module
 */

/** Base class: a stable machine `code` plus a human message. */
export class AppError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** One problem with one input. */
export interface Issue {
  readonly parameter: string;
  readonly message: string;
}

/** Bad input: names each parameter and what is wrong with it. */
export class InvalidRequest extends AppError {
  constructor(readonly issues: readonly Issue[], message?: string) {
    super(
      "invalid_request",
      message ?? `Invalid request: ${issues.map((i) => `${i.parameter}: ${i.message}`).join("; ")}`,
    );
  }
}

/** No valid credential (unknown, malformed or revoked key or token). */
export class Unauthorized extends AppError {
  constructor(message = "A valid API key or access token is required") {
    super("unauthorized", message);
  }
}

/** The credential lacks the scope the operation requires. */
export class InsufficientScope extends AppError {
  constructor(readonly requiredScope: string) {
    super("insufficient_scope", `This operation requires the "${requiredScope}" scope`);
  }
}

/** The account's plan is below what the operation requires. */
export class PlanRequired extends AppError {
  constructor(readonly requiredPlan: string, what = "This feature") {
    super("plan_required", `${what} requires the ${requiredPlan} plan or above`);
  }
}

/** Authenticated but not allowed (role, ownership). */
export class Forbidden extends AppError {
  constructor(message = "You are not allowed to do this") {
    super("forbidden", message);
  }
}

/** A write that clashes with what exists: a request with the same `Idempotency-Key` still being
 * processed, or a monitor the account already has. */
export class Conflict extends AppError {
  constructor(message: string) {
    super("conflict", message);
  }
}

/** An `Idempotency-Key` reused with a different request. */
export class IdempotencyKeyReused extends AppError {
  constructor() {
    super(
      "idempotency_key_reused",
      "This Idempotency-Key was used with a different request: use a new key for a new request",
    );
  }
}

/** `If-Match` named a version of the resource that is no longer current. */
export class PreconditionFailed extends AppError {
  constructor(message = "The resource changed since you read it: read it again (new ETag)") {
    super("precondition_failed", message);
  }
}

/** Nothing of that kind with that id; `suggestions` are close matches. */
export class NotFound extends AppError {
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly suggestions: readonly string[] = [],
  ) {
    super(
      "not_found",
      `No ${kind} "${id}"` +
        (suggestions.length
          ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
          : ""),
    );
  }
}

/**
 * A status page a person asked statusd to add could not be read: `reason` in a word
 * (domain/page_read.ts `PageReadFailure`), the message in words a person can act on.
 */
export class PageUnreadable extends AppError {
  constructor(readonly reason: string, detail: string) {
    super("page_unreadable", `statusd could not read this status page: ${detail}`);
  }
}

/** Too many requests; retry after the given number of seconds. */
export class RateLimited extends AppError {
  constructor(readonly retryAfterSeconds: number, message?: string) {
    super("rate_limited", message ?? `Too many requests; retry in ${retryAfterSeconds} s`);
  }
}

/** The request body is larger than the endpoint accepts (`maxBytes`); it was not read. */
export class PayloadTooLarge extends AppError {
  constructor(readonly maxBytes: number) {
    super("payload_too_large", `The request body is larger than ${maxBytes} bytes`);
  }
}

/** The server is at its limit for this kind of work; retry after the given number of seconds. */
export class Busy extends AppError {
  constructor(readonly retryAfterSeconds: number, what = "The server") {
    super("busy", `${what} is busy; retry in ${retryAfterSeconds} s`);
  }
}
