/**
 * Server-side sign-in sessions: the cookie holds the id, the table holds its SHA-256.
 * @module
 */
import type { EpochMs } from "../domain/mod.ts";
import type { Db } from "./db.ts";

/** A stored session. */
export interface SessionRecord {
  readonly idHash: string;
  readonly memberId: string;
  /** The token every form of this session must echo back. */
  readonly csrfToken: string;
  readonly createdAt: EpochMs;
  readonly expiresAt: EpochMs;
}

/** Inserts a session. */
export function insertSession(db: Db, s: SessionRecord): void {
  db.prepare(
    "INSERT INTO sessions (id_hash, member_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  ).run(s.idHash, s.memberId, s.csrfToken, s.createdAt, s.expiresAt);
}

/** The session with that id hash that has not expired at `now`, or null. */
export function liveSessionByHash(db: Db, idHash: string, now: EpochMs): SessionRecord | null {
  const r = db.prepare(
    "SELECT * FROM sessions WHERE id_hash = ? AND expires_at > ?",
  ).get(idHash, now) as
    | {
      id_hash: string;
      member_id: string;
      csrf_token: string;
      created_at: number;
      expires_at: number;
    }
    | undefined;
  return r
    ? {
      idHash: r.id_hash,
      memberId: r.member_id,
      csrfToken: r.csrf_token,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
    }
    : null;
}

/** Deletes one session (sign-out). */
export function deleteSession(db: Db, idHash: string): void {
  db.prepare("DELETE FROM sessions WHERE id_hash = ?").run(idHash);
}

/** Deletes sessions expired at `now`; returns how many. */
export function deleteExpiredSessions(db: Db, now: EpochMs): number {
  return Number(db.prepare("DELETE FROM sessions WHERE expires_at <= ?").run(now).changes);
}
