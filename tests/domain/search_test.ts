import { deepStrictEqual, equal } from "node:assert/strict";
import { rankSearch, SEARCH_TIERS, type Searchable, searchTier } from "../../domain/mod.ts";

const entry = (name: string, slug: string, domains: string[] = []): Searchable => ({
  name,
  slug,
  domains,
});

Deno.test("search tiers: exact, prefix, initials and domains, word start, substring, none", () => {
  const cases: [string, Searchable, number | null][] = [
    ["github", entry("GitHub", "github"), SEARCH_TIERS.exact],
    ["digital ocean", entry("DigitalOcean", "digitalocean"), SEARCH_TIERS.exact],
    ["git", entry("GitHub", "github"), SEARCH_TIERS.prefix],
    ["aws", entry("Amazon Web Services", "amazon-web-services"), SEARCH_TIERS.prefix],
    ["aws", entry("Amazon", "amazon", ["aws.amazon.com"]), SEARCH_TIERS.prefix],
    ["ocean", entry("DigitalOcean", "digitalocean"), SEARCH_TIERS.wordStart],
    ["cloud", entry("Google Cloud", "google-cloud"), SEARCH_TIERS.wordStart],
    ["git", entry("Digital Pacific", "digital-pacific"), SEARCH_TIERS.contains],
    ["%_", entry("zeta 100%_off", "zeta"), SEARCH_TIERS.contains],
    ["stripe", entry("GitHub", "github"), null],
    ["   ", entry("GitHub", "github"), null],
  ];
  for (const [q, e, tier] of cases) equal(searchTier(q, e), tier, `${q} → ${e.name}`);
});

Deno.test("ranking: tier first, then shorter names, then by name; non-matches dropped", () => {
  const ranked = rankSearch("git", [
    entry("CoachHub - The digital coaching platform", "coachhub"),
    entry("GitLabHost", "gitlabhost"),
    entry("GitBook", "gitbook"),
    entry("GitLab", "gitlab"),
    entry("GitHub", "github"),
    entry("Stripe", "stripe"),
    entry("Logit.io", "logit-io"),
  ]);
  deepStrictEqual(ranked.map((e) => e.slug), [
    "github",
    "gitlab",
    "gitbook",
    "gitlabhost",
    "logit-io",
    "coachhub",
  ]);
});

Deno.test("words in any order, other names, the company, hosts and typos", () => {
  const azure: Searchable = {
    name: "Azure",
    slug: "azure",
    domains: ["azure.com"],
    provider: "microsoft",
    aliases: ["Windows Azure"],
  };
  const cases: [string, Searchable, number | null][] = [
    ["windows azure", azure, SEARCH_TIERS.exact],
    ["portal.azure.com", azure, SEARCH_TIERS.prefix],
    ["https://azure.com/status", azure, SEARCH_TIERS.exact],
    ["microsoft azure", azure, SEARCH_TIERS.words],
    ["azure microsoft cloud", azure, SEARCH_TIERS.words],
    ["microsoft", azure, null],
    ["azrue", azure, SEARCH_TIERS.typo],
    ["zure", azure, SEARCH_TIERS.contains],
    ["stirpe", entry("Stripe", "stripe"), SEARCH_TIERS.typo],
    ["githb", entry("GitHub", "github"), SEARCH_TIERS.typo],
    ["xithub", entry("GitHub", "github"), null],
  ];
  for (const [q, e, tier] of cases) equal(searchTier(q, e), tier, `${q} → ${e.name}`);
});

Deno.test("within the words tier, the vendor the text covers best and names most fully first", () => {
  const ranked = rankSearch("docker hub", [
    entry("GitHub", "github"),
    entry("HubSpot", "hubspot"),
    entry("Docker", "docker"),
    entry("Docker Build Cloud", "docker-build-cloud"),
  ]);
  // Docker is all named; GitHub (git·hub) and HubSpot (hub…) cover one word too, with a word left.
  deepStrictEqual(ranked.map((e) => e.slug), ["docker", "github", "hubspot", "docker-build-cloud"]);
  deepStrictEqual(
    rankSearch("stirpe", [entry("Strike", "strike"), entry("Stripe", "stripe")]).map((e) => e.slug),
    ["stripe", "strike"],
    "a swap of two letters is one typo, closer than two",
  );
});
