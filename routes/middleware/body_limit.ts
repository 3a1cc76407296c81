/**
 * Request body limits for every route, checked before anything reads the body: a declared
 * `Content-Length` over the limit is refused at once, and a body without one (chunked) is
 * counted while it streams in and refused as soon as it passes the limit, so statusd never
 * holds more than the limit of any request in memory.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { PayloadTooLarge } from "../../domain/mod.ts";
import type { Env } from "../env.ts";

const KIB = 1024;

/** Body limits in bytes: MCP JSON-RPC messages, OAuth client metadata, and everything else. */
export const BODY_LIMITS = {
  /** `POST /api/mcp`: one JSON-RPC message. */
  mcp: 1024 * KIB,
  /** `POST /oauth/register`: RFC 7591 client metadata (JSON). */
  clientRegistration: 64 * KIB,
  /**
   * `POST /api/user/monitors/suggestions` and the Settings › Monitors import form: dependency
   * and lock files (a lock file runs to MBs).
   */
  suggestions: 4096 * KIB,
  /** Board writes (API and settings form): a board may carry its logo (100 KB, as base64). */
  boards: 256 * KIB,
  /** Forms (sign-in, keys, consent), `/oauth/token`, `/oauth/revoke` and any other route. */
  other: 16 * KIB,
} as const;

/** The limit for a request path. */
export function bodyLimitFor(path: string): number {
  if (path === "/api/mcp") return BODY_LIMITS.mcp;
  if (path === "/oauth/register") return BODY_LIMITS.clientRegistration;
  if (path === "/api/user/monitors/suggestions") return BODY_LIMITS.suggestions;
  if (path === "/settings/monitors/import") return BODY_LIMITS.suggestions;
  if (path.startsWith("/api/user/boards") || path.startsWith("/settings/boards/")) {
    return BODY_LIMITS.boards;
  }
  return BODY_LIMITS.other;
}

function limiter(maxBytes: number): MiddlewareHandler<Env> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new PayloadTooLarge(maxBytes);
    },
  });
}

const LIMITERS = new Map(
  Object.values(BODY_LIMITS).map((bytes) => [bytes, limiter(bytes)] as const),
);

/** Middleware applying {@link bodyLimitFor} to every request: 413 `payload_too_large`. */
export const limitBodies: MiddlewareHandler<Env> = function limitBodies(c, next) {
  if (!c.req.raw.body) return next();
  return LIMITERS.get(bodyLimitFor(new URL(c.req.url).pathname))!(c, next);
};
