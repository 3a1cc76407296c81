/**
 * `GET /api/lookup` and MCP `identify_vendor` over the built-in catalog: what a developer pastes
 * from a failed call gives the vendor whose status matters, with the component of a region when
 * the vendor names regions; nothing fitting gives no match.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { loadCatalog } from "../../../ingest/mod.ts";
import { identifyVendorTool } from "../../../routes/mcp/tools/vendors.ts";
import { apiRig, T0 } from "../../support/api.ts";
import { addComponent } from "../../support/seed.ts";

async function lookup(r: ReturnType<typeof apiRig>, target: string) {
  const res = await r.get(`/api/lookup?target=${encodeURIComponent(target)}`);
  equal(res.status, 200, target);
  return (await res.json()).matches as {
    slug: string;
    why: string;
    component: string | null;
    currentStatus: string;
  }[];
}

Deno.test("lookup: hosts, URLs and error lines name their vendor; a region names its component", async () => {
  const r = apiRig();
  try {
    await r.store.catalog.sync(loadCatalog(), T0);
    await addComponent(r.store, "amazon-web-services", {
      externalId: "s3-eu-west-1",
      name: "Amazon Simple Storage Service (Ireland)",
      status: "PARTIAL_OUTAGE",
    }, T0);
    await addComponent(r.store, "amazon-web-services", {
      externalId: "ec2-eu-west-1",
      name: "Amazon Elastic Compute Cloud (Ireland)",
      status: "OPERATIONAL",
    }, T0);
    equal((await lookup(r, "api.stripe.com"))[0]?.slug, "stripe");
    equal((await lookup(r, "https://api.openai.com/v1/chat/completions"))[0]?.slug, "openai");
    equal((await lookup(r, "Error: connect ETIMEDOUT api.github.com:443"))[0]?.slug, "github");
    const s3 = (await lookup(r, "s3.eu-west-1.amazonaws.com"))[0]!;
    deepStrictEqual(
      [s3.slug, s3.component, s3.currentStatus],
      ["amazon-web-services", "Amazon Simple Storage Service (Ireland)", "PARTIAL_OUTAGE"],
    );
    match(s3.why, /under amazonaws\.com, a domain of Amazon Web Services/);
    // Nothing fitting is no match, never a guess (npm is not in the catalog).
    deepStrictEqual(await lookup(r, "getaddrinfo ENOTFOUND registry.npmjs.org"), []);
    deepStrictEqual(await lookup(r, "connect ECONNREFUSED 10.0.0.7:5432"), []);
    equal((await r.get("/api/lookup?target=")).status, 400);

    const viaMcp = await identifyVendorTool.run(
      r.ctx,
      {
        kind: "api_key",
        keyId: "k",
        scopes: ["status:read", "mcp:invoke"],
        account: { id: "a", name: "a", plan: "PRO", slaTarget: 99.9, createdAt: T0 },
      },
      { target: "https://api.openai.com/v1/models" },
    ) as { matches: { slug: string }[] };
    equal(viaMcp.matches[0]?.slug, "openai");
  } finally {
    await r.close();
  }
});
