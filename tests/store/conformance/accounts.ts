/**
 * Conformance: `store.accounts`.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { Account, NewMember } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import { T } from "./_support.ts";

/** An account and its owner as a store receives them. */
export function accountOf(id: string, plan: Account["plan"] = "PRO", at = T): Account {
  return { id, name: `Account ${id}`, plan, slaTarget: 99.9, createdAt: at };
}

/** A member as a store receives it. */
export function memberOf(
  id: string,
  accountId: string,
  email: string,
  role: NewMember["role"] = "OWNER",
  at = T,
): NewMember {
  return { id, accountId, email, role, passwordHash: `hash-of-${id}`, createdAt: at };
}

export const accountCases: Case[] = [
  {
    name:
      "accounts.create stores an account with its owner; a taken email (any case) stores nothing",
    async run(store) {
      equal(
        await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "Ann@Example.test")),
        true,
      );
      equal(
        await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "ann@example.TEST")),
        false,
      );
      equal(await store.accounts.byId("a2"), null);
      const found = (await store.accounts.membershipByEmail("ANN@example.test"))!;
      deepStrictEqual(found.account, accountOf("a1"));
      deepStrictEqual(found.member, {
        id: "m1",
        accountId: "a1",
        email: "Ann@Example.test",
        role: "OWNER",
        passwordHash: "hash-of-m1",
      });
      equal(await store.accounts.membershipByEmail("nobody@example.test"), null);
    },
  },
  {
    name:
      "accounts.addMember, setPlan and setSlaTarget; list summarises owners, members and active keys",
    async run(store) {
      await store.accounts.create(accountOf("a1", "FREE", T), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(
        accountOf("a2", "PRO", T + 1),
        memberOf("m2", "a2", "two@x.test"),
      );
      equal(
        await store.accounts.addMember(memberOf("m3", "a1", "three@x.test", "ADMIN", T + 2)),
        true,
      );
      equal(await store.accounts.addMember(memberOf("m4", "a1", "ONE@x.test", "MEMBER")), false);
      equal(
        await store.accounts.addMember(memberOf("m5", "a1", "five@x.test", "OWNER", T + 3)),
        true,
      );
      deepStrictEqual((await store.accounts.setPlan("a1", "TEAM"))?.plan, "TEAM");
      equal(await store.accounts.setPlan("nope", "TEAM"), null);
      deepStrictEqual((await store.accounts.setSlaTarget("a1", 99.5))?.slaTarget, 99.5);
      equal(await store.accounts.setSlaTarget("nope", 99), null);
      await store.keys.create({
        id: "k1",
        accountId: "a1",
        name: "ci",
        prefix: "sd_live_abcd",
        scopes: ["status:read"],
        createdAt: T,
        keyHash: "h1",
        memberId: null,
      });
      deepStrictEqual(await store.accounts.list(), [
        {
          ...accountOf("a1", "TEAM"),
          slaTarget: 99.5,
          owners: ["one@x.test", "five@x.test"],
          members: 3,
          activeKeys: 1,
        },
        { ...accountOf("a2", "PRO", T + 1), owners: ["two@x.test"], members: 1, activeKeys: 0 },
      ]);
    },
  },
];
