/**
 * Groups and boards on SQLite (one `account_docs` table, `kind` telling them apart).
 * @module
 */
import type {
  AccountDocStore,
  AlertRuleStore,
  BoardStore,
  GroupStore,
  RuleRecord,
  SubscriptionRecord,
  SubscriptionStore,
} from "../../domain/mod.ts";
import { offsetOf } from "../../domain/mod.ts";
import { docOf, recordOf } from "../account_doc_rows.ts";
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { promised } from "./promised.ts";

type Row = Record<string, unknown>;
/** The kinds of account document (migration 13 / PostgreSQL 7 added the alerting ones). */
export type DocKind = "group" | "board" | "route" | "rule" | "escalation" | "subscription";

/** The shared operations over one kind of account document. */
export function docStore<R extends { id: string; accountId: string }, N, P>(
  db: Db,
  kind: DocKind,
): AccountDocStore<R, N, P> {
  const withSlug = kind === "board";
  const get = (accountId: string, id: string) => {
    const r = statement(
      db,
      "SELECT * FROM account_docs WHERE kind = ? AND account_id = ? AND id = ?",
    ).get(kind, accountId, id) as Row | undefined;
    return r ? recordOf<R>(r, withSlug) : null;
  };
  const slugTaken = (slug: string | undefined, id: string) =>
    slug !== undefined &&
    statement(db, "SELECT 1 FROM account_docs WHERE slug = ? AND id <> ?").get(slug, id) !==
      undefined;
  return promised<AccountDocStore<R, N, P>>({
    create(doc, limit) {
      const d = doc as unknown as Record<string, unknown> & { id: string; accountId: string };
      return transaction(db, () => {
        if (limit !== null) {
          const { n } = statement(
            db,
            "SELECT COUNT(*) AS n FROM account_docs WHERE kind = ? AND account_id = ?",
          ).get(kind, d.accountId) as { n: number };
          if (n >= limit) return "limit" as const;
        }
        if (slugTaken(d.slug as string | undefined, d.id)) return "slug_taken" as const;
        statement(
          db,
          `INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at, updated_at,
             version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)`,
        ).run(
          kind,
          d.id,
          d.accountId,
          withSlug ? String(d.slug) : null,
          docOf(d),
          Number(d.createdAt),
          Number(d.createdAt),
        );
        return get(d.accountId, d.id)!;
      });
    },
    list(accountId, page) {
      return readTransaction(db, () => {
        const { n } = statement(
          db,
          "SELECT COUNT(*) AS n FROM account_docs WHERE kind = ? AND account_id = ?",
        ).get(kind, accountId) as { n: number };
        const rows = statement(
          db,
          `SELECT * FROM account_docs WHERE kind = ? AND account_id = ?
           ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
        ).all(kind, accountId, page.limit, offsetOf(page)) as Row[];
        return { items: rows.map((r) => recordOf<R>(r, withSlug)), total: n };
      });
    },
    get,
    update(accountId, id, patch, at, ifVersion) {
      return transaction(db, () => {
        const now = get(accountId, id);
        if (now === null) return null;
        if (ifVersion !== null && (now as unknown as { version: number }).version !== ifVersion) {
          return "conflict" as const;
        }
        const next = { ...now, ...patch } as unknown as Record<string, unknown>;
        if (withSlug && slugTaken(next.slug as string, id)) return "slug_taken" as const;
        statement(
          db,
          `UPDATE account_docs SET doc = ?, slug = ?, updated_at = ?, version = version + 1
           WHERE kind = ? AND account_id = ? AND id = ?`,
        ).run(docOf(next), withSlug ? String(next.slug) : null, at, kind, accountId, id);
        return get(accountId, id);
      });
    },
    delete(accountId, id, ifVersion) {
      return transaction(db, () => {
        const now = get(accountId, id);
        if (now === null) return false;
        if (ifVersion !== null && (now as unknown as { version: number }).version !== ifVersion) {
          return "conflict" as const;
        }
        statement(db, "DELETE FROM account_docs WHERE kind = ? AND account_id = ? AND id = ?")
          .run(kind, accountId, id);
        return true;
      });
    },
  });
}

/** The groups noun over `db`. */
export function groupStore(db: Db): GroupStore {
  return docStore(db, "group");
}

/** The boards noun over `db`. */
export function boardStore(db: Db): BoardStore {
  return {
    ...docStore(db, "board"),
    ...promised<Pick<BoardStore, "bySlug">>({
      bySlug(slug) {
        const r = statement(db, "SELECT * FROM account_docs WHERE kind = 'board' AND slug = ?")
          .get(slug) as Row | undefined;
        return r ? recordOf(r, true) : null;
      },
    }),
  } as BoardStore;
}

/** The alert rules noun over `db`. */
export function ruleStore(db: Db): AlertRuleStore {
  return {
    ...docStore(db, "rule"),
    ofAccounts(accountIds) {
      const rows = statement(
        db,
        `SELECT * FROM account_docs WHERE kind = 'rule'
         AND account_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
      ).all(JSON.stringify(accountIds)) as Row[];
      return Promise.resolve(
        rows.map((r) => recordOf<RuleRecord>(r, false)),
      );
    },
  };
}

/** The subscriptions noun over `db`. */
export function subscriptionStore(db: Db): SubscriptionStore {
  const all = (where: string, ...params: string[]) =>
    (statement(
      db,
      `SELECT * FROM account_docs WHERE kind = 'subscription' ${where} ORDER BY created_at, rowid`,
    ).all(...params) as Row[]).map((r) => recordOf<SubscriptionRecord>(r, false));
  return {
    ...docStore(db, "subscription"),
    active: (accountIds) =>
      Promise.resolve(
        all("AND account_id IN (SELECT value FROM json_each(?))", JSON.stringify(accountIds))
          .filter((s) => s.state === "active"),
      ),
    byId: (id) => Promise.resolve(all("AND id = ?", id)[0] ?? null),
  };
}
