/**
 * Mail consents, suppressions and the server's secrets on SQLite (migration 15).
 * @module
 */
import type { MailConsentState, MailStore, MailSuppression } from "../../domain/mod.ts";
import { type Db, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

type Row = Record<string, unknown>;

/** The mail noun over `db`. */
export function mailStore(db: Db): MailStore {
  return promised<MailStore>({
    consents(accountId, addresses) {
      const out = new Map<string, MailConsentState>();
      const get = statement(
        db,
        "SELECT state FROM mail_consents WHERE account_id = ? AND address = ?",
      );
      for (const a of addresses) {
        const r = get.get(accountId, a) as Row | undefined;
        if (r) out.set(a, r.state as MailConsentState);
      }
      return out;
    },
    requestConsent(accountId, address, tokenHash, at) {
      return transaction(db, () => {
        const r = statement(
          db,
          "SELECT state FROM mail_consents WHERE account_id = ? AND address = ?",
        ).get(accountId, address) as Row | undefined;
        if (r?.state === "confirmed") return false;
        statement(
          db,
          `INSERT INTO mail_consents (account_id, address, state, token_hash, requested_at)
           VALUES (?, ?, 'pending', ?, ?) ON CONFLICT (account_id, address) DO UPDATE SET
           state = 'pending', token_hash = excluded.token_hash,
           requested_at = excluded.requested_at`,
        ).run(accountId, address, tokenHash, at);
        return true;
      });
    },
    confirm(tokenHash, at) {
      return transaction(db, () => {
        const r = statement(
          db,
          "SELECT account_id, address FROM mail_consents WHERE token_hash = ?",
        ).get(tokenHash) as Row | undefined;
        if (!r) return null;
        statement(
          db,
          `UPDATE mail_consents SET state = 'confirmed', token_hash = NULL, confirmed_at = ?
           WHERE account_id = ? AND address = ?`,
        ).run(at, r.account_id as string, r.address as string);
        statement(db, "DELETE FROM mail_suppressions WHERE address = ?").run(r.address as string);
        return { accountId: String(r.account_id), address: String(r.address) };
      });
    },
    suppressions(addresses) {
      const out = new Map<string, MailSuppression>();
      const get = statement(db, "SELECT reason, at FROM mail_suppressions WHERE address = ?");
      for (const a of addresses) {
        const r = get.get(a) as Row | undefined;
        if (r) {
          out.set(a, { reason: r.reason as MailSuppression["reason"], at: Number(r.at) });
        }
      }
      return out;
    },
    suppress(address, s) {
      transaction(db, () => {
        statement(
          db,
          `INSERT INTO mail_suppressions (address, reason, at) VALUES (?, ?, ?)
           ON CONFLICT (address) DO UPDATE SET reason = excluded.reason, at = excluded.at`,
        ).run(address, s.reason, s.at);
        statement(
          db,
          `UPDATE mail_consents SET state = 'pending', token_hash = NULL, confirmed_at = NULL
           WHERE address = ?`,
        ).run(address);
      });
    },
    unsuppress(address) {
      statement(db, "DELETE FROM mail_suppressions WHERE address = ?").run(address);
    },
    secret(name, make) {
      return transaction(db, () => {
        const r = statement(db, "SELECT value FROM server_secrets WHERE name = ?").get(name) as
          | Row
          | undefined;
        if (r) return String(r.value);
        const value = make();
        statement(db, "INSERT INTO server_secrets (name, value) VALUES (?, ?)").run(name, value);
        return value;
      });
    },
  });
}
