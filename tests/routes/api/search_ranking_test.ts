/**
 * Catalog search over the real built-in catalog (2,400+ vendors): the vendor people mean comes
 * first on every surface that searches (REST listServices, MCP list_services, /services).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { loadCatalog } from "../../../ingest/mod.ts";
import { listServicesTool } from "../../../routes/mcp/tools/list_services.ts";
import { apiRig, T0 } from "../../support/api.ts";

async function builtInCatalogRig() {
  const r = apiRig();
  await r.store.catalog.sync(loadCatalog(), T0);
  return r;
}

async function restSlugs(r: ReturnType<typeof apiRig>, q: string): Promise<string[]> {
  const res = await r.get(`/api/services?q=${encodeURIComponent(q)}&limit=5`);
  equal(res.status, 200);
  return ((await res.json()).content as { slug: string }[]).map((s) => s.slug);
}

Deno.test("REST search ranks GitHub first for git, AWS for aws, Stripe for stripe", async () => {
  const r = await builtInCatalogRig();
  try {
    const git = await restSlugs(r, "git");
    equal(git[0], "github");
    deepStrictEqual(git.slice(0, 2), ["github", "gitlab"], "prefix matches before substrings");
    ok(!git.includes("coachhub-the-digital-coaching-platform"), "substring matches come last");
    equal((await restSlugs(r, "aws"))[0], "amazon-web-services");
    equal((await restSlugs(r, "stripe"))[0], "stripe");
    equal((await restSlugs(r, "GitHub"))[0], "github", "case does not matter");
  } finally {
    await r.close();
  }
});

Deno.test("MCP list_services and the /services page use the same ranking", async () => {
  const r = await builtInCatalogRig();
  try {
    const result = await listServicesTool.run(
      r.ctx,
      {
        kind: "api_key",
        keyId: "k",
        scopes: ["status:read", "mcp:invoke"],
        account: { id: "a", name: "a", plan: "PRO", slaTarget: 99.9, createdAt: T0 },
      },
      { q: "git", limit: 3, page: 0, sort: "name" },
    ) as { services: { slug: string }[] };
    deepStrictEqual(result.services.map((s) => s.slug), ["github", "gitlab", "gitbook"]);

    const page = await (await r.get("/services?q=aws")).text();
    // The first row's link (after the vendor's mark).
    const first =
      /<tbody>\s*<tr>\s*<td[^>]*>\s*(?:<span class="mark[^>]*>[^<]*<\/span>\s*)?<a href="\/services\/([^"]+)"/
        .exec(page);
    equal(first?.[1], "amazon-web-services");
  } finally {
    await r.close();
  }
});

/** What people type, and the vendor they mean (the cases, then a held-out list). */
const PEOPLE_TYPE: readonly (readonly [string, string])[] = [
  ["Microsoft Azure", "azure"],
  ["Docker Hub", "docker"],
  ["MongoDB Atlas", "mongodb-cloud"],
  ["Grafana Cloud", "grafana"],
  ["Atlassian Jira", "jira-software"],
  ["Jira", "jira-software"],
  ["Duo Security", "duo"],
  ["Microsoft 365", "microsoft-cloud"],
  ["githb", "github"],
  ["stirpe", "stripe"],
  ["stripe.com", "stripe"],
  ["api.openai.com", "openai"],
  // Held out: none of these is an alias written for the test.
  ["Amazon Web Service", "amazon-web-services"],
  ["Google Workspace", "google-workspace"],
  ["Microsoft Teams", "microsoft-teams"],
  ["Azure DevOps", "azure-devops"],
  ["Jira Service Management", "jira-service-management"],
  ["hub spot", "hubspot"],
  ["paypall", "paypal"],
  ["mailchip", "mailchimp"],
  ["zendsk", "zendesk"],
  ["vercell", "vercel"],
  ["Cloudfare", "cloudflare"],
  ["gitlab.com", "gitlab"],
  ["zoom.us", "zoom"],
  ["Datadog EU", "datadog-eu"],
  ["Google Maps", "google-maps-platform"],
  ["Microsoft Office", "microsoft-office365"],
];

Deno.test("search finds what people type: other names, words in any order, domains, typos", async () => {
  const r = await builtInCatalogRig();
  try {
    const missed: string[] = [];
    for (const [q, want] of PEOPLE_TYPE) {
      const top = (await restSlugs(r, q)).slice(0, 3);
      if (!top.includes(want)) missed.push(`${q} → ${top.join(", ")} (meant ${want})`);
    }
    deepStrictEqual(missed, []);
    equal((await restSlugs(r, "Microsoft Azure"))[0], "azure");
    equal((await restSlugs(r, "Jira"))[0], "jira-software");
  } finally {
    await r.close();
  }
});

Deno.test("a search that finds nothing says so, with the closest names and the way to add a page", async () => {
  const r = await builtInCatalogRig();
  try {
    const result = await listServicesTool.run(
      r.ctx,
      {
        kind: "api_key",
        keyId: "k",
        scopes: ["status:read", "mcp:invoke"],
        account: { id: "a", name: "a", plan: "PRO", slaTarget: 99.9, createdAt: T0 },
      },
      { q: "mygithubaccount", limit: 3, page: 0, sort: "name" },
    ) as { services: unknown[]; didYouMean?: string[] };
    deepStrictEqual(result.services, []);
    ok(result.didYouMean?.includes("github"), JSON.stringify(result.didYouMean));
    const rest = await (await r.get("/api/services?q=mygithubaccount")).json();
    deepStrictEqual(rest.content, []);
    ok(rest.didYouMean.includes("github"), JSON.stringify(rest.didYouMean));
    equal((await (await r.get("/api/services?q=github")).json()).didYouMean, undefined);
    const page = await (await r.get("/services?q=mygithubaccount")).text();
    ok(page.includes("No service matches “mygithubaccount”"));
    ok(/Closest:.*href="\/services\/github"/s.test(page));
    ok(page.includes("Add its status page by URL"));
  } finally {
    await r.close();
  }
});
