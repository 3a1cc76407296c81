/**
 * Sign-in sessions for the web pages: a random id in a cookie, its hash in the store, a CSRF
 * token per session that every form echoes back.
 * @module
 */
import { DAY_MS, Forbidden, type Principal } from "../domain/mod.ts";
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
export async function startSession(
  ctx: AppContext,
  who: Membership,
): Promise<{ sessionId: string; expiresAt: number }> {
  const now = ctx.clock.now();
  const sessionId = randomToken();
  await ctx.store.sessions.start({
    idHash: hashToken(sessionId),
    memberId: who.member.id,
    csrfToken: randomToken(),
    createdAt: now,
    expiresAt: now + SESSION_TTL_MS,
  }, now);
  return { sessionId, expiresAt: now + SESSION_TTL_MS };
}

/** The live session for a cookie value, or null (unknown, malformed or expired). */
export async function resolveSession(
  ctx: AppContext,
  sessionId: string | undefined,
): Promise<WebSession | null> {
  if (!sessionId || !SESSION_ID.test(sessionId)) return null;
  const found = await ctx.store.sessions.resolve(hashToken(sessionId), ctx.clock.now());
  if (!found) return null;
  return {
    principal: { kind: "session", account: found.account, member: found.member },
    csrfToken: found.session.csrfToken,
    expiresAt: found.session.expiresAt,
  };
}

/** Ends a session (sign-out); unknown ids are ignored. */
export async function endSession(ctx: AppContext, sessionId: string | undefined): Promise<void> {
  if (sessionId && SESSION_ID.test(sessionId)) {
    await ctx.store.sessions.end(hashToken(sessionId));
  }
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
