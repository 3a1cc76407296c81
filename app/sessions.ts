/**
 * Sign-in sessions for the web pages: a random id in a cookie, its hash in the store, a CSRF
 * token per session that every form echoes back.
 * @module
 */
import { DAY_MS, Forbidden, type Principal } from "../domain/mod.ts";
import {
  accountById,
  deleteExpiredSessions,
  deleteSession,
  insertSession,
  liveSessionByHash,
  memberById,
} from "../store/mod.ts";
import type { Membership } from "./accounts.ts";
import type { AppContext } from "./context.ts";
import { hashToken, randomToken, sameText } from "./_tokens.ts";

/** How long a session lasts after sign-in. */
export const SESSION_TTL_MS = 14 * DAY_MS;

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A signed-in person's session as the pages see it. */
export interface WebSession {
  readonly principal: Extract<Principal, { kind: "session" }>;
  /** Token every form must carry. */
  readonly csrfToken: string;
  readonly expiresAt: number;
}

/** Starts a session for a signed-in member; returns the id for the cookie (shown only here). */
export function startSession(
  ctx: AppContext,
  who: Membership,
): { sessionId: string; expiresAt: number } {
  const now = ctx.clock.now();
  const sessionId = randomToken();
  deleteExpiredSessions(ctx.db, now);
  insertSession(ctx.db, {
    idHash: hashToken(sessionId),
    memberId: who.member.id,
    csrfToken: randomToken(),
    createdAt: now,
    expiresAt: now + SESSION_TTL_MS,
  });
  return { sessionId, expiresAt: now + SESSION_TTL_MS };
}

/** The live session for a cookie value, or null (unknown, malformed or expired). */
export function resolveSession(ctx: AppContext, sessionId: string | undefined): WebSession | null {
  if (!sessionId || !SESSION_ID.test(sessionId)) return null;
  const s = liveSessionByHash(ctx.db, hashToken(sessionId), ctx.clock.now());
  const found = s ? memberById(ctx.db, s.memberId) : null;
  const account = found ? accountById(ctx.db, found.accountId) : null;
  if (!s || !found || !account) return null;
  const { passwordHash: _, ...member } = found;
  return {
    principal: { kind: "session", account, member },
    csrfToken: s.csrfToken,
    expiresAt: s.expiresAt,
  };
}

/** Ends a session (sign-out); unknown ids are ignored. */
export function endSession(ctx: AppContext, sessionId: string | undefined): void {
  if (sessionId && SESSION_ID.test(sessionId)) deleteSession(ctx.db, hashToken(sessionId));
}

/** A fresh random token for forms shown before sign-in (double-submit cookie). */
export function newFormToken(): string {
  return randomToken();
}

/** Throws Forbidden unless the form's token equals the expected one (constant time). */
export function checkFormToken(expected: string | null | undefined, presented: unknown): void {
  if (
    typeof expected !== "string" || expected === "" || typeof presented !== "string" ||
    !sameText(expected, presented)
  ) {
    throw new Forbidden(
      "This form has expired or was sent from another site. Reload the page and try again.",
    );
  }
}
