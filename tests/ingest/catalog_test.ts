import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { CATEGORIES, InvalidRequest, PLATFORMS, type Vendor } from "../../domain/mod.ts";
import { CatalogError, loadCatalog, parseCatalog } from "../../ingest/catalog.ts";

const builtIn = loadCatalog();

/** Writes `content` to a temp file and returns its path. */
function tempCatalog(content: unknown): string {
  const path = Deno.makeTempFileSync({ suffix: ".json" });
  Deno.writeTextFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function loadError(content: unknown): { path: string; error: CatalogError } {
  const path = tempCatalog(content);
  try {
    loadCatalog(path);
  } catch (error) {
    ok(error instanceof CatalogError, `expected CatalogError, got ${error}`);
    return { path, error };
  } finally {
    Deno.removeSync(path);
  }
  throw new Error("the catalog loaded");
}

const acme = { name: "Acme", slug: "acme", statusPageUrl: "https://status.acme.test" };

Deno.test("the built-in catalog holds more than 2463 vendors", () => {
  ok(builtIn.length >= 2464, `only ${builtIn.length} vendors`);
});

Deno.test("built-in slugs are unique lower-case a-z0-9 words joined by '-'", () => {
  equal(new Set(builtIn.map((v) => v.slug)).size, builtIn.length);
  for (const v of builtIn) match(v.slug, /^[a-z0-9]+(-[a-z0-9]+)*$/, v.slug);
});

Deno.test("every built-in status URL is absolute http(s), without fragment or trailing slash", () => {
  for (const v of builtIn) {
    const url = new URL(v.statusPageUrl);
    ok(url.protocol === "https:" || url.protocol === "http:", v.statusPageUrl);
    ok(!v.statusPageUrl.endsWith("/"), v.statusPageUrl);
    ok(!v.statusPageUrl.includes("#"), v.statusPageUrl);
  }
  equal(new Set(builtIn.map((v) => v.statusPageUrl.toLowerCase())).size, builtIn.length);
});

Deno.test("every built-in platform, category and provider is valid", () => {
  for (const v of builtIn) {
    ok((PLATFORMS as readonly string[]).includes(v.platform), `${v.slug}: ${v.platform}`);
    ok((CATEGORIES as readonly string[]).includes(v.category), `${v.slug}: ${v.category}`);
    match(v.provider, /^[a-z0-9]+(-[a-z0-9]+)*$/, v.slug);
    ok(v.name.trim().length > 0, v.slug);
  }
});

Deno.test("Google's services share the google provider, GitHub keeps its own", () => {
  const bySlug = new Map(builtIn.map((v) => [v.slug, v]));
  const google = builtIn.filter((v) => v.provider === "google").map((v) => v.slug);
  ok(google.length >= 2, `google groups ${google.join(", ")}`);
  ok(google.includes("google-cloud") && google.includes("google-workspace"), google.join(", "));
  equal(bySlug.get("amazon-web-services")?.provider, "amazon");
  equal(bySlug.get("azure")?.provider, "microsoft");
  equal(bySlug.get("jira-software")?.provider, "atlassian");
  equal(bySlug.get("github")?.provider, "github");
});

Deno.test("platforms certain from the URL are set (Google Cloud, AWS, Heroku, Salesforce)", () => {
  const bySlug = new Map(builtIn.map((v) => [v.slug, v]));
  equal(bySlug.get("google-cloud")?.platform, "google-cloud");
  equal(bySlug.get("amazon-web-services")?.platform, "aws");
  equal(bySlug.get("heroku")?.platform, "heroku");
  equal(bySlug.get("salesforce")?.platform, "salesforce");
  for (const v of builtIn) {
    if (new URL(v.statusPageUrl).hostname.endsWith(".statuspage.io")) {
      equal(v.platform, "statuspage", v.slug);
    }
  }
});

Deno.test("a user catalog with a bad URL names the file, entry, slug and field", () => {
  const { path, error } = loadError([acme, { ...acme, slug: "beta", statusPageUrl: "nope" }]);
  match(error.message, /^Cannot load catalog ".+": entry 1 \("beta"\): statusPageUrl: Invalid URL/);
  ok(error.message.includes(path));
  ok(error instanceof InvalidRequest);
  deepEqual(error.issues.map((i) => i.parameter), ['entry 1 ("beta"): statusPageUrl']);
});

Deno.test("a user catalog with a non-http URL is rejected", () => {
  const { error } = loadError([{ ...acme, statusPageUrl: "ftp://status.acme.test" }]);
  match(error.message, /entry 0 \("acme"\): statusPageUrl: Invalid URL/);
});

Deno.test("a user catalog with a duplicate slug names both entries", () => {
  const { error } = loadError([acme, { ...acme, statusPageUrl: "https://other.test" }]);
  match(error.message, /entry 1 \("acme"\): slug: Duplicate of entry 0/);
});

Deno.test("a user catalog entry without a name says the name is required", () => {
  const { error } = loadError([{ slug: "acme", statusPageUrl: "https://status.acme.test" }]);
  match(error.message, /entry 0 \("acme"\): name: Required/);
});

Deno.test("a user catalog with an unknown platform lists the allowed values", () => {
  const { error } = loadError([{ ...acme, platform: "statuspage.io" }]);
  match(error.message, /entry 0 \("acme"\): platform: Expected one of statuspage, incidentio/);
});

Deno.test("a user catalog with a bad slug explains the slug shape", () => {
  const { error } = loadError([{ ...acme, slug: "Acme Inc" }]);
  match(error.message, /entry 0 \("Acme Inc"\): slug: Expected a slug of lower-case/);
});

Deno.test("a user catalog that is not an array, not JSON or missing says so", () => {
  match(loadError({ vendors: [] }).error.message, /: Expected a JSON array of vendor entries$/);
  match(loadError("[{").error.message, /: Not valid JSON: /);
  throws(
    () => loadCatalog("/nonexistent/catalog.json"),
    (e: unknown) =>
      e instanceof CatalogError &&
      e.message.startsWith(`Cannot load catalog "/nonexistent/catalog.json": Cannot read the file`),
  );
});

Deno.test("every problem is listed, not only the first", () => {
  const { error } = loadError([
    { slug: "a" },
    { name: "B", slug: "b", statusPageUrl: "x" },
    { ...acme, slug: "a" },
    5,
  ]);
  deepEqual(error.issues, [
    { parameter: 'entry 0 ("a"): name', message: "Required" },
    { parameter: 'entry 0 ("a"): statusPageUrl', message: "Required" },
    {
      parameter: 'entry 1 ("b"): statusPageUrl',
      message: "Invalid URL (expected an absolute http(s) URL)",
    },
    { parameter: 'entry 2 ("a"): slug', message: "Duplicate of entry 0" },
    { parameter: "entry 3", message: "Expected an object with name, slug and statusPageUrl" },
  ]);
});

Deno.test("a minimal user catalog gets defaults and a normalised URL", () => {
  const path = tempCatalog([{
    name: " Acme ",
    slug: "acme",
    statusPageUrl: "https://status.acme.test/#x",
  }]);
  try {
    const expected: Vendor[] = [{
      name: "Acme",
      slug: "acme",
      statusPageUrl: "https://status.acme.test",
      platform: "unknown",
      category: "other",
      provider: "acme",
      domains: [],
    }];
    deepEqual(loadCatalog(path), expected);
  } finally {
    Deno.removeSync(path);
  }
});

Deno.test("a full user entry is kept as written; extra fields are ignored", () => {
  const vendors = parseCatalog([{
    ...acme,
    statusPageUrl: "http://127.0.0.1:4010/acme/",
    platform: "statuspage",
    category: "cloud",
    provider: "acme-group",
    domains: ["Acme.test"],
    sources: ["hand-written"],
  }], "test");
  deepEqual(vendors, [{
    name: "Acme",
    slug: "acme",
    statusPageUrl: "http://127.0.0.1:4010/acme",
    platform: "statuspage",
    category: "cloud",
    provider: "acme-group",
    domains: ["acme.test"],
  }]);
});
