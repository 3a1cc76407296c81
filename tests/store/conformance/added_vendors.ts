/**
 * Conformance: status pages accounts add by URL (`catalog.addVendor` and friends): one vendor per
 * page, polled once, listed only for the accounts that added it, stopped when the last one
 * removes it, and catalog search seeing aliases and companies.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { NewAddedVendor, Store } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import { T, vendor, withVendors } from "./_support.ts";
import { accountOf, memberOf } from "./accounts.ts";

/** A page read once, as the app hands it to the store. */
function page(name: string, url: string): NewAddedVendor {
  return {
    name,
    slug: name.toLowerCase(),
    statusPageUrl: url,
    platform: "statuspage",
    domains: [],
  };
}

async function twoAccounts(store: Store): Promise<void> {
  await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
  await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
}

const listed = async (store: Store, account?: string) =>
  (await store.catalog.candidates(account === undefined ? {} : { account })).map((c) => c.slug)
    .sort();

export const addedVendorCases: Case[] = [
  {
    name:
      "catalog.addVendor: one vendor per page however many accounts add it, listed only for them",
    async run(store) {
      await twoAccounts(store);
      await withVendors(store, [vendor("acme")]);
      const first = await store.catalog.addVendor(
        "a1",
        page("Crisp", "https://status.crisp.test/"),
        T,
        3,
      );
      deepStrictEqual(first, { kind: "added", slug: "crisp", created: true });
      // The same page, spelled otherwise, by another account: linked, not stored twice.
      const second = await store.catalog.addVendor(
        "a2",
        page("Crisp again", "http://STATUS.crisp.test"),
        T + 1,
        3,
      );
      deepStrictEqual(second, { kind: "added", slug: "crisp", created: false });
      deepStrictEqual(
        await store.catalog.addVendor("a2", page("x", "https://status.crisp.test"), T, 3),
        {
          kind: "added",
          slug: "crisp",
          created: false,
        },
        "adding it again changes nothing",
      );
      deepStrictEqual(await listed(store), ["acme"], "nobody else sees it listed");
      deepStrictEqual(await listed(store, "a1"), ["acme", "crisp"]);
      deepStrictEqual((await store.catalog.names()).map((n) => n.slug), ["acme"]);
      equal((await store.catalog.service("crisp"))?.name, "Crisp", "readable by its slug");
      deepStrictEqual(await store.catalog.byPageKey("status.crisp.test"), {
        slug: "crisp",
        origin: "account",
      });
      const mine = await store.catalog.accountVendors("a2");
      deepStrictEqual(mine.map((v) => [v.slug, v.accounts, v.addedAt, v.origin]), [[
        "crisp",
        2,
        T + 1,
        "account",
      ]]);
      // A listed vendor's page adds nothing.
      deepStrictEqual(
        await store.catalog.addVendor("a1", page("Acme", "https://status.acme.test/"), T, 3),
        { kind: "listed", slug: "acme" },
      );
    },
  },
  {
    name: "catalog.addVendor stops at the account's limit and stores nothing more",
    async run(store) {
      await twoAccounts(store);
      for (const n of [1, 2]) {
        equal(
          (await store.catalog.addVendor("a1", page(`P${n}`, `https://s${n}.test`), T, 2)).kind,
          "added",
        );
      }
      deepStrictEqual(await store.catalog.addVendor("a1", page("P3", "https://s3.test"), T, 2), {
        kind: "limit",
      });
      equal(await store.catalog.byPageKey("s3.test"), null);
      equal((await store.catalog.accountVendors("a1")).length, 2);
      // Another account linking an existing page still counts against its own limit only.
      equal(
        (await store.catalog.addVendor("a2", page("P1", "https://s1.test"), T, 1)).kind,
        "added",
      );
    },
  },
  {
    name:
      "catalog.removeAccountVendor: the last account to remove a page stops its polling; adding it again revives it",
    async run(store) {
      await twoAccounts(store);
      await store.catalog.addVendor("a1", page("Crisp", "https://status.crisp.test"), T, 5);
      await store.catalog.addVendor("a2", page("Crisp", "https://status.crisp.test"), T, 5);
      equal(await store.catalog.removeAccountVendor("a1", "acme"), false, "not one of its own");
      equal(await store.catalog.removeAccountVendor("a1", "crisp"), true);
      ok((await store.catalog.service("crisp")) !== null, "still polled for a2");
      equal(await store.catalog.removeAccountVendor("a1", "crisp"), false, "already removed");
      equal(await store.catalog.removeAccountVendor("a2", "crisp"), true);
      equal(await store.catalog.service("crisp"), null, "no longer polled");
      equal(await store.catalog.byPageKey("status.crisp.test"), null);
      deepStrictEqual(
        await store.catalog.addVendor("a1", page("Other", "https://status.crisp.test/"), T + 5, 5),
        { kind: "added", slug: "crisp", created: true },
        "the same vendor, polled again",
      );
      ok((await store.catalog.service("crisp")) !== null);
    },
  },
  {
    name: "catalog.promote lists an added vendor for everyone; the catalog file never retires it",
    async run(store) {
      await twoAccounts(store);
      await withVendors(store, [vendor("acme")]);
      await store.catalog.addVendor("a1", page("Crisp", "https://status.crisp.test"), T, 5);
      equal(await store.catalog.promote("acme"), false, "a catalog vendor is not promoted");
      equal(await store.catalog.promote("crisp"), true);
      deepStrictEqual(await listed(store), ["acme", "crisp"]);
      const sync = await store.catalog.sync([vendor("acme")], T + 1);
      equal(sync.retired, 0, "the catalog file does not retire what was added");
      deepStrictEqual(await listed(store), ["acme", "crisp"]);
      equal((await store.catalog.accountVendors("a1"))[0]?.origin, "promoted");
    },
  },
  {
    name: "catalog.searchVersion moves with every change search could see, and only then",
    async run(store) {
      await twoAccounts(store);
      const v0 = await store.catalog.searchVersion();
      await store.catalog.sync([vendor("acme")], T);
      const v1 = await store.catalog.searchVersion();
      ok(v1 > v0, "a sync that added a vendor");
      await store.catalog.sync([vendor("acme")], T + 1);
      equal(await store.catalog.searchVersion(), v1, "a sync that changed nothing");
      await store.catalog.addVendor("a1", page("Crisp", "https://status.crisp.test"), T, 5);
      const v2 = await store.catalog.searchVersion();
      ok(v2 > v1, "an added vendor");
      await store.catalog.promote("crisp");
      const v3 = await store.catalog.searchVersion();
      ok(v3 > v2, "a promotion");
      await store.catalog.removeAccountVendor("a1", "crisp");
      ok(await store.catalog.searchVersion() > v3, "a removal");
    },
  },
  {
    name: "catalog.candidates carry aliases and the company; sync keeps aliases current",
    async run(store) {
      await store.catalog.sync(
        [vendor("azure", { name: "Azure", provider: "microsoft", aliases: ["Microsoft Azure"] })],
        T,
      );
      const [c] = await store.catalog.candidates({});
      deepStrictEqual([c?.aliases, c?.provider], [["Microsoft Azure"], "microsoft"]);
      const again = await store.catalog.sync(
        [vendor("azure", { name: "Azure", provider: "microsoft", aliases: ["Windows Azure"] })],
        T + 1,
      );
      equal(again.updated, 1);
      deepStrictEqual((await store.catalog.candidates({}))[0]?.aliases, ["Windows Azure"]);
    },
  },
];

/** A catalog row a source names without proof. */
const candidate = (slug: string) =>
  vendor(slug, { statusPageUrl: `https://${slug}.statuspage.test`, candidate: true });

export const candidateCases: Case[] = [
  {
    name:
      "catalog candidates are stored unlisted and unread until a check proves them; the proof is kept",
    async run(store) {
      const sync = await store.catalog.sync([vendor("acme"), candidate("crisp")], T);
      equal(sync.added, 2);
      deepStrictEqual(await listed(store), ["acme"], "not listed");
      equal(await store.catalog.service("crisp"), null, "not read by slug");
      deepStrictEqual(
        (await store.polls.claimDue(T, 10)).map((v) => v.slug),
        ["acme"],
        "not polled",
      );
      deepStrictEqual(await store.catalog.candidatesToCheck(T, 10), [
        { slug: "crisp", name: "Crisp", statusPageUrl: "https://crisp.statuspage.test" },
      ]);
      // A check that proves nothing is kept, and the candidate waits until the next one is due.
      equal(
        await store.catalog.recordCandidateCheck("crisp", {
          at: T + 1,
          proof: null,
          detail: 'the page calls itself "Other"',
        }),
        true,
      );
      deepStrictEqual(await store.catalog.candidatesToCheck(T + 1, 10), []);
      equal((await store.catalog.candidatesToCheck(T + 2, 10)).length, 1);
      // Proven: listed and due at once.
      await store.catalog.recordCandidateCheck("crisp", {
        at: T + 2,
        proof: 'the page calls itself "Crisp"',
        detail: "",
      });
      deepStrictEqual(await listed(store), ["acme", "crisp"]);
      ok((await store.polls.claimDue(T + 2, 10)).some((v) => v.slug === "crisp"));
      deepStrictEqual(await store.catalog.candidatesToCheck(T + 99, 10), []);
      equal(
        await store.catalog.recordCandidateCheck("acme", { at: T, proof: "x", detail: "" }),
        false,
        "only a candidate is checked",
      );
      // The catalog file naming it a candidate again does not demote what was proven.
      await store.catalog.sync([vendor("acme"), candidate("crisp")], T + 3);
      deepStrictEqual(await listed(store), ["acme", "crisp"]);
    },
  },
];
