import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { CATEGORIES, InvalidRequest, PLATFORMS, type Vendor } from "../../domain/mod.ts";
import { CatalogError, loadCatalog, parseCatalog } from "../../ingest/catalog.ts";
import { buildCatalogText } from "../../scripts/build_catalog.ts";

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

Deno.test("the built-in catalog holds at least 3,290 vendors", () => {
  ok(builtIn.length >= 3290, `only ${builtIn.length} vendors`);
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

// ---------------------------------------------------------------------------------------------
// Platform coverage and provenance (scripts/catalog_sources/, ingest/CATALOG_SOURCES.md)

const shipped = JSON.parse(
  Deno.readTextFileSync(new URL("../../ingest/catalog.json", import.meta.url)),
) as { slug: string; statusPageUrl: string; platform: string; platformSource?: string }[];

const LISTS = ["statuscraft", "drdroid", "multistatus", "w6w"];

Deno.test("the platform is known (not unknown) for at least 72 % of the built-in vendors", () => {
  const known = builtIn.filter((v) => v.platform !== "unknown").length;
  ok(known / builtIn.length >= 0.72, `${known} of ${builtIn.length} known`);
});

Deno.test("every known platform names its provenance; unknown ones name none", () => {
  const allowed = new Set(["url-pattern", "vendors.json", ...LISTS]);
  for (const v of shipped) {
    if (v.platform === "unknown") equal(v.platformSource, undefined, v.slug);
    else ok(allowed.has(v.platformSource ?? ""), `${v.slug}: ${v.platformSource}`);
  }
  const used = new Set(shipped.map((v) => v.platformSource));
  for (const name of LISTS) ok(used.has(name), `${name} decides no platform`);
});

Deno.test("each platform list is committed and has a provenance line in CATALOG_SOURCES.md", () => {
  const doc = Deno.readTextFileSync(new URL("../../ingest/CATALOG_SOURCES.md", import.meta.url));
  for (const name of LISTS) {
    const file = new URL(`../../scripts/catalog_sources/${name}.tsv`, import.meta.url);
    const head = Deno.readTextFileSync(file).split("\n")[0]!;
    const commit = /@ ([0-9a-f]{40})/.exec(head)?.[1];
    ok(commit, `${name}.tsv names no commit`);
    ok(
      doc.includes(`scripts/catalog_sources/${name}.tsv`),
      `${name}.tsv not in CATALOG_SOURCES.md`,
    );
    ok(doc.includes(commit!), `${name}'s commit not in CATALOG_SOURCES.md`);
  }
});

Deno.test("a status URL is still the page users open, never an API or feed endpoint", () => {
  for (const v of builtIn) {
    ok(!/\/api\/v\d|\.json$|\/history\.(atom|rss)$/.test(v.statusPageUrl), v.statusPageUrl);
  }
});

/** The gathered list the importer reads by default: beside the checkout, not inside it. */
const GATHERED = new URL("../../../shared/catalog/vendors.json", import.meta.url);
const hasGathered = (() => {
  try {
    return Deno.statSync(GATHERED).isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "rerunning the importer regenerates ingest/catalog.json byte for byte",
  // A clone without the project's shared folder beside it cannot rerun the import: skipped
  // (reported as such), not failed.
  ignore: !hasGathered,
  fn: async () => {
    const { text } = await buildCatalogText();
    equal(text, Deno.readTextFileSync(new URL("../../ingest/catalog.json", import.meta.url)));
  },
});

/** Runs the importer on a hand-made gathered list and hand-made source lists. */
async function importWith(
  vendors: { name: string; slug: string; statusPageUrl: string; platform?: string }[],
  lists: Partial<
    Record<"statuscraft" | "statuscraft_vendors" | "drdroid" | "multistatus" | "w6w", string[]>
  >,
) {
  return new Map(
    (await importCatalog(vendors, lists)).map((
      v,
    ) => [v.slug, [v.platform, v.platformSource ?? null]]),
  );
}

/** The importer's catalog from a hand-made gathered list and hand-made source lists. */
async function importCatalog(
  vendors: { name: string; slug: string; statusPageUrl: string; platform?: string }[],
  lists: Partial<
    Record<"statuscraft" | "statuscraft_vendors" | "drdroid" | "multistatus" | "w6w", string[]>
  >,
) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/vendors.json`, JSON.stringify(vendors));
    await Deno.writeTextFile(`${dir}/candidates.json`, "[]");
    for (const name of [...LISTS, "statuscraft_vendors"]) {
      const rows = lists[name as keyof typeof lists] ?? [];
      await Deno.writeTextFile(`${dir}/${name}.tsv`, ["# test list", ...rows].join("\n") + "\n");
    }
    const { vendors: out } = await buildCatalogText(
      `${dir}/vendors.json`,
      `${dir}/candidates.json`,
      `${dir}/`,
    );
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the importer takes a list's verified Statuspage API for the page, with its name", async () => {
  const got = await importWith([
    { name: "Acme", slug: "acme", statusPageUrl: "https://status.acme.test" },
    { name: "Beta", slug: "beta", statusPageUrl: "https://www.betastatus.test" },
    { name: "Gamma", slug: "gamma", statusPageUrl: "https://gamma.test/status" },
    { name: "Delta", slug: "delta", statusPageUrl: "https://status.delta.test" },
  ], {
    statuscraft: [
      "statuspage\thttps://status.acme.test\thttps://status.acme.test/api/v2/status.json",
      // custom domain in front of its *.statuspage.io page: the same API answers on both
      "statuspage\thttps://betastatus.test\thttps://beta.statuspage.io/api/v2/status.json",
      // typed incident.io by this list, which also types HTML pages so: not evidence
      "incidentio\thttps://status.delta.test\thttps://status.delta.test",
    ],
    drdroid: ["statuspage-api\thttps://gamma.test/status/api/v2/status.json"],
  });
  deepEqual(got.get("acme"), ["statuspage", "statuscraft"]);
  deepEqual(got.get("beta"), ["statuspage", "statuscraft"]);
  deepEqual(got.get("gamma"), ["statuspage", "drdroid"]);
  deepEqual(got.get("delta"), ["unknown", null]);
});

Deno.test("the importer keeps the newest claim, and incident.io where only the v2 API was seen", async () => {
  const got = await importWith([
    {
      name: "Moved",
      slug: "moved",
      statusPageUrl: "https://status.moved.test",
      platform: "statusio",
    },
    {
      name: "Incy",
      slug: "incy",
      statusPageUrl: "https://status.incy.test",
      platform: "incidentio",
    },
    { name: "Hosted", slug: "hosted", statusPageUrl: "https://hosted.statuspage.io" },
  ], {
    statuscraft: [
      "statuspage\thttps://status.moved.test\thttps://status.moved.test/api/v2/status.json",
      "statuspage\thttps://status.incy.test\thttps://status.incy.test/api/v2/status.json",
      "statusio\thttps://hosted.statuspage.io\thttps://api.status.io/1.0/status/x",
    ],
  });
  deepEqual(got.get("moved"), ["statuspage", "statuscraft"]);
  deepEqual(got.get("incy"), ["incidentio", "vendors.json"]);
  deepEqual(got.get("hosted"), ["statuspage", "url-pattern"]);
});

Deno.test("the importer reads a feed as rss only at <page>/history.atom, the URL it polls", async () => {
  const got = await importWith([
    { name: "Feedy", slug: "feedy", statusPageUrl: "https://status.feedy.test" },
    { name: "Other", slug: "other", statusPageUrl: "https://status.other.test" },
    { name: "Sio", slug: "sio", statusPageUrl: "https://status.sio.test" },
  ], {
    multistatus: [
      "feed\thttp://status.feedy.test/history.atom",
      "feed\thttps://status.other.test/feed.rss",
      "feed\thttps://status.sio.test/pages/5b36dc6502d06804c08349f7/rss",
    ],
  });
  deepEqual(got.get("feedy"), ["rss", "multistatus"]);
  deepEqual(got.get("other"), ["unknown", null]);
  deepEqual(got.get("sio"), ["statusio", "multistatus"]);
});

Deno.test("the importer adds the vendors only statuscraft names, never twice, never on a shared platform host", async () => {
  const out = await importCatalog([
    { name: "Acme", slug: "acme", statusPageUrl: "https://status.acme.test" },
    { name: "Stripe", slug: "stripe", statusPageUrl: "https://status.stripe.test" },
  ], {
    statuscraft_vendors: [
      // new: added with its platform, a category from its tags and its status host's domain
      "statuspage\thttps://status.zeta.test\thttps://status.zeta.test/api/v2/status.json\tZeta Pay\tpayments,fintech",
      // the same page as a listed vendor, and the same company on another page: not added
      "statuspage\thttps://status.acme.test\thttps://status.acme.test/api/v2/status.json\tAcme Inc\tai",
      "statuspage\thttps://stripestatus.test\thttps://stripestatus.test/api/v2/status.json\tStripe\tpayments",
      // a bare platform page may be anyone's: not added
      "statuspage\thttps://eta.statuspage.io\thttps://eta.statuspage.io/api/v2/status.json\tEta\tai",
      // a type that is not evidence: added, platform left for statusd to detect
      "betterstack\thttps://status.theta.test\thttps://status.theta.test/api/v2/summary.json\tTheta\tsaas,cdn",
    ],
  });
  deepEqual(out.map((v) => v.slug), ["acme", "stripe", "theta", "zeta-pay"]);
  const zeta = out.find((v) => v.slug === "zeta-pay")!;
  equal(zeta.name, "Zeta Pay");
  equal(zeta.statusPageUrl, "https://status.zeta.test");
  deepEqual([zeta.platform, zeta.platformSource, zeta.category], [
    "statuspage",
    "statuscraft",
    "payments",
  ]);
  deepEqual(zeta.domains, ["zeta.test"]);
  const theta = out.find((v) => v.slug === "theta")!;
  deepEqual([theta.platform, theta.category], ["unknown", "cdn-dns"]);
});

Deno.test("the importer reads w6w's health-check documents: a platform only where label and path prove it; its apps as vendors under their display names", async () => {
  const out = await importCatalog([
    { name: "Acme", slug: "acme", statusPageUrl: "https://status.acme.test" },
    { name: "Beta", slug: "beta", statusPageUrl: "https://status.beta.test" },
    { name: "Gamma", slug: "gamma", statusPageUrl: "https://status.gamma.test" },
    { name: "Delta", slug: "delta", statusPageUrl: "https://status.delta.test" },
    { name: "LinkedIn", slug: "linkedin", statusPageUrl: "https://www.linkedin-status.test" },
  ], {
    w6w: [
      "Statuspage\thttps://status.acme.test/api/v2/components.json\tacme\tAcme\tcrm",
      "incident.io\thttps://status.beta.test/api/v2/summary.json\tbeta\tBeta\tai",
      // a label its path does not bear out, and documents statusd has no adapter for
      "Instatus\thttps://status.gamma.test/api/v2/summary.json\tgamma\tGamma\tai",
      "JSON\thttps://status.delta.test/api/v1/status\tdelta\tDelta\tai",
      // new vendors: under the app's display name, category from its categories
      "Better Stack\thttps://status.zeta.test/index.json\tzeta\tZeta Forms\tforms,productivity",
      "page\thttps://status.eta.test\teta\tEta\tai",
      // a known company's other product on the page of its own: not a vendor of its own
      "Statuspage\thttps://www.linkedin-api.test/api/v2/summary.json\tlinkedin\tLinkedIn\tcrm",
      "Statuspage\thttps://www.linkedin-api.test/api/v2/summary.json\tlinkedin-ads\tLinkedIn Ads\tcrm",
    ],
  });
  const by = new Map(out.map((v) => [v.slug, v]));
  deepEqual([...by.keys()], ["acme", "beta", "delta", "gamma", "linkedin", "zeta-forms"]);
  deepEqual(
    ["acme", "beta", "gamma", "delta"].map((s) => [by.get(s)!.platform, by.get(s)!.platformSource]),
    [["statuspage", "w6w"], ["incidentio", "w6w"], ["unknown", undefined], [
      "unknown",
      undefined,
    ]],
  );
  const zeta = by.get("zeta-forms")!;
  deepEqual([zeta.name, zeta.statusPageUrl, zeta.platform, zeta.category, zeta.domains], [
    "Zeta Forms",
    "https://status.zeta.test",
    "betterstack",
    "productivity",
    ["zeta.test"],
  ]);
});

Deno.test("probes: up to three http(s) URLs used as written; one that cannot be used is refused by name", () => {
  const entry = { name: "Acme", slug: "acme", statusPageUrl: "https://status.acme.test" };
  const [v] = parseCatalog([{
    ...entry,
    probes: ["https://api.acme.test/health", "https://status.acme.test:8443/ping"],
  }], "t");
  deepEqual(v!.probes, ["https://api.acme.test/health", "https://status.acme.test:8443/ping"]);
  equal(parseCatalog([entry], "t")[0]!.probes, undefined);
  throws(
    () => parseCatalog([{ ...entry, probes: ["ftp://acme.test/"] }], "t"),
    (e: CatalogError) => /acme.*probes\.0: Expected an absolute http\(s\) URL/.test(e.message),
  );
  throws(
    () =>
      parseCatalog([{
        ...entry,
        probes: ["https://a.test/", "https://b.test/", "https://c.test/", "https://d.test/"],
      }], "t"),
    (e: CatalogError) => /probes: At most 3 probe URLs/.test(e.message),
  );
  throws(
    () => parseCatalog([{ ...entry, probes: ["https://user:secret@api.acme.test/"] }], "t"),
    (e: CatalogError) => /probes\.0: A probe URL carries no user or password/.test(e.message),
  );
  throws(
    () =>
      parseCatalog(
        [{ ...entry, probes: ["https://api.acme.test/", "https://api.acme.test/"] }],
        "t",
      ),
    (e: CatalogError) => /probes: The same probe URL is listed twice/.test(e.message),
  );
});
