/**
 * Conformance cases for `store.groups` and `store.boards`.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { MIN, T } from "./_support.ts";

export const boardCases: readonly Case[] = [
  {
    name: "groups: create, list, versioned update and delete, per account",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const g = await store.groups.create({
        id: "grp_1",
        accountId: "a1",
        name: "payments path",
        monitorIds: ["mon_a", "mon_b"],
        createdAt: T,
      }, null);
      deepStrictEqual(g, {
        id: "grp_1",
        accountId: "a1",
        name: "payments path",
        monitorIds: ["mon_a", "mon_b"],
        createdAt: T,
        updatedAt: T,
        version: 1,
      });
      equal(await store.groups.get("a2", "grp_1"), null);
      equal((await store.groups.list("a1", { page: 0, limit: 10 })).total, 1);
      equal((await store.groups.list("a2", { page: 0, limit: 10 })).total, 0);
      const moved = await store.groups.update("a1", "grp_1", { monitorIds: ["mon_b"] }, T + MIN, 1);
      deepStrictEqual((moved as { monitorIds: readonly string[] }).monitorIds, ["mon_b"]);
      equal(await store.groups.update("a1", "grp_1", { name: "x" }, T + MIN, 1), "conflict");
      equal(
        await store.groups.create({
          id: "grp_2",
          accountId: "a1",
          name: "two",
          monitorIds: [],
          createdAt: T,
        }, 1),
        "limit",
      );
      equal(await store.groups.delete("a2", "grp_1", null), false);
      equal(await store.groups.delete("a1", "grp_1", 2), true);
      equal(await store.groups.get("a1", "grp_1"), null);
    },
  },
  {
    name: "boards: slugs unique on the server, read by slug whoever owns them",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const board = {
        id: "brd_1",
        accountId: "a1",
        slug: "acme-stack",
        title: "Acme's stack",
        public: true,
        items: [{ kind: "group" as const, id: "grp_1" }, { kind: "monitor" as const, id: "m" }],
        createdAt: T,
      };
      const made = await store.boards.create(board, null);
      deepStrictEqual(made, { ...board, updatedAt: T, version: 1 });
      equal(
        await store.boards.create({ ...board, id: "brd_2", accountId: "a2" }, null),
        "slug_taken",
      );
      deepStrictEqual(await store.boards.bySlug("acme-stack"), made);
      equal(await store.boards.bySlug("nope"), null);
      await store.boards.create({ ...board, id: "brd_3", slug: "other" }, null);
      equal(
        await store.boards.update("a1", "brd_3", { slug: "acme-stack" }, T + MIN, null),
        "slug_taken",
      );
      const renamed = await store.boards.update("a1", "brd_1", { slug: "acme" }, T + MIN, 1);
      equal((renamed as { slug: string }).slug, "acme");
      equal(await store.boards.bySlug("acme-stack"), null);
      equal((await store.boards.bySlug("acme"))!.version, 2);
    },
  },
  {
    name: "boards.withHost: every board of any account that names a host, and no other",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const board = (id: string, accountId: string, host: string | null, title = "Board") => ({
        id,
        accountId,
        slug: `slug-${id}`,
        title,
        public: id !== "b3",
        items: [],
        host,
        createdAt: T,
      });
      await store.boards.create(board("b1", "a1", "status.one.test"), null);
      await store.boards.create(board("b2", "a2", null, 'A "host":"x" in a title'), null);
      await store.boards.create(board("b3", "a2", "status.two.test"), null);
      deepStrictEqual(
        (await store.boards.withHost()).map((b) => [b.id, b.host, b.public]).sort(),
        [["b1", "status.one.test", true], ["b3", "status.two.test", false]],
      );
      await store.boards.update("a1", "b1", { host: null }, T + MIN, null);
      deepStrictEqual((await store.boards.withHost()).map((b) => b.id), ["b3"]);
    },
  },
];
