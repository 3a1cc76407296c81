/**
 * Conformance: `store.keys`.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { NewApiKey } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { MIN, T } from "./_support.ts";

function keyOf(id: string, name: string, at: number, extra: Partial<NewApiKey> = {}): NewApiKey {
  return {
    id,
    accountId: "a1",
    name,
    prefix: `sd_live_${id}`,
    scopes: ["status:read", "sla:read"],
    createdAt: at,
    keyHash: `hash-${id}`,
    memberId: null,
    ...extra,
  };
}

export const keyCases: Case[] = [
  {
    name:
      "keys.create refuses a second active key of one name; list shows active keys newest first",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "o@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "p@x.test"));
      equal(await store.keys.create(keyOf("k1", "ci", T)), true);
      equal(await store.keys.create(keyOf("k2", "ci", T + 1)), false);
      equal(await store.keys.create(keyOf("k3", "deploy", T + 2, { scopes: null })), true);
      equal(await store.keys.create(keyOf("k4", "ci", T + 3, { accountId: "a2" })), true);
      deepStrictEqual((await store.keys.list("a1")).map((k) => [k.id, k.scopes]), [
        ["k3", null],
        ["k1", ["status:read", "sla:read"]],
      ]);
      deepStrictEqual((await store.keys.activeByName("a1", "ci"))?.id, "k1");
      equal(await store.keys.activeByName("a1", "nope"), null);
    },
  },
  {
    name: "keys.revoke once (the first date kept), only on its own account; the name is free again",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "o@x.test"));
      await store.keys.create(keyOf("k1", "ci", T));
      equal(await store.keys.revoke("a2", "k1", T + MIN), null, "another account's key");
      const first = (await store.keys.revoke("a1", "k1", T + MIN))!;
      deepStrictEqual([first.revokedNow, first.key.revokedAt], [true, T + MIN]);
      const again = (await store.keys.revoke("a1", "k1", T + 2 * MIN))!;
      deepStrictEqual([again.revokedNow, again.key.revokedAt], [false, T + MIN]);
      equal(await store.keys.revoke("a1", "nope", T), null);
      deepStrictEqual(await store.keys.list("a1"), []);
      equal(await store.keys.activeByName("a1", "ci"), null);
      equal(await store.keys.create(keyOf("k2", "ci", T + 3 * MIN)), true);
    },
  },
  {
    name:
      "keys.byHash finds a key (revoked or not) with its account as stored now; touch never moves back",
    async run(store) {
      await store.accounts.create(accountOf("a1", "FREE"), memberOf("m1", "a1", "o@x.test"));
      await store.keys.create(keyOf("k1", "ci", T));
      let found = (await store.keys.byHash("hash-k1"))!;
      deepStrictEqual([found.key.id, found.keyHash, found.account.plan], ["k1", "hash-k1", "FREE"]);
      await store.accounts.setPlan("a1", "PRO");
      found = (await store.keys.byHash("hash-k1"))!;
      equal(found.account.plan, "PRO");
      equal(await store.keys.byHash("hash-nope"), null);
      await store.keys.touch(new Map([["k1", T + 5 * MIN]]));
      await store.keys.touch(new Map([["k1", T + 2 * MIN], ["unknown", T]]));
      equal((await store.keys.byHash("hash-k1"))!.key.lastUsedAt, T + 5 * MIN);
      await store.keys.revoke("a1", "k1", T + 6 * MIN);
      ok((await store.keys.byHash("hash-k1"))!.key.revokedAt);
    },
  },
  {
    name:
      "keys carry the member who made them and that member's role now; the last owner stays owner",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "o@x.test"));
      await store.accounts.addMember(memberOf("m2", "a1", "p@x.test", "OWNER"));
      await store.keys.create(keyOf("k1", "ci", T, { memberId: "m2" }));
      await store.keys.create(keyOf("k2", "admin", T));
      equal((await store.keys.byHash("hash-k1"))!.makerRole, "OWNER");
      equal((await store.keys.byHash("hash-k1"))!.key.memberId, "m2");
      equal((await store.keys.byHash("hash-k2"))!.makerRole, null, "no member made it");
      const demoted = await store.accounts.setRole("a1", "m2", "MEMBER");
      deepStrictEqual(demoted && demoted !== "last_owner" ? demoted.role : demoted, "MEMBER");
      equal((await store.keys.byHash("hash-k1"))!.makerRole, "MEMBER", "at once");
      equal(await store.accounts.setRole("a1", "m1", "ADMIN"), "last_owner");
      equal(await store.accounts.setRole("a1", "nobody", "ADMIN"), null);
      equal(await store.accounts.setRole("a2", "m1", "ADMIN"), null, "another account's");
      equal((await store.accounts.membershipByEmail("o@x.test"))!.member.role, "OWNER");
    },
  },
];
