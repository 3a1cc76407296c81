/**
 * `Idempotency-Key` records on PostgreSQL.
 * @module
 */
import type { IdempotencyBegin, IdempotencyStore } from "../../domain/mod.ts";
import { type Sql, write } from "./db.ts";

/** The idempotency noun over the pool `sql`. */
export function idempotencyStore(sql: Sql): IdempotencyStore {
  return {
    begin(accountId, key, fingerprint, now, expiredBefore) {
      return write(sql, async (tx): Promise<IdempotencyBegin> => {
        // Inserted first, so two instances given the same key at once cannot both start.
        const [fresh] = await tx`INSERT INTO idempotency_keys (account_id, key, fingerprint,
            created_at) VALUES (${accountId}, ${key}, ${fingerprint}, ${now})
          ON CONFLICT (account_id, key) DO NOTHING RETURNING key`;
        if (fresh) return { state: "started" };
        const [r] = await tx`SELECT * FROM idempotency_keys
          WHERE account_id = ${accountId} AND key = ${key} FOR UPDATE`;
        if (r && Number(r.created_at) >= expiredBefore) {
          return r.status === null
            ? { state: "in_progress", fingerprint: String(r.fingerprint) }
            : {
              state: "done",
              fingerprint: String(r.fingerprint),
              answer: {
                status: Number(r.status),
                body: String(r.body),
                location: r.location === null ? null : String(r.location),
              },
            };
        }
        await tx`UPDATE idempotency_keys SET fingerprint = ${fingerprint}, status = NULL,
            body = NULL, location = NULL, created_at = ${now}
          WHERE account_id = ${accountId} AND key = ${key}`;
        return { state: "started" };
      });
    },
    async finish(accountId, key, answer) {
      await sql`UPDATE idempotency_keys SET status = ${answer.status}, body = ${answer.body},
          location = ${answer.location}
        WHERE account_id = ${accountId} AND key = ${key}`;
    },
    async abandon(accountId, key) {
      await sql`DELETE FROM idempotency_keys WHERE account_id = ${accountId} AND key = ${key}
        AND status IS NULL`;
    },
    async prune(before) {
      return (await sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`).count;
    },
  };
}
