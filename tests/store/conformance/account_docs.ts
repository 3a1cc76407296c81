/**
 * Conformance cases for the account documents every noun shares (boards, alert rules,
 * escalation policies, subscriptions): create under a limit, read and list per account,
 * versioned update and delete; `subscriptions.byId` whoever owns it; and the few remaining
 * reads (`changes.oldestId`, `catalog.backToWorking`, `attempts.prune`).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { AccountDocStore, Store } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { DAY, MIN, read, snapshot, T, vendor, withVendors } from "./_support.ts";

type Doc = { id: string; accountId: string; createdAt: number };

/** One noun's documents: how to make one, and a patch with the field it changes. */
interface Noun {
  readonly name: string;
  readonly docs: (s: Store) => AccountDocStore<Doc, Doc, Record<string, unknown>>;
  readonly make: (id: string, accountId: string, createdAt: number) => Doc;
  readonly patch: Record<string, unknown>;
}

const NOUNS: readonly Noun[] = [
  {
    name: "boards",
    docs: (s) => s.boards as never,
    make: (id, accountId, createdAt) =>
      ({
        id,
        accountId,
        slug: `slug-${id}`,
        title: "Board",
        public: false,
        items: [],
        createdAt,
      }) as Doc,
    patch: { title: "Renamed" },
  },
  {
    name: "alertRules",
    docs: (s) => s.alertRules as never,
    make: (id, accountId, createdAt) =>
      ({
        id,
        accountId,
        name: "Rule",
        target: { kind: "all" },
        level: "MAJOR_OUTAGE",
        incidents: false,
        maintenance: false,
        forMinutes: 0,
        failingMinutes: null,
        recovery: true,
        routes: ["rt_1"],
        escalation: null,
        enabled: true,
        createdAt,
      }) as Doc,
    patch: { name: "Renamed", enabled: false },
  },
  {
    name: "escalations",
    docs: (s) => s.escalations as never,
    make: (id, accountId, createdAt) =>
      ({
        id,
        accountId,
        name: "On call",
        steps: [{ routes: ["rt_1"], afterMinutes: 5 }],
        repeat: 0,
        createdAt,
      }) as Doc,
    patch: { repeat: 2 },
  },
  {
    name: "subscriptions",
    docs: (s) => s.subscriptions as never,
    make: (id, accountId, createdAt) =>
      ({
        id,
        accountId,
        target: { kind: "monitor", id: "mon_1" },
        channel: { kind: "email", email: "ops@example.test" },
        state: "active",
        confirmHash: null,
        unsubscribeToken: `tok_${id}`,
        createdAt,
      }) as Doc,
    patch: { state: "unsubscribed" },
  },
];

export const accountDocCases: readonly Case[] = [
  ...NOUNS.map((noun): Case => ({
    name:
      `${noun.name}: create under a limit, read and list per account, versioned update and delete`,
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const docs = noun.docs(store);
      const first = noun.make("d1", "a1", T);
      const made = await docs.create(first, 2);
      deepStrictEqual(made, { ...first, updatedAt: T, version: 1 });
      await docs.create(noun.make("d2", "a1", T + 1), 2);
      equal(await docs.create(noun.make("d3", "a1", T + 2), 2), "limit", "the limit holds");
      await docs.create(noun.make("d4", "a2", T), null);
      deepStrictEqual(await docs.get("a1", "d1"), made);
      equal(await docs.get("a2", "d1"), null, "another account's document is not there");
      const page = await docs.list("a1", { page: 0, limit: 1 });
      deepStrictEqual([page.total, page.items.map((d) => d.id)], [2, ["d1"]]);
      deepStrictEqual(
        (await docs.list("a1", { page: 1, limit: 1 })).items.map((d) => d.id),
        ["d2"],
      );
      equal(await docs.update("a1", "d1", noun.patch, T + MIN, 9), "conflict");
      equal(await docs.update("a2", "d1", noun.patch, T + MIN, null), null);
      const updated = await docs.update("a1", "d1", noun.patch, T + MIN, 1);
      deepStrictEqual(updated, { ...first, ...noun.patch, updatedAt: T + MIN, version: 2 });
      equal(await docs.delete("a1", "d1", 1), "conflict");
      equal(await docs.delete("a2", "d1", null), false);
      equal(await docs.delete("a1", "d1", 2), true);
      equal(await docs.get("a1", "d1"), null);
      equal(await docs.delete("a1", "d1", null), false);
      equal((await docs.list("a1", { page: 0, limit: 10 })).total, 1);
    },
  })),
  {
    name: "subscriptions.byId finds a subscription whoever owns it (its links carry the id)",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const sub = NOUNS.find((n) => n.name === "subscriptions")!.make("sub_1", "a1", T);
      await store.subscriptions.create(sub as never, null);
      equal((await store.subscriptions.byId("sub_1"))?.accountId, "a1");
      equal(await store.subscriptions.byId("sub_nope"), null);
    },
  },
  {
    name:
      "subscriptions: pending ones never count toward the limit, are capped per target, expire, confirm under the limit",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const make = NOUNS.find((n) => n.name === "subscriptions")!.make;
      const sub = (id: string, state: string, at = T, target = "b1") =>
        ({
          ...make(id, "a1", at) as Record<string, unknown>,
          target: { kind: "board", id: target },
          state,
        }) as never;
      const s = store.subscriptions;
      equal(typeof await s.create(sub("kept1", "active"), 2), "object");
      const opts = { maxPending: 2, expiryCutoff: T - 48 * 60 * MIN };
      equal(typeof await s.openPending(sub("p1", "pending_confirmation"), opts), "object");
      equal(typeof await s.openPending(sub("p2", "pending_confirmation"), opts), "object");
      equal(await s.openPending(sub("p3", "pending_confirmation"), opts), "busy");
      equal(
        typeof await s.openPending(sub("p4", "pending_confirmation", T, "b2"), opts),
        "object",
        "another target has its own pending",
      );
      equal(typeof await s.create(sub("kept2", "active"), 2), "object", "pending do not count");
      equal(await s.create(sub("kept3", "active"), 2), "limit");
      equal(await s.confirm("a1", "p1", T + MIN, 2), "limit");
      const confirmed = await s.confirm("a1", "p1", T + MIN, 3);
      equal(confirmed !== null && confirmed !== "limit" ? confirmed.state : confirmed, "active");
      equal(await s.confirm("a1", "p1", T + MIN, 3), null, "no longer pending");
      equal(await s.confirm("a2", "p2", T + MIN, 3), null, "another account's");
      // Two days on, the pending ones left have expired: they go, and the target takes new ones.
      const later = { maxPending: 2, expiryCutoff: T };
      equal(typeof await s.openPending(sub("p5", "pending_confirmation", T + 1), later), "object");
      equal(await s.byId("p2"), null);
      equal(await s.byId("p4"), null);
      equal((await s.byId("p1"))?.state, "active", "a confirmed one stays");
    },
  },
  {
    name: "changes.oldestId is 0 when empty, else the first change's id; latestId the last's",
    async run(store) {
      equal(await store.changes.oldestId(), 0);
      const { acme } = await withVendors(store, [vendor("acme")]);
      await read(store, acme!, snapshot("OPERATIONAL"), T);
      await read(store, acme!, snapshot("MAJOR_OUTAGE"), T + MIN);
      const all = await store.changes.after(0, 100);
      ok(all.length >= 2);
      equal(await store.changes.oldestId(), all[0]!.id);
      equal(await store.changes.latestId(), all.at(-1)!.id);
    },
  },
  {
    name: "catalog.backToWorking: services working again whose level changed since, latest first",
    async run(store) {
      const { a, b, c } = await withVendors(store, [vendor("a"), vendor("b"), vendor("c")]);
      for (const id of [a!, b!, c!]) await read(store, id, snapshot("MAJOR_OUTAGE"), T);
      await read(store, a!, snapshot("OPERATIONAL"), T + 2 * MIN);
      await read(store, c!, snapshot("OPERATIONAL"), T + 3 * MIN);
      // b is still down; a recovered before `since` is left out once since moves past it.
      const window = { start: T - DAY, end: T + DAY };
      deepStrictEqual(
        (await store.catalog.backToWorking(T + MIN, window)).map((s) => s.service.slug),
        ["c", "a"],
      );
      deepStrictEqual(
        (await store.catalog.backToWorking(T + 3 * MIN, window)).map((s) => s.service.slug),
        ["c"],
      );
    },
  },
  {
    name: "attempts.prune forgets windows that began before the instant given, and says how many",
    async run(store) {
      const rule = { limit: 1, windowMs: 10 * MIN, maxKeys: 100 };
      equal(await store.attempts.take("login", "k1", rule, T), 0);
      equal(await store.attempts.take("login", "k2", rule, T + 5 * MIN), 0);
      equal(await store.attempts.prune(T + MIN), 1, "only the window begun at T");
      equal(await store.attempts.take("login", "k1", rule, T + 2 * MIN), 0, "k1 starts afresh");
      ok(await store.attempts.take("login", "k2", rule, T + 6 * MIN) > 0, "k2 is still counted");
    },
  },
];
