/**
 * `Idempotency-Key` records on SQLite.
 * @module
 */
import type { IdempotencyBegin, IdempotencyStore } from "../../domain/mod.ts";
import { type Db, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

type Row = Record<string, unknown>;

/** The idempotency noun over `db`. */
export function idempotencyStore(db: Db): IdempotencyStore {
  return promised<IdempotencyStore>({
    begin(accountId, key, fingerprint, now, expiredBefore) {
      return transaction(db, (): IdempotencyBegin => {
        const r = statement(db, "SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?")
          .get(accountId, key) as Row | undefined;
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
        statement(
          db,
          `INSERT INTO idempotency_keys (account_id, key, fingerprint, created_at)
           VALUES (?, ?, ?, ?) ON CONFLICT (account_id, key) DO UPDATE SET
           fingerprint = excluded.fingerprint, status = NULL, body = NULL, location = NULL,
           created_at = excluded.created_at`,
        ).run(accountId, key, fingerprint, now);
        return { state: "started" };
      });
    },
    finish(accountId, key, answer) {
      statement(
        db,
        "UPDATE idempotency_keys SET status = ?, body = ?, location = ? WHERE account_id = ? AND key = ?",
      ).run(answer.status, answer.body, answer.location, accountId, key);
    },
    abandon(accountId, key) {
      statement(
        db,
        "DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL",
      )
        .run(accountId, key);
    },
    prune(before) {
      return Number(
        statement(db, "DELETE FROM idempotency_keys WHERE created_at < ?").run(before).changes,
      );
    },
  });
}
