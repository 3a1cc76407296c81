/**
 * Server-side sign-in sessions on SQLite: the cookie holds the id, the table its SHA-256.
 * @module
 */
import type { Plan, Role, SessionStore } from "../../domain/mod.ts";
import { type Db, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

/** The sessions noun over `db`. */
export function sessionStore(db: Db): SessionStore {
  return promised<SessionStore>({
    start(s, now) {
      transaction(db, () => {
        db.prepare("DELETE FROM sessions WHERE expires_at <= ?").run(now);
        db.prepare(
          "INSERT INTO sessions (id_hash, member_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
        ).run(s.idHash, s.memberId, s.csrfToken, s.createdAt, s.expiresAt);
      });
    },
    resolve(idHash, now) {
      const r = statement(
        db,
        `SELECT s.id_hash, s.member_id, s.csrf_token, s.created_at, s.expires_at,
           m.account_id, m.email, m.role, a.name AS account_name, a.plan, a.sla_target,
           a.created_at AS account_created_at
         FROM sessions s JOIN members m ON m.id = s.member_id JOIN accounts a ON a.id = m.account_id
         WHERE s.id_hash = ? AND s.expires_at > ?`,
      ).get(idHash, now) as
        | {
          id_hash: string;
          member_id: string;
          csrf_token: string;
          created_at: number;
          expires_at: number;
          account_id: string;
          email: string;
          role: Role;
          account_name: string;
          plan: Plan;
          sla_target: number;
          account_created_at: number;
        }
        | undefined;
      if (!r) return null;
      return {
        session: {
          idHash: r.id_hash,
          memberId: r.member_id,
          csrfToken: r.csrf_token,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
        },
        member: { id: r.member_id, accountId: r.account_id, email: r.email, role: r.role },
        account: {
          id: r.account_id,
          name: r.account_name,
          plan: r.plan,
          slaTarget: r.sla_target,
          createdAt: r.account_created_at,
        },
      };
    },
    end(idHash) {
      db.prepare("DELETE FROM sessions WHERE id_hash = ?").run(idHash);
    },
  });
}
