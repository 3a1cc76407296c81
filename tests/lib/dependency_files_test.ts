/**
 * Reading dependency files (issue #12): each format gives its package names, and what statusd
 * cannot read is a problem naming why. Plus the catalog's signals: every service they name is in
 * the built-in catalog, and lookups match exact names, scopes and Go module paths at a boundary.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { componentInRegion, servicesOfPackage } from "../../domain/mod.ts";
import { type FileDependencies, isFileProblem, readDependencyFile } from "../../lib/mod.ts";
import { loadCatalog, loadCatalogSignals } from "../../ingest/mod.ts";
import signalsFile from "../../ingest/catalog_signals.json" with { type: "json" };

function names(file: string, text: string): string[] {
  const r = readDependencyFile(file, text);
  ok(!isFileProblem(r), JSON.stringify(r));
  return (r as FileDependencies).packages.map((p) => `${p.ecosystem}:${p.name}`);
}

Deno.test("package-lock.json v3 and v1, yarn.lock (v1 and berry) and pnpm-lock.yaml", () => {
  const v3 = JSON.stringify({
    name: "shop",
    lockfileVersion: 3,
    packages: {
      "": { name: "shop" },
      "node_modules/stripe": { version: "17.0.0" },
      "node_modules/@sentry/node": { version: "9.0.0" },
      "node_modules/@sentry/node/node_modules/semver": { version: "7.0.0" },
    },
  });
  deepStrictEqual(names("package-lock.json", v3), ["npm:stripe", "npm:@sentry/node", "npm:semver"]);
  const v1 = JSON.stringify({ lockfileVersion: 1, dependencies: { twilio: { version: "4" } } });
  deepStrictEqual(names("npm-shrinkwrap.json", v1), ["npm:twilio"]);
  const yarn = '# yarn lockfile v1\n\n"@slack/web-api@^7.0.0", "@slack/web-api@^7.1.0":\n' +
    '  version "7.1.0"\n\nstripe@^17.0.0:\n  version "17.0.0"\n\n' +
    '"algoliasearch@npm:^5.0.0":\n  version: 5.0.0\n';
  deepStrictEqual(names("yarn.lock", yarn), [
    "npm:@slack/web-api",
    "npm:stripe",
    "npm:algoliasearch",
  ]);
  const pnpm = "lockfileVersion: '9.0'\n\npackages:\n\n  '@supabase/supabase-js@2.45.0':\n" +
    "    resolution: {integrity: sha512-x}\n\n  openai@4.52.0:\n    resolution: {}\n" +
    "  /resend@3.0.0:\n    resolution: {}\n";
  deepStrictEqual(names("pnpm-lock.yaml", pnpm), [
    "npm:@supabase/supabase-js",
    "npm:openai",
    "npm:resend",
  ]);
});

Deno.test("pyproject.toml (PEP 621 and Poetry), Pipfile, go.sum", () => {
  const pep621 = '[project]\nname = "app"\ndependencies = [\n  "Stripe>=5",\n' +
    '  "sentry_sdk[flask]",\n]\n[project.optional-dependencies]\naws = ["boto3"]\n';
  deepStrictEqual(names("pyproject.toml", pep621), [
    "pypi:stripe",
    "pypi:sentry-sdk",
    "pypi:boto3",
  ]);
  const poetry = '[tool.poetry.dependencies]\npython = "^3.11"\nopenai = "^1.0"\n' +
    '[tool.poetry.group.dev.dependencies]\npytest = "*"\n';
  deepStrictEqual(names("pyproject.toml", poetry), ["pypi:openai", "pypi:pytest"]);
  deepStrictEqual(
    names("Pipfile", '[packages]\ntwilio = "*"\n[requires]\npython_version = "3.11"\n'),
    [
      "pypi:twilio",
    ],
  );
  const sum = "github.com/stripe/stripe-go/v76 v76.0.0 h1:abc=\n" +
    "github.com/stripe/stripe-go/v76 v76.0.0/go.mod h1:def=\n";
  deepStrictEqual(names("go.sum", sum), ["go:github.com/stripe/stripe-go/v76"]);
});

Deno.test("problems name what is wrong", () => {
  const problem = (f: string, t: string) => {
    const r = readDependencyFile(f, t);
    return isFileProblem(r) ? r.problem : "";
  };
  equal(problem("package.json", "[1,2]"), "expected a JSON object");
  equal(problem("package-lock.json", "{}"), "no lockfileVersion: not an npm lock file");
  equal(
    problem(".terraform.lock.hcl", "# nothing"),
    'no provider "…" blocks: not a .terraform.lock.hcl',
  );
  equal(problem("domains.txt", "!!! ???"), "no host names found");
  ok(problem("build.gradle", "x").startsWith('statusd cannot read "build.gradle"'));
});

Deno.test("every service the signals name is in the built-in catalog; lookups", () => {
  const signals = loadCatalogSignals(loadCatalog());
  equal(signals.services, Object.keys(signalsFile).length, "none dropped as unknown");
  deepStrictEqual(servicesOfPackage(signals, "npm", "@aws-sdk/client-s3"), ["amazon-web-services"]);
  deepStrictEqual(servicesOfPackage(signals, "npm", "@aws-sdk-x/thing"), []);
  deepStrictEqual(servicesOfPackage(signals, "pypi", "google-cloud-storage"), ["google-cloud"]);
  deepStrictEqual(servicesOfPackage(signals, "go", "cloud.google.com/go/storage"), [
    "google-cloud",
  ]);
  deepStrictEqual(servicesOfPackage(signals, "go", "cloud.google.com/gofish"), []);
  deepStrictEqual(servicesOfPackage(signals, "terraform", "hashicorp/azurerm"), ["azure"]);
  deepStrictEqual(servicesOfPackage(signals, "npm", "left-pad"), []);
});

Deno.test("components of a region: by code or by the words pages use", () => {
  ok(componentInRegion("Amazon EC2 (eu-west-1)", "eu-west-1"));
  ok(componentInRegion("Amazon EC2 (Ireland)", "eu-west-1"));
  ok(!componentInRegion("Amazon EC2 (eu-west-10)", "eu-west-1"));
  ok(componentInRegion("Virtual Machines - West US", "westus"));
  ok(!componentInRegion("Virtual Machines - West US 2", "westus"));
  ok(componentInRegion("Compute Engine (São Paulo)", "sa-east-1"));
});
