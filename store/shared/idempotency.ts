/**
 * Idempotency keys of write requests, once for both engines: the first request with a key
 * starts it, a repeat while it runs is told so, a repeat after it finished gets its answer.
 * @module
 */
import type { IdempotencyBegin, IdempotencyStore } from "../../domain/mod.ts";
import { type Engine, first, type Query, run } from "./query.ts";

/** The idempotency noun over `engine`. */
export function idempotencyStore(engine: Engine): IdempotencyStore {
  const d = engine.dialect;
  return {
    begin(accountId, key, fingerprint, now, expiredBefore) {
      return engine.write((function* (): Query<IdempotencyBegin> {
        // Inserted first, so two instances given the same key at once cannot both start.
        const fresh = yield* run(
          `INSERT INTO idempotency_keys (account_id, key, fingerprint, created_at)
           VALUES (?, ?, ?, ?) ON CONFLICT (account_id, key) DO NOTHING`,
          accountId,
          key,
          fingerprint,
          now,
        );
        if (fresh > 0) return { state: "started" };
        const r = yield* first(
          `SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?${d.forUpdate}`,
          accountId,
          key,
        );
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
        yield* run(
          `UPDATE idempotency_keys SET fingerprint = ?, status = NULL, body = NULL,
             location = NULL, created_at = ?
           WHERE account_id = ? AND key = ?`,
          fingerprint,
          now,
          accountId,
          key,
        );
        return { state: "started" };
      })());
    },
    async finish(accountId, key, answer) {
      await engine.once(run(
        "UPDATE idempotency_keys SET status = ?, body = ?, location = ? WHERE account_id = ? AND key = ?",
        answer.status,
        answer.body,
        answer.location,
        accountId,
        key,
      ));
    },
    async abandon(accountId, key) {
      await engine.once(run(
        "DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL",
        accountId,
        key,
      ));
    },
    prune: (before) =>
      engine.once(run("DELETE FROM idempotency_keys WHERE created_at < ?", before)),
  };
}
