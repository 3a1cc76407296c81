/**
 * Server-side sign-in sessions, once for both engines: only a hash of the session id is
 * stored, with the session's CSRF token.
 * @module
 */
import type { Plan, Role, SessionStore } from "../../domain/mod.ts";
import { type Engine, first, run } from "./query.ts";

/** The sessions noun over `engine`. */
export function sessionStore(engine: Engine): SessionStore {
  return {
    start(s, now) {
      return engine.write((function* () {
        yield* run("DELETE FROM sessions WHERE expires_at <= ?", now);
        yield* run(
          "INSERT INTO sessions (id_hash, member_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
          s.idHash,
          s.memberId,
          s.csrfToken,
          s.createdAt,
          s.expiresAt,
        );
      })());
    },
    resolve(idHash, now) {
      return engine.once((function* () {
        const r = yield* first(
          `SELECT s.id_hash, s.member_id, s.csrf_token, s.created_at, s.expires_at,
             m.account_id, m.email, m.role, a.name AS account_name, a.plan, a.sla_target,
             a.created_at AS account_created_at
           FROM sessions s JOIN members m ON m.id = s.member_id
           JOIN accounts a ON a.id = m.account_id
           WHERE s.id_hash = ? AND s.expires_at > ?`,
          idHash,
          now,
        );
        if (!r) return null;
        return {
          session: {
            idHash: String(r.id_hash),
            memberId: String(r.member_id),
            csrfToken: String(r.csrf_token),
            createdAt: Number(r.created_at),
            expiresAt: Number(r.expires_at),
          },
          member: {
            id: String(r.member_id),
            accountId: String(r.account_id),
            email: String(r.email),
            role: r.role as Role,
          },
          account: {
            id: String(r.account_id),
            name: String(r.account_name),
            plan: r.plan as Plan,
            slaTarget: Number(r.sla_target),
            createdAt: Number(r.account_created_at),
          },
        };
      })());
    },
    async end(idHash) {
      await engine.once(run("DELETE FROM sessions WHERE id_hash = ?", idHash));
    },
  };
}
