/**
 * Conformance cases for `store.mail`: consents per account and address, suppressions for every
 * account, and server secrets made once.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { Case } from "./_support.ts";
import { T } from "./_support.ts";

export const mailCases: readonly Case[] = [
  {
    name: "mail: consent is asked, confirmed once by its token, and per account",
    async run(store) {
      const m = store.mail;
      deepStrictEqual([...await m.consents("a1", ["x@y.test"])], []);
      equal(await m.requestConsent("a1", "x@y.test", "h1", T), true);
      equal(await m.requestConsent("a1", "x@y.test", "h2", T + 1), true, "a new token replaces");
      deepStrictEqual([...await m.consents("a1", ["x@y.test", "z@y.test"])], [[
        "x@y.test",
        "pending",
      ]]);
      equal(await m.confirm("h1", T + 2), null, "the replaced token no longer works");
      deepStrictEqual(await m.confirm("h2", T + 2), { accountId: "a1", address: "x@y.test" });
      equal(await m.confirm("h2", T + 3), null, "once");
      deepStrictEqual([...await m.consents("a1", ["x@y.test"])], [["x@y.test", "confirmed"]]);
      deepStrictEqual([...await m.consents("a2", ["x@y.test"])], [], "another account asks anew");
      equal(await m.requestConsent("a1", "x@y.test", "h3", T + 4), false, "already confirmed");
    },
  },
  {
    name: "mail: a suppression holds for every account until the address confirms again",
    async run(store) {
      const m = store.mail;
      await m.requestConsent("a1", "x@y.test", "h1", T);
      await m.confirm("h1", T + 1);
      await m.suppress("x@y.test", { reason: "unsubscribed", at: T + 2 });
      deepStrictEqual([...await m.suppressions(["x@y.test", "o@y.test"])], [[
        "x@y.test",
        { reason: "unsubscribed", at: T + 2 },
      ]]);
      deepStrictEqual(
        [...await m.consents("a1", ["x@y.test"])],
        [["x@y.test", "pending"]],
        "its consents are withdrawn",
      );
      await m.suppress("x@y.test", { reason: "bounced", at: T + 3 });
      equal((await m.suppressions(["x@y.test"])).get("x@y.test")!.reason, "bounced");
      await m.requestConsent("a2", "x@y.test", "h2", T + 4);
      await m.confirm("h2", T + 5);
      deepStrictEqual([...await m.suppressions(["x@y.test"])], [], "confirming lifts it");
      await m.suppress("x@y.test", { reason: "unsubscribed", at: T + 6 });
      await m.unsuppress("x@y.test");
      deepStrictEqual([...await m.suppressions(["x@y.test"])], []);
    },
  },
  {
    name: "mail: a server secret is made once and kept",
    async run(store) {
      const first = await store.mail.secret("ack", () => "one");
      equal(first, "one");
      equal(await store.mail.secret("ack", () => "two"), "one");
      equal(await store.mail.secret("other", () => "three"), "three");
    },
  },
];
