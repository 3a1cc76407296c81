/**
 * Builds the built-in vendor catalog `ingest/catalog.json` from the gathered vendor list
 * (`../shared/catalog/vendors.json`, see its SOURCES.md). Run by hand when the source list
 * changes; statusd never runs this:
 *
 *     deno run --allow-read --allow-write scripts/build_catalog.ts [vendors.json] [candidates.json] [out.json]
 *
 * It checks and cleans every record (slugs, URLs, platform, category, domains), fills the
 * platform from URL patterns that leave no doubt, groups services of one company under one
 * `provider` slug, validates the result with the loader's own schema and prints the counts.
 * The rules are below, each with its reason; docs/catalog.md summarises them.
 * @module
 */
import { z } from "zod";
import { CATEGORIES, type Category, type Platform, PLATFORMS, type Vendor } from "../domain/mod.ts";
import { normaliseStatusUrl, parseCatalog, SLUG_PATTERN } from "../ingest/catalog.ts";

const ROOT = new URL("../", import.meta.url);
const DEFAULT_INPUT = new URL("../shared/catalog/vendors.json", ROOT).pathname;
const DEFAULT_CANDIDATES = new URL("../shared/catalog/unverified-candidates.json", ROOT).pathname;
const DEFAULT_OUTPUT = new URL("ingest/catalog.json", ROOT).pathname;

/** A record of the gathered list; `sources` is provenance and is not shipped. */
const SourceVendor = z.object({
  name: z.string().trim().min(1),
  slug: z.string(),
  statusPageUrl: z.string(),
  platform: z.string().default("unknown"),
  category: z.string().default("other"),
  provider: z.string().optional(),
  domains: z.array(z.string()).default([]),
  sources: z.array(z.string()).default([]),
});
type SourceVendor = z.infer<typeof SourceVendor>;

/** A record of the held-back list. */
const Candidate = z.object({ name: z.string(), url: z.string(), reason: z.string() });

/**
 * Held-back candidates promoted into the catalog, by exact name. Each needs evidence beyond
 * its note in unverified-candidates.json (e.g. `/api/v2/summary.json` → `page.name`/`page.url`
 * fetched on a machine with internet access and matching the vendor). None has such evidence
 * yet: every note says "not shown to be the vendor's own page", and six of them (Hetzner
 * Cloud, Kong, Keeper, Linode, Mastercard, PlayStation Network) duplicate vendors the catalog
 * already has on their own domains.
 */
const PROMOTED: readonly string[] = [];

// ---------------------------------------------------------------------------------------------
// URLs and hosts

/** Query parameters that only pick a view (date window, tracking) and never the page itself. */
const NOISE_PARAMS = /^(utm_[a-z]+|start_date|end_date|ref|source)$/i;

/** The catalog spelling of a status URL, or null when it is not an absolute http(s) URL. */
function cleanUrl(raw: string): string | null {
  const normal = normaliseStatusUrl(raw);
  if (normal === null) return null;
  const url = new URL(normal);
  for (const key of [...url.searchParams.keys()]) {
    if (NOISE_PARAMS.test(key)) url.searchParams.delete(key);
  }
  return normaliseStatusUrl(url.href);
}

/** Second-level labels under which a country code makes three labels registrable (co.uk). */
const SECOND_LEVEL = new Set(["co", "com", "net", "org", "gov", "ac", "edu", "ne", "or"]);

/** The registrable domain of a host: `status.cloud.google.com` → `google.com`. */
function registrable(host: string): string {
  const labels = host.split(".");
  const n = labels[labels.length - 3] !== undefined &&
      SECOND_LEVEL.has(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2
    ? 3
    : 2;
  return labels.slice(-n).join(".");
}

/** True when `host` is `domain` or one of its subdomains. */
function under(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * Domains that host many companies' status pages (status-page platforms, uptime checkers,
 * incident tools, static hosts): two pages there share nothing but the vendor of the tool.
 */
const SHARED_HOSTS = [
  "statuspage.io",
  "stspg.io",
  "status.io",
  "instatus.com",
  "betteruptime.com",
  "betterstack.com",
  "incident.io",
  "freshstatus.io",
  "hund.io",
  "pingdom.com",
  "statuspal.io",
  "statuspal.eu",
  "uptimerobot.com",
  "rootly.com",
  "statuskeeper.io",
  "statuscast.com",
  "sorryapp.com",
  "statushub.io",
  "statushub.com",
  "status.page",
  "cachethq.io",
  "site24x7.com",
  "statuscake.com",
  "uptime.com",
  "github.io",
  "herokuapp.com",
  "netlify.app",
  "vercel.app",
  "pages.dev",
  "azurewebsites.net",
  "cloudfront.net",
  "amazonaws.com",
];

// ---------------------------------------------------------------------------------------------
// Platform from the URL

/**
 * URL patterns that fix the platform beyond doubt: the host belongs to the platform itself
 * (Atlassian Statuspage, status.io, Instatus, Better Stack hosting) or is a big vendor's own
 * status feed that has an adapter of its own. First match wins.
 */
const PLATFORM_RULES: readonly { platform: Platform; test: (u: URL) => boolean; rule: string }[] = [
  {
    platform: "statuspage",
    rule: "*.statuspage.io",
    test: (u) => under(u.hostname, "statuspage.io") && u.hostname !== "statuspage.io",
  },
  {
    platform: "statuspage",
    rule: "*.status.atlassian.com, metastatuspage.com",
    test: (u) => under(u.hostname, "status.atlassian.com") || u.hostname === "metastatuspage.com",
  },
  {
    platform: "statusio",
    rule: "status.io/pages/<id>, *.status.io",
    test: (u) =>
      (u.hostname === "status.io" && u.pathname.startsWith("/pages/")) ||
      (u.hostname.endsWith(".status.io") && u.hostname !== "www.status.io"),
  },
  {
    platform: "instatus",
    rule: "*.instatus.com",
    test: (u) => u.hostname.endsWith(".instatus.com"),
  },
  {
    platform: "betterstack",
    rule: "*.betteruptime.com, status.betterstack.com",
    test: (u) =>
      u.hostname.endsWith(".betteruptime.com") || u.hostname === "status.betterstack.com",
  },
  {
    platform: "incidentio",
    rule: "status.incident.io",
    test: (u) => u.hostname === "status.incident.io",
  },
  {
    platform: "google-cloud",
    rule: "status.cloud.google.com",
    test: (u) => u.hostname === "status.cloud.google.com",
  },
  {
    platform: "aws",
    rule: "health.aws.amazon.com, status.aws.amazon.com",
    test: (u) => u.hostname === "health.aws.amazon.com" || u.hostname === "status.aws.amazon.com",
  },
  {
    platform: "azure",
    rule: "azure.status.microsoft, status.azure.com",
    test: (u) => u.hostname === "azure.status.microsoft" || u.hostname === "status.azure.com",
  },
  {
    platform: "slack",
    rule: "slack-status.com, status.slack.com",
    test: (u) => under(u.hostname, "slack-status.com") || u.hostname === "status.slack.com",
  },
  {
    platform: "salesforce",
    rule: "status.salesforce.com, trust.salesforce.com",
    test: (u) => u.hostname === "status.salesforce.com" || u.hostname === "trust.salesforce.com",
  },
  {
    platform: "heroku",
    rule: "status.heroku.com",
    test: (u) => u.hostname === "status.heroku.com",
  },
];

// ---------------------------------------------------------------------------------------------
// Providers

/**
 * Companies whose services the catalog lists separately. The provider rule:
 *
 * 1. A company's own product lines share its provider slug: services named with its brand
 *    (`names`), or whose status page is served from one of its domains (`hosts`), e.g. Google
 *    Cloud, Google Workspace and Firebase (status.firebase.google.com) → `google`; Jira,
 *    Trello and Loom (all on *.status.atlassian.com) → `atlassian`; Xbox Live → `microsoft`.
 * 2. A company it acquired that still runs its own brand and its own status page on its own
 *    domain keeps its own provider: GitHub and LinkedIn (Microsoft), Slack, Heroku and
 *    MuleSoft (Salesforce), Twitch (Amazon), Apigee (Google), SendGrid and Segment (Twilio),
 *    Auth0 (Okta), Mailchimp (Intuit), VMware (Broadcom), Linode (Akamai), Red Hat (IBM),
 *    Braintree and Venmo (PayPal). Their pages report their own incidents, not the
 *    parent's. A brand sold on keeps no tie to its old owner (VMware Workspace ONE went to
 *    Omnissa in 2024, so it is not grouped with VMware Cloud Services).
 * 3. A renamed company is one provider under its current name (Redis Labs → Redis, Nexmo →
 *    Vonage, Lambda Labs → Lambda, Aptrinsic → Gainsight PX, Flood → Tricentis Flood).
 * 4. Otherwise two services whose status pages sit on the same registrable domain (not a
 *    {@link SHARED_HOSTS} one) share a provider named after that domain
 *    (`status.amp.cisco.com` + `status.ces.cisco.com` → `cisco`).
 * 5. Everything else is its own provider (provider = slug). `domains` are not used: they are
 *    hints, and some name a hosting tool rather than the owner (webappio lists rootly.com).
 */
const FAMILIES: readonly {
  provider: string;
  names?: RegExp;
  hosts?: string[];
  slugs?: string[];
}[] = [
  { provider: "google", names: /^Google\b/, hosts: ["google.com"] },
  { provider: "amazon", names: /^(Amazon|AWS)\b/, hosts: ["amazon.com"] },
  {
    provider: "microsoft",
    names: /^(Microsoft|Azure|Office ?365|Xbox)\b/,
    hosts: ["microsoft", "microsoft.com", "azure.com", "office.com", "office365.com", "xbox.com"],
  },
  {
    provider: "atlassian",
    names: /^(Atlassian|Jira|Confluence|Bitbucket|Opsgenie|Trello|Statuspage)\b/,
    hosts: ["atlassian.com", "atlassian.net", "metastatuspage.com"],
  },
  {
    provider: "meta",
    names: /^(Meta|Facebook|Instagram|WhatsApp|Messenger|Oculus)\b/,
    hosts: ["metastatus.com", "facebook.com", "fb.com"],
  },
  { provider: "apple", names: /^Apple\b/, hosts: ["apple.com"] },
  { provider: "salesforce", names: /^Salesforce/, hosts: ["salesforce.com"] },
  { provider: "oracle", names: /^Oracle\b/, hosts: ["oracle.com", "oraclecloud.com"] },
  { provider: "ibm", names: /^IBM\b/i, hosts: ["ibm.com"] },
  { provider: "sap", names: /^SAP\b/, hosts: ["sap.com"] },
  { provider: "cisco", names: /^Cisco\b/, hosts: ["cisco.com"] },
  { provider: "broadcom", names: /^Broadcom\b/, hosts: ["broadcom.com"] },
  { provider: "intuit", names: /^(Intuit|QuickBooks)\b/, hosts: ["intuit.com"] },
  { provider: "coinbase", names: /^Coinbase\b/, hosts: ["coinbase.com"] },
  { provider: "vonage", names: /^(Vonage|Nexmo)\b/, hosts: ["vonage.com"] },
  { provider: "akamai", names: /^Akamai\b/, hosts: ["akamai.com", "akamaistatus.com"] },
  { provider: "linkedin", names: /^LinkedIn\b/, hosts: ["linkedin.com", "linkedin-status.com"] },
  {
    provider: "freshworks",
    names: /^(Freshworks|Freshdesk|Freshservice|Freshsales|Freshchat|Freshcaller)\b/,
  },
  { provider: "block", names: /^(Square|Cash App)$/ },
  { provider: "nvidia", names: /^NVIDIA\b/i },
  { provider: "equinix", names: /^Equinix\b/ },
  { provider: "ionos", names: /^IONOS\b/i },
  { provider: "8x8", names: /^8x8\b/ },
  { provider: "acquia", names: /^Acquia\b/ },
  { provider: "barracuda", names: /^Barracuda\b/ },
  { provider: "gainsight", names: /^Gainsight\b/ },
  { provider: "tricentis", names: /^Tricentis\b/ },
  { provider: "redis", names: /^Redis( Labs)?$/ },
  { provider: "lambda", names: /^Lambda (Labs|GPU Cloud)$/ },
  { provider: "ionic", names: /^Ionic( Framework)?$/ },
  { provider: "expo", names: /^Expo( Push)?$/ },
  // NextRoll is AdRoll's parent (renamed 2018); its record lists adroll.com.
  { provider: "nextroll", slugs: ["adroll", "nextroll"] },
];

function familyOf(v: { name: string; slug: string; host: string }): string | null {
  for (const f of FAMILIES) {
    if (f.slugs?.includes(v.slug)) return f.provider;
    if (f.names?.test(v.name)) return f.provider;
    if (f.hosts?.some((h) => under(v.host, h))) return f.provider;
  }
  return null;
}

/** Rule 4: same registrable status-page domain, not a shared host. */
function groupBySharedHost(
  vendors: readonly { slug: string; host: string }[],
): Map<string, string> {
  const byDomain = new Map<string, string[]>();
  for (const v of vendors) {
    if (SHARED_HOSTS.some((h) => under(v.host, h))) continue;
    const d = registrable(v.host);
    byDomain.set(d, [...(byDomain.get(d) ?? []), v.slug]);
  }
  const provider = new Map<string, string>();
  for (const [domain, slugs] of byDomain) {
    if (slugs.length < 2) continue;
    const label = domain.split(".")[0]!.replace(/[^a-z0-9]+/g, "-");
    for (const s of slugs) provider.set(s, label);
  }
  return provider;
}

// ---------------------------------------------------------------------------------------------
// Slugs, names, domains

function slugify(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

function cleanDomains(domains: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of domains) {
    const d = raw.trim().toLowerCase().replace(/^\*\./, "").replace(/\.$/, "");
    if (HOST_NAME.test(d)) out.add(d);
  }
  return [...out].sort();
}

// ---------------------------------------------------------------------------------------------
// Build

interface Report {
  dropped: string[];
  renamedSlugs: string[];
  urlsChanged: string[];
  platformFilled: Map<string, number>;
  platformConflicts: string[];
  invalidPlatform: string[];
  invalidCategory: string[];
  promoted: string[];
}

function build(records: readonly SourceVendor[], promoted: readonly SourceVendor[]) {
  const report: Report = {
    dropped: [],
    renamedSlugs: [],
    urlsChanged: [],
    platformFilled: new Map(),
    platformConflicts: [],
    invalidPlatform: [],
    invalidCategory: [],
    promoted: promoted.map((p) => p.name),
  };
  const seenSlugs = new Set<string>();
  const seenUrls = new Map<string, string>();
  const rows: { v: Omit<Vendor, "provider">; host: string }[] = [];

  for (const r of [...records, ...promoted]) {
    const url = cleanUrl(r.statusPageUrl);
    if (url === null) {
      report.dropped.push(`${r.name}: not an absolute http(s) URL: ${r.statusPageUrl}`);
      continue;
    }
    if (url !== r.statusPageUrl) report.urlsChanged.push(`${r.statusPageUrl} → ${url}`);
    const key = url.toLowerCase().replace(/^https?:\/\/(www\.)?/, "");
    const twin = seenUrls.get(key);
    if (twin !== undefined) {
      report.dropped.push(`${r.name}: same status page as ${twin} (${url})`);
      continue;
    }
    const host = new URL(url).hostname;

    let slug = SLUG_PATTERN.test(r.slug) ? r.slug : slugify(r.slug) || slugify(r.name);
    if (seenSlugs.has(slug)) slug = `${slug}-${slugify(host.split(".").at(-2) ?? "x")}`;
    for (let n = 2; seenSlugs.has(slug); n++) slug = `${slug.replace(/-\d+$/, "")}-${n}`;
    if (slug !== r.slug) report.renamedSlugs.push(`${r.slug} → ${slug}`);

    let platform: Platform = (PLATFORMS as readonly string[]).includes(r.platform)
      ? r.platform as Platform
      : "unknown";
    if (platform === "unknown" && r.platform !== "unknown") {
      report.invalidPlatform.push(`${slug}: ${r.platform}`);
    }
    const byUrl = PLATFORM_RULES.find((p) => p.test(new URL(url)));
    if (byUrl && platform === "unknown") {
      platform = byUrl.platform;
      report.platformFilled.set(byUrl.rule, (report.platformFilled.get(byUrl.rule) ?? 0) + 1);
    } else if (byUrl && platform !== byUrl.platform) {
      report.platformConflicts.push(`${slug}: ${platform} kept, URL says ${byUrl.platform}`);
    }

    const category: Category = (CATEGORIES as readonly string[]).includes(r.category)
      ? r.category as Category
      : "other";
    if (category !== r.category) report.invalidCategory.push(`${slug}: ${r.category}`);

    seenSlugs.add(slug);
    seenUrls.set(key, r.name);
    rows.push({
      v: {
        name: r.name.trim(),
        slug,
        statusPageUrl: url,
        platform,
        category,
        domains: cleanDomains(r.domains),
      },
      host,
    });
  }

  const hostGroups = groupBySharedHost(rows.map((r) => ({ slug: r.v.slug, host: r.host })));
  const vendors: Vendor[] = rows.map(({ v, host }) => ({
    ...v,
    provider: familyOf({ name: v.name, slug: v.slug, host }) ?? hostGroups.get(v.slug) ?? v.slug,
  }));
  checkProviders(vendors);
  vendors.sort((a, b) => a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
  return { vendors, report };
}

/** A group's provider slug must not be a vendor slug of someone outside the group. */
function checkProviders(vendors: readonly Vendor[]): void {
  const bySlug = new Map(vendors.map((v) => [v.slug, v]));
  for (const v of vendors) {
    const namesake = bySlug.get(v.provider);
    if (namesake && namesake.provider !== v.provider) {
      throw new Error(
        `provider "${v.provider}" of ${v.slug} is also the slug of ${namesake.name}, ` +
          `whose provider is "${namesake.provider}": pick another provider slug`,
      );
    }
    if (!SLUG_PATTERN.test(v.provider)) throw new Error(`bad provider slug "${v.provider}"`);
  }
}

/** Writes the catalog one vendor per line, in the layout `deno fmt` keeps. */
function serialise(vendors: readonly Vendor[]): string {
  return JSON.stringify(vendors, null, 2) + "\n";
}

function countBy<T>(items: readonly T[], key: (t: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const t of items) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

function section(title: string, lines: readonly string[], limit = 20): void {
  if (!lines.length) return;
  console.log(`\n${title} (${lines.length}):`);
  for (const l of lines.slice(0, limit)) console.log(`  ${l}`);
  if (lines.length > limit) console.log(`  … ${lines.length - limit} more`);
}

async function main(args: string[]): Promise<void> {
  const [input = DEFAULT_INPUT, candidatesPath = DEFAULT_CANDIDATES, output = DEFAULT_OUTPUT] =
    args;
  const records = z.array(SourceVendor).parse(JSON.parse(await Deno.readTextFile(input)));
  const candidates = z.array(Candidate).parse(
    JSON.parse(await Deno.readTextFile(candidatesPath)),
  );
  const promoted = PROMOTED.map((name) => {
    const c = candidates.find((x) => x.name === name);
    if (!c) throw new Error(`promoted candidate "${name}" is not in ${candidatesPath}`);
    return SourceVendor.parse({ name: c.name, slug: slugify(c.name), statusPageUrl: c.url });
  });

  const { vendors, report } = build(records, promoted);
  const text = serialise(vendors);
  // The loader must accept exactly what is shipped.
  const loaded = parseCatalog(JSON.parse(text), output);
  if (loaded.length !== vendors.length) throw new Error("loader and builder disagree");
  await Deno.writeTextFile(output, text);

  console.log(`wrote ${output}: ${vendors.length} vendors from ${records.length} records`);
  console.log(
    `held back: ${candidates.length - promoted.length} of ${candidates.length} candidates ` +
      `(${promoted.length} promoted)`,
  );
  section("per platform", countBy(vendors, (v) => v.platform).map(([k, n]) => `${k}: ${n}`), 99);
  section("per category", countBy(vendors, (v) => v.category).map(([k, n]) => `${k}: ${n}`), 99);
  section("platform filled from the URL", [...report.platformFilled].map(([r, n]) => `${r}: ${n}`));
  section("platform conflicts (source kept)", report.platformConflicts);
  section("invalid platform → unknown", report.invalidPlatform);
  section("invalid category → other", report.invalidCategory);
  section("URLs normalised", report.urlsChanged);
  section("slugs changed", report.renamedSlugs);
  section("dropped", report.dropped, 99);
  const groups = countBy(vendors, (v) => v.provider).filter(([, n]) => n > 1);
  section(
    "provider groups",
    groups.map(([p, n]) =>
      `${p} (${n}): ${vendors.filter((v) => v.provider === p).map((v) => v.slug).join(", ")}`
    ),
    99,
  );
}

if (import.meta.main) await main(Deno.args);
