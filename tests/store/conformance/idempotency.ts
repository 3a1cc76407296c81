/**
 * Conformance cases for `store.idempotency`.
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { DAY, T } from "./_support.ts";

export const idempotencyCases: readonly Case[] = [
  {
    name: "idempotency: a key starts once, replays its answer, expires, and is per account",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const s = store.idempotency;
      deepStrictEqual(await s.begin("a1", "k", "f1", T, T - DAY), { state: "started" });
      deepStrictEqual(await s.begin("a1", "k", "f1", T, T - DAY), {
        state: "in_progress",
        fingerprint: "f1",
      });
      deepStrictEqual(await s.begin("a2", "k", "f2", T, T - DAY), { state: "started" });
      const answer = { status: 201, body: '{"id":"x"}', location: "/api/user/monitors/x" };
      await s.finish("a1", "k", answer);
      deepStrictEqual(await s.begin("a1", "k", "f9", T + 1, T - DAY), {
        state: "done",
        fingerprint: "f1",
        answer,
      });
      // Expired: the key starts afresh.
      deepStrictEqual(await s.begin("a1", "k", "f3", T + 2 * DAY, T + DAY), { state: "started" });
      // Abandoned (the create failed): free again.
      await s.abandon("a1", "k");
      deepStrictEqual(await s.begin("a1", "k", "f4", T + 2 * DAY, T + DAY), { state: "started" });
      deepStrictEqual(await s.prune(T + DAY), 1, "a2's old key went");
    },
  },
];
