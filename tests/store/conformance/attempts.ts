/**
 * Conformance cases for `store.attempts`: fixed windows, refused attempts not counted, refunds,
 * separate limits and keys.
 * @module
 */
import { equal, ok } from "node:assert/strict";
import type { Case } from "./_support.ts";
import { MIN, T } from "./_support.ts";

const RULE = { limit: 3, windowMs: 10 * MIN, maxKeys: 100 };

export const attemptCases: readonly Case[] = [
  {
    name:
      "attempts.take allows up to the limit per window, then says how long to wait without counting",
    async run(store) {
      const a = store.attempts;
      for (let i = 0; i < 3; i++) equal(await a.take("login", "k", RULE, T + i), 0);
      equal(await a.take("login", "k", RULE, T + MIN), 9 * MIN);
      equal(await a.take("login", "k", RULE, T + 2 * MIN), 8 * MIN, "refusals did not count");
      equal(await a.take("login", "other", RULE, T + MIN), 0, "another key has its own window");
      equal(await a.take("signup", "k", RULE, T + MIN), 0, "another limit has its own counters");
      equal(await a.take("login", "k", RULE, T + 10 * MIN), 0, "a new window starts afresh");
    },
  },
  {
    name: "attempts.refund gives an attempt back within its window only",
    async run(store) {
      const a = store.attempts;
      for (let i = 0; i < 3; i++) equal(await a.take("login", "k", RULE, T), 0);
      await a.refund("login", "k", RULE, T + MIN);
      equal(await a.take("login", "k", RULE, T + MIN), 0, "the refunded attempt is free again");
      ok(await a.take("login", "k", RULE, T + MIN) > 0);
      await a.refund("login", "k", RULE, T + 11 * MIN); // the window is over: nothing to give
      equal(await a.take("login", "k", RULE, T + 11 * MIN), 0);
    },
  },
];
