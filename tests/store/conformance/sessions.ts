/**
 * Conformance: `store.sessions`.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { MIN, T } from "./_support.ts";

export const sessionCases: Case[] = [
  {
    name: "sessions: start, resolve while live with member and account, end; expired ones are gone",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "o@x.test"));
      const session = (id: string, at: number, ttl: number) => ({
        idHash: id,
        memberId: "m1",
        csrfToken: `csrf-${id}`,
        createdAt: at,
        expiresAt: at + ttl,
      });
      await store.sessions.start(session("s1", T, 10 * MIN), T);
      const got = (await store.sessions.resolve("s1", T + MIN))!;
      deepStrictEqual(got.session, session("s1", T, 10 * MIN));
      deepStrictEqual(got.member, { id: "m1", accountId: "a1", email: "o@x.test", role: "OWNER" });
      deepStrictEqual(got.account, accountOf("a1"));
      equal(await store.sessions.resolve("s1", T + 10 * MIN), null, "expired at expiresAt");
      equal(await store.sessions.resolve("nope", T), null);
      await store.sessions.start(session("s2", T + 11 * MIN, 10 * MIN), T + 11 * MIN);
      equal(await store.sessions.resolve("s1", T), null, "expired sessions are deleted at start");
      await store.sessions.end("s2");
      await store.sessions.end("unknown");
      equal(await store.sessions.resolve("s2", T + 12 * MIN), null);
    },
  },
];
