/**
 * `/api/user/monitors/suggestions` (issue #12): real dependency files (cal.com's package.json, a
 * Terraform lock file) and requirements.txt, go.mod, a .tf file with a region and domains give
 * the catalog services they imply with reasons; files statusd cannot read are 400s naming them;
 * accepting creates every chosen monitor or none (plan limit, a bad item), replays with the
 * same Idempotency-Key, and the scopes are enforced.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { loadCatalog, loadCatalogSignals } from "../../../ingest/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, key, setPlanInStore, T0, testContext } from "../../support/accounts.ts";
import { recordReading, syncVendors } from "../../support/seed.ts";

const FIXTURES = new URL("../../fixtures/suggestions/", import.meta.url);
const fixture = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));

const AWS_COMPONENTS = [
  "Amazon Elastic Compute Cloud (Oregon)",
  "AWS Lambda (Oregon)",
  "Amazon Elastic Compute Cloud (N. Virginia)",
  "Amazon Elastic Compute Cloud (us-west-2-lax-1)",
];

async function setup() {
  const catalog = loadCatalog();
  const ctx = testContext({ signals: loadCatalogSignals(catalog) });
  await syncVendors(ctx.store, catalog, T0 - 40 * 86_400_000);
  await recordReading(ctx.store, "amazon-web-services", {
    indicator: "OPERATIONAL",
    components: AWS_COMPONENTS.map((name) => ({
      externalId: name,
      name,
      group: null,
      status: "OPERATIONAL",
    })),
    incidents: [],
  }, T0 - 86_400_000);
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  const rw = await key(ctx, who, "rw", ["monitors:read", "monitors:write"]);
  return {
    [Symbol.asyncDispose]: () => ctx.store.close(),
    ctx,
    app,
    who,
    rw,
    auth: { "X-API-Key": rw },
  };
}

function post(
  app: ReturnType<typeof createServer>,
  path: string,
  headers: Record<string, string>,
  body: unknown,
) {
  return app.request(path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

interface Suggestion {
  service: string;
  serviceName: string;
  components: string[];
  reasons: string[];
  monitorId: string | null;
}

async function suggest(
  app: ReturnType<typeof createServer>,
  auth: Record<string, string>,
  body: unknown,
): Promise<{ suggestions: Suggestion[]; files: Record<string, unknown>[] }> {
  const res = await post(app, "/api/user/monitors/suggestions", auth, body);
  equal(res.status, 200, await res.clone().text());
  equal(res.headers.get("cache-control"), "no-store");
  return await res.json();
}

const bySlug = (s: Suggestion[]) => Object.fromEntries(s.map((x) => [x.service, x]));

Deno.test("suggestions: cal.com's real package.json names the services its SDKs talk to", async () => {
  await using rig_ = await setup();
  const { app, auth } = rig_;
  const r = await suggest(app, auth, {
    files: [{ name: "package.json", content: fixture("calcom-web-package.json") }],
  });
  deepStrictEqual(r.suggestions.map((s) => s.service).sort(), [
    "posthog",
    "sentry",
    "stripe",
    "upstash",
    "vercel",
  ]);
  const s = bySlug(r.suggestions);
  deepStrictEqual(s.stripe!.reasons, [
    "npm package @stripe/react-stripe-js (package.json)",
    "npm package @stripe/stripe-js (package.json)",
    "npm package stripe (package.json)",
  ]);
  deepStrictEqual(s.sentry!.reasons, ["npm package @sentry/nextjs (package.json)"]);
  equal(s.stripe!.serviceName, "Stripe");
  equal(r.suggestions[0]!.service, "stripe", "most reasons first");
  deepStrictEqual(r.files, [{
    name: "package.json",
    packages: 169,
    regions: [],
    domains: 0,
    services: 5,
  }]);
});

Deno.test("suggestions: a real Terraform lock file and a .tf region pick AWS and its region's components", async () => {
  await using rig_ = await setup();
  const { app, auth } = rig_;
  const r = await suggest(app, auth, {
    files: [
      { name: ".terraform.lock.hcl", content: fixture("paddi-us-west-2.terraform.lock.hcl") },
      {
        name: "infra/main.tf",
        content:
          'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n' +
          '      version = "~> 4.0"\n    }\n  }\n}\n\nprovider "aws" {\n  region = "us-west-2"\n}\n',
      },
    ],
  });
  deepStrictEqual(r.suggestions.map((s) => s.service), ["amazon-web-services"]);
  const aws = r.suggestions[0]!;
  deepStrictEqual(aws.reasons, [
    "Terraform provider hashicorp/aws (.terraform.lock.hcl)",
    "Terraform provider hashicorp/aws, region us-west-2 (infra/main.tf)",
  ]);
  deepStrictEqual(aws.components, [
    "Amazon Elastic Compute Cloud (Oregon)",
    "AWS Lambda (Oregon)",
  ], "the region's components, not N. Virginia nor a local zone");
  equal(r.files[0]!.packages, 4, "aws, external, local, null");
});

Deno.test("suggestions: requirements.txt, go.mod and domains, and what the account monitors already", async () => {
  await using rig_ = await setup();
  const { app, auth } = rig_;
  const made = await post(app, "/api/user/monitors", auth, { service: "slack" });
  equal(made.status, 201);
  const slackMonitor = (await made.json()).id;
  const r = await suggest(app, auth, {
    files: [
      {
        name: "requirements.txt",
        content: "# payments\nStripe>=5.0 ; python_version >= '3.8'\n-r base.txt\n" +
          "sentry-sdk[flask]==2.1.0\nboto3==1.34.0  # storage\nrequests\n",
      },
      {
        name: "go.mod",
        content: "module example.com/shop\n\ngo 1.22\n\nrequire (\n" +
          "\tgithub.com/stripe/stripe-go/v76 v76.25.0\n" +
          "\tgithub.com/aws/aws-sdk-go-v2/service/s3 v1.53.1 // indirect\n" +
          "\tgithub.com/aws/aws-sdk-go-v2x v1.0.0\n)\n",
      },
    ],
    domains: ["api.stripe.com", "https://hooks.slack.com/services/T000/B000/XXX"],
  });
  const s = bySlug(r.suggestions);
  deepStrictEqual(Object.keys(s).sort(), ["amazon-web-services", "sentry", "slack", "stripe"]);
  deepStrictEqual(s.stripe!.reasons, [
    "PyPI package stripe (requirements.txt)",
    "Go module github.com/stripe/stripe-go/v76 (go.mod)",
    "domain api.stripe.com",
  ]);
  deepStrictEqual(s["amazon-web-services"]!.reasons, [
    "PyPI package boto3 (requirements.txt)",
    "Go module github.com/aws/aws-sdk-go-v2/service/s3 (go.mod)",
  ], "aws-sdk-go-v2x is another module");
  deepStrictEqual(s.slack!.reasons, ["domain hooks.slack.com"]);
  equal(s.slack!.monitorId, slackMonitor);
  equal(s.stripe!.monitorId, null);
});

Deno.test("suggestions: files statusd cannot read are 400s naming them; nothing at all is a 400", async () => {
  await using rig_ = await setup();
  const { app, auth } = rig_;
  const bad = await post(app, "/api/user/monitors/suggestions", auth, {
    files: [
      { name: "Gemfile.lock", content: "GEM\n  specs:\n    stripe (10.0.0)\n" },
      { name: "package.json", content: "{ not json" },
      { name: "go.mod", content: "   " },
    ],
    domains: ["not a host!"],
  });
  equal(bad.status, 400);
  const body = await bad.json();
  equal(body.error, "invalid_request");
  deepStrictEqual(body.issues.map((i: { parameter: string }) => i.parameter), [
    "files.0",
    "files.1",
    "files.2",
    "domains.0",
  ]);
  match(body.issues[0].message, /cannot read "Gemfile\.lock"; it reads package\.json/);
  match(body.issues[1].message, /^package\.json: not valid JSON/);
  match(body.issues[2].message, /^go\.mod: empty/);
  const none = await post(app, "/api/user/monitors/suggestions", auth, {});
  equal(none.status, 400);
  equal((await none.json()).issues[0].message, "give at least one file or domain");
  const huge = await post(app, "/api/user/monitors/suggestions", auth, {
    files: [{ name: "package-lock.json", content: "x".repeat(4_300_000) }],
  });
  equal(huge.status, 413);
  await huge.body?.cancel();
});

Deno.test("suggestions: accept creates every chosen monitor in one call, or none", async () => {
  await using rig_ = await setup();
  const { ctx, app, who, auth } = rig_;
  const idem = { ...auth, "Idempotency-Key": "b3a1c0de-2f4e-4c8a-9d7b-5e6f7a8b9c0d" };
  const chosen = {
    monitors: [
      { service: "stripe" },
      { service: "amazon-web-services", components: ["aws lambda (oregon)"] },
    ],
  };
  const first = await post(app, "/api/user/monitors/suggestions/accept", idem, chosen);
  equal(first.status, 201);
  const made = await first.json();
  deepStrictEqual(made.monitors.map((m: { service: string }) => m.service), [
    "stripe",
    "amazon-web-services",
  ]);
  deepStrictEqual(made.monitors[1].components, ["AWS Lambda (Oregon)"]);
  const again = await post(app, "/api/user/monitors/suggestions/accept", idem, chosen);
  equal(again.status, 201);
  equal(again.headers.get("idempotent-replayed"), "true");
  deepStrictEqual(await again.json(), made);
  const list = async () =>
    (await (await app.request("/api/user/monitors", { headers: auth })).json()).totalElements;
  equal(await list(), 2, "the replay created nothing");

  const oneBad = await post(app, "/api/user/monitors/suggestions/accept", auth, {
    monitors: [{ service: "github" }, { service: "stirpe" }, {
      service: "amazon-web-services",
      components: ["Amazon EC2 (Mars)"],
    }],
  });
  equal(oneBad.status, 400);
  const issues = (await oneBad.json()).issues;
  deepStrictEqual(issues.map((i: { parameter: string }) => i.parameter), [
    "monitors.1.service",
    "monitors.2.components.0",
  ]);
  match(issues[0].message, /did you mean "stripe"/);
  equal(await list(), 2, "github was not created either");

  await setPlanInStore(ctx, who.account.id, "FREE");
  const tooMany = await post(app, "/api/user/monitors/suggestions/accept", auth, {
    monitors: Array.from({ length: 9 }, () => ({ service: "github" })),
  });
  equal(tooMany.status, 403);
  const refusal = await tooMany.json();
  equal(refusal.error, "plan_required");
  match(refusal.message, /More than 10 monitors/);
  equal(await list(), 2, "none of the nine was created");
  const fits = await post(app, "/api/user/monitors/suggestions/accept", auth, {
    monitors: Array.from({ length: 8 }, () => ({ service: "github" })),
  });
  equal(fits.status, 201);
  equal(await list(), 10);
});

Deno.test("suggestions: reading needs monitors:read, accepting monitors:write", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const readOnly = await key(ctx, who, "ro", ["monitors:read"]);
  const none = await key(ctx, who, "none", ["status:read"]);
  const asked = await post(app, "/api/user/monitors/suggestions", { "X-API-Key": none }, {
    domains: ["stripe.com"],
  });
  equal(asked.status, 403);
  deepStrictEqual(await asked.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "monitors:read" scope',
    requiredScope: "monitors:read",
  });
  const ok200 = await post(app, "/api/user/monitors/suggestions", { "X-API-Key": readOnly }, {
    domains: ["stripe.com"],
  });
  equal(ok200.status, 200);
  ok((await ok200.json()).suggestions.some((s: Suggestion) => s.service === "stripe"));
  const accept = await post(app, "/api/user/monitors/suggestions/accept", {
    "X-API-Key": readOnly,
  }, { monitors: [{ service: "stripe" }] });
  equal(accept.status, 403);
  deepStrictEqual(await accept.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "monitors:write" scope',
    requiredScope: "monitors:write",
  });
  equal(
    (await post(app, "/api/user/monitors/suggestions", {}, { domains: ["stripe.com"] })).status,
    401,
  );
});
