/**
 * Groups and boards on PostgreSQL (one `account_docs` table, `kind` telling them apart).
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
import { read, type Sql, write } from "./db.ts";

/** The kinds of account document (migration 13 / PostgreSQL 7 added the alerting ones). */
export type DocKind = "group" | "board" | "route" | "rule" | "escalation" | "subscription";

/** The shared operations over one kind of account document. */
export function docStore<R extends { id: string; accountId: string }, N, P>(
  sql: Sql,
  kind: DocKind,
): AccountDocStore<R, N, P> {
  const withSlug = kind === "board";
  const get = async (tx: Sql, accountId: string, id: string, lock = false) => {
    const [r] = lock
      ? await tx`SELECT * FROM account_docs WHERE kind = ${kind} AND account_id = ${accountId}
          AND id = ${id} FOR UPDATE`
      : await tx`SELECT * FROM account_docs WHERE kind = ${kind} AND account_id = ${accountId}
          AND id = ${id}`;
    return r ? recordOf<R>(r, withSlug) : null;
  };
  const slugTaken = async (tx: Sql, slug: unknown, id: string) =>
    slug !== undefined &&
    (await tx`SELECT 1 FROM account_docs WHERE slug = ${String(slug)} AND id <> ${id}`).length > 0;
  // Slugs and per-account limits are checked under one lock, so instances cannot race them.
  const lock = (tx: Sql) => tx`SELECT pg_advisory_xact_lock(hashtext('account_docs'))`;
  return {
    create(doc, limit) {
      const d = doc as unknown as Record<string, unknown> & { id: string; accountId: string };
      return write(sql, async (tx) => {
        await lock(tx);
        if (limit !== null) {
          const [{ n }] = await tx`SELECT COUNT(*) AS n FROM account_docs
            WHERE kind = ${kind} AND account_id = ${d.accountId}`;
          if (Number(n) >= limit) return "limit" as const;
        }
        if (await slugTaken(tx, d.slug, d.id)) return "slug_taken" as const;
        await tx`INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at,
            updated_at, version)
          VALUES (${kind}, ${d.id}, ${d.accountId}, ${withSlug ? String(d.slug) : null},
            ${docOf(d)}, ${Number(d.createdAt)}, ${Number(d.createdAt)}, 1)`;
        return (await get(tx, d.accountId, d.id))!;
      });
    },
    list(accountId, page) {
      return read(sql, async (tx) => {
        const [{ n }] = await tx`SELECT COUNT(*) AS n FROM account_docs
          WHERE kind = ${kind} AND account_id = ${accountId}`;
        const rows = await tx`SELECT * FROM account_docs
          WHERE kind = ${kind} AND account_id = ${accountId}
          ORDER BY created_at, seq LIMIT ${page.limit} OFFSET ${offsetOf(page)}`;
        return { items: rows.map((r) => recordOf<R>(r, withSlug)), total: Number(n) };
      });
    },
    get: (accountId, id) => get(sql, accountId, id),
    update(accountId, id, patch, at, ifVersion) {
      return write(sql, async (tx) => {
        await lock(tx);
        const now = await get(tx, accountId, id, true);
        if (now === null) return null;
        if (ifVersion !== null && (now as unknown as { version: number }).version !== ifVersion) {
          return "conflict" as const;
        }
        const next = { ...now, ...patch } as unknown as Record<string, unknown>;
        if (withSlug && await slugTaken(tx, next.slug, id)) return "slug_taken" as const;
        await tx`UPDATE account_docs SET doc = ${docOf(next)},
            slug = ${withSlug ? String(next.slug) : null}, updated_at = ${at},
            version = version + 1
          WHERE kind = ${kind} AND account_id = ${accountId} AND id = ${id}`;
        return await get(tx, accountId, id);
      });
    },
    delete(accountId, id, ifVersion) {
      return write(sql, async (tx) => {
        const now = await get(tx, accountId, id, true);
        if (now === null) return false;
        if (ifVersion !== null && (now as unknown as { version: number }).version !== ifVersion) {
          return "conflict" as const;
        }
        await tx`DELETE FROM account_docs WHERE kind = ${kind} AND account_id = ${accountId}
          AND id = ${id}`;
        return true;
      });
    },
  };
}

/** The groups noun over the pool `sql`. */
export function groupStore(sql: Sql): GroupStore {
  return docStore(sql, "group");
}

/** The boards noun over the pool `sql`. */
export function boardStore(sql: Sql): BoardStore {
  return {
    ...docStore(sql, "board"),
    async bySlug(slug) {
      const [r] = await sql`SELECT * FROM account_docs WHERE kind = 'board' AND slug = ${slug}`;
      return r ? recordOf(r, true) : null;
    },
  } as BoardStore;
}

/** The alert rules noun over `sql`. */
export function ruleStore(sql: Sql): AlertRuleStore {
  return {
    ...docStore(sql, "rule"),
    async ofAccounts(accountIds) {
      const rows = await sql`SELECT * FROM account_docs WHERE kind = 'rule'
        AND account_id = ANY(${accountIds as string[]}) ORDER BY created_at, seq`;
      return rows.map((r) => recordOf<RuleRecord>(r, false));
    },
  };
}

/** The subscriptions noun over `sql`. */
export function subscriptionStore(sql: Sql): SubscriptionStore {
  return {
    ...docStore(sql, "subscription"),
    async active(accountIds) {
      const rows = await sql`SELECT * FROM account_docs WHERE kind = 'subscription'
        AND account_id = ANY(${accountIds as string[]}) ORDER BY created_at, seq`;
      return rows.map((r) => recordOf<SubscriptionRecord>(r, false)).filter((s) =>
        s.state === "active"
      );
    },
    async byId(id) {
      const [r] = await sql`SELECT * FROM account_docs WHERE kind = 'subscription' AND id = ${id}`;
      return r ? recordOf<SubscriptionRecord>(r, false) : null;
    },
  };
}
