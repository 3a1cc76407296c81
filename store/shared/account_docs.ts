/**
 * Account documents (groups, boards, routes, rules, escalations, subscriptions), once for both
 * engines: one `account_docs` table, `kind` telling them apart.
 * @module
 */
import type {
  AccountDocStore,
  AlertRuleStore,
  BoardRecord,
  BoardStore,
  GroupStore,
  NewSubscription,
  RuleRecord,
  SubscriptionPatch,
  SubscriptionRecord,
  SubscriptionStore,
} from "../../domain/mod.ts";
import { offsetOf } from "../../domain/mod.ts";
import { docOf, recordOf } from "./account_doc_rows.ts";
import { all, type Engine, first, type Query, run, serialize } from "./query.ts";

/** The kinds of account document (migration 13 / PostgreSQL 7 added the alerting ones). */
export type DocKind = "group" | "board" | "route" | "rule" | "escalation" | "subscription";

/** The shared operations over one kind of account document. */
export function docStore<R extends { id: string; accountId: string }, N, P>(
  engine: Engine,
  kind: DocKind,
): AccountDocStore<R, N, P> {
  const d = engine.dialect;
  const withSlug = kind === "board";
  function* get(accountId: string, id: string, lock = false): Query<R | null> {
    const r = yield* first(
      `SELECT * FROM account_docs WHERE kind = ? AND account_id = ? AND id = ?${
        lock ? d.forUpdate : ""
      }`,
      kind,
      accountId,
      id,
    );
    return r ? recordOf<R>(r, withSlug) : null;
  }
  function* slugTaken(slug: unknown, id: string): Query<boolean> {
    if (slug === undefined) return false;
    return (yield* first(
      "SELECT 1 FROM account_docs WHERE slug = ? AND id <> ?",
      String(slug),
      id,
    )) !==
      undefined;
  }
  function* count(accountId: string): Query<number> {
    const r = yield* first(
      "SELECT COUNT(*) AS n FROM account_docs WHERE kind = ? AND account_id = ?",
      kind,
      accountId,
    );
    return Number(r!.n);
  }
  const versionOf = (r: R) => (r as unknown as { version: number }).version;
  return {
    create(doc, limit) {
      const rec = doc as unknown as Record<string, unknown> & { id: string; accountId: string };
      return engine.write((function* () {
        // Slugs and per-account limits are checked under one lock, so instances cannot race them.
        yield* serialize(d, "account_docs");
        if (limit !== null && (yield* count(rec.accountId)) >= limit) return "limit" as const;
        if (yield* slugTaken(rec.slug, rec.id)) return "slug_taken" as const;
        yield* run(
          `INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at, updated_at,
             version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)`,
          kind,
          rec.id,
          rec.accountId,
          withSlug ? String(rec.slug) : null,
          docOf(rec),
          Number(rec.createdAt),
          Number(rec.createdAt),
        );
        return (yield* get(rec.accountId, rec.id))!;
      })());
    },
    list(accountId, page) {
      return engine.read((function* () {
        const total = yield* count(accountId);
        const rows = yield* all(
          `SELECT * FROM account_docs WHERE kind = ? AND account_id = ?
           ORDER BY created_at, ${d.insertionOrder} LIMIT ? OFFSET ?`,
          kind,
          accountId,
          page.limit,
          offsetOf(page),
        );
        return { items: rows.map((r) => recordOf<R>(r, withSlug)), total };
      })());
    },
    get: (accountId, id) => engine.once(get(accountId, id)),
    update(accountId, id, patch, at, ifVersion) {
      return engine.write((function* () {
        yield* serialize(d, "account_docs");
        const now = yield* get(accountId, id, true);
        if (now === null) return null;
        if (ifVersion !== null && versionOf(now) !== ifVersion) return "conflict" as const;
        const next = { ...now, ...patch } as unknown as Record<string, unknown>;
        if (withSlug && (yield* slugTaken(next.slug, id))) return "slug_taken" as const;
        yield* run(
          `UPDATE account_docs SET doc = ?, slug = ?, updated_at = ?, version = version + 1
           WHERE kind = ? AND account_id = ? AND id = ?`,
          docOf(next),
          withSlug ? String(next.slug) : null,
          at,
          kind,
          accountId,
          id,
        );
        return yield* get(accountId, id);
      })());
    },
    delete(accountId, id, ifVersion) {
      return engine.write((function* () {
        const now = yield* get(accountId, id, true);
        if (now === null) return false;
        if (ifVersion !== null && versionOf(now) !== ifVersion) return "conflict" as const;
        yield* run(
          "DELETE FROM account_docs WHERE kind = ? AND account_id = ? AND id = ?",
          kind,
          accountId,
          id,
        );
        return true;
      })());
    },
  };
}

/** The account documents of `kind` whose `where` holds, oldest first. */
function* docsWhere<R>(
  engine: Engine,
  kind: DocKind,
  where: string,
  param: string,
): Query<R[]> {
  const rows = yield* all(
    `SELECT * FROM account_docs WHERE kind = '${kind}' AND ${where}
     ORDER BY created_at, ${engine.dialect.insertionOrder}`,
    param,
  );
  return rows.map((r) => recordOf<R>(r, kind === "board"));
}

/** The groups noun over `engine`. */
export function groupStore(engine: Engine): GroupStore {
  return docStore(engine, "group");
}

/** The boards noun over `engine`. */
export function boardStore(engine: Engine): BoardStore {
  return {
    ...docStore(engine, "board"),
    bySlug: (slug) =>
      engine.once(docsWhere(engine, "board", "slug = ?", slug)).then((r) => r[0] ?? null),
    // The document is JSON text: `"host":"` is in it exactly when a host string is.
    withHost: () =>
      engine.once(docsWhere<BoardRecord>(engine, "board", "doc LIKE ?", '%"host":"%'))
        .then((r) => r.filter((b) => typeof b.host === "string")),
  } as BoardStore;
}

/** The alert rules noun over `engine`. */
export function ruleStore(engine: Engine): AlertRuleStore {
  return {
    ...docStore(engine, "rule"),
    ofAccounts: (accountIds) =>
      engine.once(
        docsWhere<RuleRecord>(
          engine,
          "rule",
          engine.dialect.inJson("account_id"),
          JSON.stringify(accountIds),
        ),
      ),
  };
}

/** The subscriptions noun over `engine`: pending ones are left out of the account's limit. */
export function subscriptionStore(engine: Engine): SubscriptionStore {
  const d = engine.dialect;
  const docs = docStore<SubscriptionRecord, NewSubscription, SubscriptionPatch>(
    engine,
    "subscription",
  );
  function* ofAccount(accountId: string): Query<SubscriptionRecord[]> {
    const rows = yield* all(
      "SELECT * FROM account_docs WHERE kind = 'subscription' AND account_id = ?",
      accountId,
    );
    return rows.map((r) => recordOf<SubscriptionRecord>(r, false));
  }
  function* insert(doc: NewSubscription): Query<SubscriptionRecord> {
    const rec = doc as unknown as Record<string, unknown>;
    yield* run(
      `INSERT INTO account_docs (kind, id, account_id, slug, doc, created_at, updated_at,
         version) VALUES ('subscription', ?, ?, NULL, ?, ?, ?, 1)`,
      doc.id,
      doc.accountId,
      docOf(rec),
      doc.createdAt,
      doc.createdAt,
    );
    const r = yield* first("SELECT * FROM account_docs WHERE id = ?", doc.id);
    return recordOf<SubscriptionRecord>(r!, false);
  }
  const kept = (subs: readonly SubscriptionRecord[]) =>
    subs.filter((s) => s.state !== "pending_confirmation").length;
  return {
    ...docs,
    create(doc, limit) {
      return engine.write((function* () {
        yield* serialize(d, "account_docs");
        if (limit !== null && kept(yield* ofAccount(doc.accountId)) >= limit) {
          return "limit" as const;
        }
        return yield* insert(doc);
      })());
    },
    openPending(doc, opts) {
      return engine.write((function* () {
        yield* serialize(d, "account_docs");
        const subs = yield* ofAccount(doc.accountId);
        const pending = subs.filter((s) => s.state === "pending_confirmation");
        for (const s of pending.filter((s) => s.createdAt <= opts.expiryCutoff)) {
          yield* run("DELETE FROM account_docs WHERE kind = 'subscription' AND id = ?", s.id);
        }
        const waiting = pending.filter((s) =>
          s.createdAt > opts.expiryCutoff && s.target.kind === doc.target.kind &&
          s.target.id === doc.target.id
        );
        if (waiting.length >= opts.maxPending) return "busy" as const;
        return yield* insert(doc);
      })());
    },
    confirm(accountId, id, at, limit) {
      return engine.write((function* () {
        yield* serialize(d, "account_docs");
        const subs = yield* ofAccount(accountId);
        const s = subs.find((x) => x.id === id);
        if (!s || s.state !== "pending_confirmation") return null;
        if (kept(subs) >= limit) return "limit" as const;
        const next = { ...s, state: "active", confirmHash: null } as unknown as Record<
          string,
          unknown
        >;
        yield* run(
          `UPDATE account_docs SET doc = ?, updated_at = ?, version = version + 1
           WHERE kind = 'subscription' AND id = ?`,
          docOf(next),
          at,
          id,
        );
        const r = yield* first("SELECT * FROM account_docs WHERE id = ?", id);
        return recordOf<SubscriptionRecord>(r!, false);
      })());
    },
    active: (accountIds) =>
      engine.once(
        docsWhere<SubscriptionRecord>(
          engine,
          "subscription",
          engine.dialect.inJson("account_id"),
          JSON.stringify(accountIds),
        ),
      ).then((subs) => subs.filter((s) => s.state === "active")),
    byId: (id) =>
      engine.once(docsWhere<SubscriptionRecord>(engine, "subscription", "id = ?", id))
        .then((r) => r[0] ?? null),
  };
}
