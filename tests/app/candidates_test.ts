/**
 * Catalog candidates (#47): a page a source names without proof joins the catalog only when a
 * reading proves it is the vendor's (its own name, or an address of the vendor's own name); the
 * proof is kept; one that proves nothing stays unlisted and is checked again a week later.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { candidateProof, DAY_MS, type PageRead, type Vendor } from "../../domain/mod.ts";
import { checkCandidates, listServices } from "../../app/mod.ts";
import { T0, testContext } from "../support/accounts.ts";

Deno.test("a page proves a candidate by its own name or the vendor's own address, never a shared host", () => {
  const crisp = { name: "Crisp", slug: "crisp" };
  equal(
    candidateProof(crisp, { name: "Crisp", url: "https://crisp.statuspage.io" }),
    'the page calls itself "Crisp"',
  );
  equal(
    candidateProof(crisp, { name: "Crisp IM SAS", url: "https://x.test" }),
    'the page calls itself "Crisp IM SAS"',
  );
  equal(
    candidateProof(crisp, { name: "Status", url: "https://status.crisp.chat/" }),
    "the page is served from status.crisp.chat",
  );
  equal(
    candidateProof(crisp, { name: "Status", url: "https://crisp.statuspage.io" }),
    null,
    "a shared host proves nothing",
  );
  equal(candidateProof(crisp, { name: "Acme", url: "https://status.acme.test" }), null);
  equal(
    candidateProof({ name: "AB", slug: "ab" }, { name: "ABBA", url: "https://x.test" }),
    null,
    "too short to tell",
  );
});

Deno.test("the check lists a proven candidate with its proof and leaves the others for a week", async () => {
  const clock = {
    t: T0,
    now() {
      return this.t;
    },
  };
  const reads: string[] = [];
  const pages: Record<string, PageRead> = {
    "https://crisp.statuspage.test": {
      ok: true,
      platform: "statuspage",
      name: "Crisp",
      url: "https://crisp.statuspage.test",
      hosts: ["crisp.statuspage.test"],
      indicator: "OPERATIONAL",
      components: [],
    },
    "https://other.statuspage.test": {
      ok: true,
      platform: "statuspage",
      name: "Somebody Else",
      url: "https://other.statuspage.test",
      hosts: ["other.statuspage.test"],
      indicator: "OPERATIONAL",
      components: [],
    },
  };
  await using ctx = testContext({
    clock,
    readStatusPage: (url) => {
      reads.push(url);
      return Promise.resolve(
        pages[url] ?? { ok: false, reason: "unreachable", message: "no answer" },
      );
    },
  });
  const candidate = (slug: string, name: string): Vendor => ({
    name,
    slug,
    statusPageUrl: `https://${slug}.statuspage.test`,
    platform: "statuspage",
    category: "other",
    provider: slug,
    domains: [],
    candidate: true,
  });
  await ctx.store.catalog.sync([
    candidate("crisp", "Crisp"),
    candidate("other", "Other"),
    candidate("gone", "Gone"),
  ], T0);
  const first = await checkCandidates(ctx, 10);
  deepStrictEqual([first.checked, first.proven], [3, ["crisp"]]);
  const listed = (await listServices(ctx, {}, { page: 0, limit: 10 })).content.map((s) => s.slug);
  deepStrictEqual(listed, ["crisp"]);
  ok(reads.length === 3);
  // Nothing more is read until a week has passed.
  equal((await checkCandidates(ctx, 10)).checked, 0);
  clock.t += 8 * DAY_MS;
  deepStrictEqual((await checkCandidates(ctx, 10)).checked, 2, "the two not proven, again");
});
