/**
 * Mail consents, suppressions and the server's secrets on PostgreSQL (migration 9), shared by
 * every instance: the first instance to ask for a secret makes it, the others read it.
 * @module
 */
import type { MailConsentState, MailStore, MailSuppression } from "../../domain/mod.ts";
import { read, type Sql, write } from "./db.ts";

/** The mail noun over the pool `sql`. */
export function mailStore(sql: Sql): MailStore {
  return {
    consents(accountId, addresses) {
      return read(sql, async (tx) => {
        const out = new Map<string, MailConsentState>();
        if (addresses.length === 0) return out;
        for (
          const r of await tx`SELECT address, state FROM mail_consents
            WHERE account_id = ${accountId} AND address IN ${tx([...addresses])}`
        ) out.set(String(r.address), r.state as MailConsentState);
        return out;
      });
    },
    requestConsent(accountId, address, tokenHash, at) {
      return write(sql, async (tx) => {
        const r = await tx`INSERT INTO mail_consents (account_id, address, state, token_hash,
            requested_at) VALUES (${accountId}, ${address}, 'pending', ${tokenHash}, ${at})
          ON CONFLICT (account_id, address) DO UPDATE SET state = 'pending',
            token_hash = excluded.token_hash, requested_at = excluded.requested_at
            WHERE mail_consents.state <> 'confirmed'
          RETURNING address`;
        return r.length > 0;
      });
    },
    confirm(tokenHash, at) {
      return write(sql, async (tx) => {
        const [r] = await tx`UPDATE mail_consents SET state = 'confirmed', token_hash = NULL,
            confirmed_at = ${at} WHERE token_hash = ${tokenHash}
          RETURNING account_id, address`;
        if (!r) return null;
        await tx`DELETE FROM mail_suppressions WHERE address = ${r.address}`;
        return { accountId: String(r.account_id), address: String(r.address) };
      });
    },
    suppressions(addresses) {
      return read(sql, async (tx) => {
        const out = new Map<string, MailSuppression>();
        if (addresses.length === 0) return out;
        for (
          const r of await tx`SELECT address, reason, at FROM mail_suppressions
            WHERE address IN ${tx([...addresses])}`
        ) {
          out.set(String(r.address), {
            reason: r.reason as MailSuppression["reason"],
            at: Number(r.at),
          });
        }
        return out;
      });
    },
    suppress(address, s) {
      return write(sql, async (tx) => {
        await tx`INSERT INTO mail_suppressions (address, reason, at)
          VALUES (${address}, ${s.reason}, ${s.at})
          ON CONFLICT (address) DO UPDATE SET reason = excluded.reason, at = excluded.at`;
        await tx`UPDATE mail_consents SET state = 'pending', token_hash = NULL,
            confirmed_at = NULL WHERE address = ${address}`;
      });
    },
    unsuppress(address) {
      return write(sql, async (tx) => {
        await tx`DELETE FROM mail_suppressions WHERE address = ${address}`;
      });
    },
    secret(name, make) {
      return write(sql, async (tx) => {
        const candidate = make();
        await tx`INSERT INTO server_secrets (name, value) VALUES (${name}, ${candidate})
          ON CONFLICT (name) DO NOTHING`;
        const [r] = await tx`SELECT value FROM server_secrets WHERE name = ${name}`;
        return String(r!.value);
      });
    },
  };
}
