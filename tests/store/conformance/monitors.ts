/**
 * Conformance cases for `store.monitors`: per-account isolation, the per-account limit, versions
 * (If-Match), paging, and monitors that outlive their service.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { NewMonitor } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { MIN, T } from "./_support.ts";

function monitor(id: string, accountId: string, extra: Partial<NewMonitor> = {}): NewMonitor {
  return {
    id,
    accountId,
    serviceSlug: "github",
    components: [],
    label: null,
    slaTarget: null,
    paused: false,
    createdAt: T,
    ...extra,
  };
}

export const monitorCases: readonly Case[] = [
  {
    name: "monitors: create, read, list in creation order; another account sees none of them",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const made = await store.monitors.create(
        monitor("mon_1", "a1", {
          components: ["API", "Git Operations"],
          label: "code",
          slaTarget: 99.5,
        }),
        null,
      );
      deepStrictEqual(made, {
        ...monitor("mon_1", "a1", {
          components: ["API", "Git Operations"],
          label: "code",
          slaTarget: 99.5,
        }),
        updatedAt: T,
        version: 1,
      });
      await store.monitors.create(monitor("mon_2", "a1", { createdAt: T + MIN }), null);
      deepStrictEqual(await store.monitors.get("a1", "mon_1"), made);
      equal(await store.monitors.get("a2", "mon_1"), null);
      const page = await store.monitors.list("a1", { page: 0, limit: 1 });
      equal(page.total, 2);
      deepStrictEqual(page.items.map((m) => m.id), ["mon_1"]);
      deepStrictEqual(
        (await store.monitors.list("a1", { page: 1, limit: 1 })).items.map((m) => m.id),
        ["mon_2"],
      );
      deepStrictEqual(await store.monitors.list("a2", { page: 0, limit: 10 }), {
        items: [],
        total: 0,
      });
    },
  },
  {
    name: "monitors.create refuses past the account's limit and stores nothing",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      equal((await store.monitors.create(monitor("m1", "a1"), 2) as { id: string }).id, "m1");
      equal((await store.monitors.create(monitor("m2", "a1"), 2) as { id: string }).id, "m2");
      equal(await store.monitors.create(monitor("m3", "a1"), 2), "limit");
      equal((await store.monitors.list("a1", { page: 0, limit: 10 })).total, 2);
    },
  },
  {
    name: "monitors.update and delete check the version when asked; a stale one is a conflict",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.monitors.create(monitor("m1", "a1"), null);
      const updated = await store.monitors.update(
        "a1",
        "m1",
        { paused: true, components: ["API"] },
        T + MIN,
        1,
      );
      deepStrictEqual(updated, {
        ...monitor("m1", "a1", { paused: true, components: ["API"] }),
        updatedAt: T + MIN,
        version: 2,
      });
      equal(await store.monitors.update("a1", "m1", { label: "x" }, T + 2 * MIN, 1), "conflict");
      equal((await store.monitors.get("a1", "m1"))!.label, null, "a conflict changes nothing");
      equal(await store.monitors.update("a2", "m1", { label: "x" }, T, null), null);
      equal(await store.monitors.delete("a1", "m1", 1), "conflict");
      equal(await store.monitors.delete("a2", "m1", null), false);
      equal(await store.monitors.delete("a1", "m1", 2), true);
      equal(await store.monitors.get("a1", "m1"), null);
      equal(await store.monitors.delete("a1", "m1", null), false);
    },
  },
];
