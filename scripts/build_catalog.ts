/**
 * Builds the built-in vendor catalog `ingest/catalog.json` from the gathered vendor list
 * (`../shared/catalog/vendors.json`, see its SOURCES.md). Run by hand when the source list
 * changes; statusd never runs this:
 *
 *     deno run --allow-read --allow-write scripts/build_catalog.ts \
 *       [vendors.json] [candidates.json] [out.json] [catalog_sources/]
 *
 * It checks and cleans every record (slugs, URLs, platform, category, domains), fills the
 * platform from URL patterns that leave no doubt or from the public status-page lists committed
 * under `scripts/catalog_sources/` (ingest/CATALOG_SOURCES.md says where each came from),
 * groups services of one company under one `provider` slug, validates the result with the
 * loader's own schema and prints the counts. Every known platform records its provenance in
 * `platformSource`. The rules are below, each with its reason; docs/catalog.md summarises them.
 * @module
 */
import { z } from "zod";
import {
  CATEGORIES,
  type Category,
  type Platform,
  PLATFORMS,
  probeTargetsOf,
  statusPageKey,
  type Vendor,
} from "../domain/mod.ts";
import { platformFromUrl } from "../ingest/detect.ts";
import { normaliseStatusUrl, parseCatalog, SLUG_PATTERN } from "../ingest/catalog.ts";

const ROOT = new URL("../", import.meta.url);
const DEFAULT_INPUT = new URL("../shared/catalog/vendors.json", ROOT).pathname;
const DEFAULT_CANDIDATES = new URL("../shared/catalog/unverified-candidates.json", ROOT).pathname;
const DEFAULT_OUTPUT = new URL("ingest/catalog.json", ROOT).pathname;
const SOURCES_DIR = new URL("scripts/catalog_sources/", ROOT).pathname;

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
// Platform from public lists (scripts/catalog_sources/*.tsv, see ingest/CATALOG_SOURCES.md)

/** Where a vendor's platform came from: a URL pattern, the gathered list, or a source file. */
export type PlatformSource =
  | "url-pattern"
  | "vendors.json"
  | "statuscraft"
  | "drdroid"
  | "multistatus"
  | "w6w";

/**
 * How strong a claim is: `api` = the source reads the platform's own JSON API at that page (or
 * the gathered list's evidence); `feed` = the source only reads an Atom feed there, which the
 * `rss` adapter can read too but says nothing about the platform behind it.
 */
type Strength = "api" | "feed";

/** One source's statement that the page at `key` (see {@link pageKey}) runs `platform`. */
interface Claim {
  readonly key: string;
  readonly platform: Platform;
  readonly strength: Strength;
  /**
   * True for `statuspage` claims that rest on the page answering the Statuspage v2 JSON API:
   * incident.io pages answer it too, so such a claim agrees with an `incidentio` one.
   */
  readonly v2Api?: boolean;
}

/** A committed source list: its file, the date of the snapshot, and how to read a row. */
interface PlatformList {
  readonly name: Exclude<PlatformSource, "url-pattern" | "vendors.json">;
  readonly file: string;
  /** Snapshot date (YYYY-MM-DD): where two sources disagree, the more recent wins. */
  readonly date: string;
  readonly claims: (columns: readonly string[]) => Claim[];
}

/**
 * The date the gathered list's own platform evidence stands for: its newest platform source
 * used for most decisions (inket/stts, 2026-03-21; ../shared/catalog/SOURCES.md "Field rules").
 */
const GATHERED_LIST_DATE = "2026-03-21";

/** A page's identity for matching: lower-case host without `www.`, path without trailing `/`. */
export function pageKey(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = u.hostname.toLowerCase().replace(/^www\./, "");
  return host + u.pathname.replace(/\/+$/, "").toLowerCase();
}

/** `https://x/api/v2/status.json` → `https://x` (the page the Statuspage v2 API belongs to). */
function statuspageApiBase(api: string): string | null {
  const m = /^(https?:\/\/[^/]+(?:\/[^?#]*?)?)\/api\/v2\/(status|summary)\.json$/i.exec(api);
  return m ? m[1]! : null;
}

/** `https://x/history.atom` → `https://x`: the only feed path the rss adapter derives itself. */
function historyAtomBase(feed: string): string | null {
  const m = /^(https?:\/\/[^/]+(?:\/[^?#]*?)?)\/history\.atom$/i.exec(feed);
  return m ? m[1]! : null;
}

function claimsFor(
  pages: readonly (string | null)[],
  platform: Platform,
  strength: Strength,
): Claim[] {
  const keys = new Set(pages.map((p) => (p === null ? null : pageKey(p))));
  const v2Api = platform === "statuspage" ? { v2Api: true } : {};
  return [...keys].filter((k): k is string => k !== null).map((key) => ({
    key,
    platform,
    strength,
    ...v2Api,
  }));
}

/** statuscraft `type` values taken as evidence; the others are not (see CATALOG_SOURCES.md). */
const STATUSCRAFT_TYPES: Readonly<Record<string, Platform>> = {
  statuspage: "statuspage",
  statusio: "statusio",
  gcp: "google-cloud",
  aws: "aws",
  azure: "azure",
  slack: "slack",
  heroku: "heroku",
};

/** Claims of a statuscraft row (`type`, `page_url`, `status_url`, …); see below. */
function statuscraftClaims([type = "", page = "", api = ""]: readonly string[]): Claim[] {
  const platform = STATUSCRAFT_TYPES[type];
  if (platform === undefined) return [];
  if (platform !== "statuspage") return claimsFor([page], platform, "api");
  const base = statuspageApiBase(api);
  if (base === null) return [];
  const twin = new URL(base).hostname.endsWith(".statuspage.io");
  return claimsFor(
    twin || pageKey(base) === pageKey(page) ? [base, page] : [base],
    platform,
    "api",
  );
}

/**
 * The page a w6w health-check document belongs to, and the platform its label and path prove
 * (null when neither says one statusd reads): a Statuspage v2 document (`/api/v2/*.json`, a
 * claim that agrees with incident.io, which serves that API too), an incident.io
 * `/api/v2/summary.json`, an Instatus `/summary.json` or `/v2/components.json`, a Better Stack
 * `/index.json`, or a feed at `<page>/history.atom`.
 */
export function w6wPage(label: string, url: string): { page: string; platform: Platform } | null {
  const api = /^(https?:\/\/[^/?#]+)\/api\/v2\/(?:summary|status|components)\.json$/i.exec(url);
  if (label === "Statuspage" && api) return { page: api[1]!, platform: "statuspage" };
  if (label === "incident.io" && api) return { page: api[1]!, platform: "incidentio" };
  const instatus = /^(https?:\/\/[^/?#]+)\/(?:v2\/components|summary)\.json$/i.exec(url);
  if (label === "Instatus" && instatus) return { page: instatus[1]!, platform: "instatus" };
  const betterstack = /^(https?:\/\/[^/?#]+)\/index\.json$/i.exec(url);
  if (label === "Better Stack" && betterstack) {
    return { page: betterstack[1]!, platform: "betterstack" };
  }
  const atom = historyAtomBase(url);
  return label === "Atom" && atom !== null ? { page: atom, platform: "rss" } : null;
}

/** Claims of a w6w row (`label`, `url`, …): see {@link w6wPage}. */
function w6wClaims([label = "", url = ""]: readonly string[]): Claim[] {
  const read = w6wPage(label, url);
  if (read === null) return [];
  return claimsFor([read.page], read.platform, read.platform === "rss" ? "feed" : "api");
}

/**
 * The source lists, newest first. Each row becomes claims on page keys:
 *
 * - statuscraft (`type`, `page_url`, `status_url`): a `statuspage` row is a page its author
 *   verified against `/api/v2/status.json`. The claim covers the API's own page and, when the
 *   API is the page's `*.statuspage.io` twin (Atlassian serves the same API on the custom
 *   domain), the page users open. Its `incidentio`, `betterstack` and `pagerduty` types are
 *   not evidence: it types Okta and Auth0 (HTML pages) `incidentio` and an Instatus API
 *   `betterstack`.
 * - drdroid: `/api/v2/status.json` endpoints its poller reads (Statuspage API), `index.json`
 *   endpoints (Better Stack) and feeds.
 * - multistatus: feeds its app polls; `/pages/<id>/rss` is status.io's feed path.
 * - w6w: the documents its apps' health checks read, by label (see {@link w6wPage}).
 *
 * A feed counts only at `<page>/history.atom`, the URL the rss adapter derives from the page.
 */
const PLATFORM_LISTS: readonly PlatformList[] = [
  { name: "w6w", file: "w6w.tsv", date: "2026-08-21", claims: w6wClaims },
  { name: "statuscraft", file: "statuscraft.tsv", date: "2026-06-20", claims: statuscraftClaims },
  {
    name: "statuscraft",
    file: "statuscraft_vendors.tsv",
    date: "2026-06-20",
    claims: statuscraftClaims,
  },
  {
    name: "drdroid",
    file: "drdroid.tsv",
    date: "2026-05-27",
    claims: ([kind = "", url = ""]) => {
      if (kind === "statuspage-api") {
        return claimsFor([statuspageApiBase(url)], "statuspage", "api");
      }
      if (kind === "betterstack-api") {
        return claimsFor([url.replace(/\/index\.json$/i, "")], "betterstack", "api");
      }
      return kind === "feed" ? claimsFor([historyAtomBase(url)], "rss", "feed") : [];
    },
  },
  {
    name: "multistatus",
    file: "multistatus.tsv",
    date: "2026-03-20",
    claims: ([kind = "", url = ""]) => {
      if (kind !== "feed") return [];
      const statusio = /^(https?:\/\/[^/]+)\/pages\/[0-9a-f]{24}\/rss$/i.exec(url);
      if (statusio) return claimsFor([statusio[1]!], "statusio", "api");
      return claimsFor([historyAtomBase(url)], "rss", "feed");
    },
  },
];

/** A dated claim as the merge sees it. */
interface SourcedClaim extends Claim {
  readonly source: PlatformSource;
  readonly date: string;
}

/** The rows of a source list: TAB-separated columns, trimmed; blank and `#` lines skipped. */
async function readRows(path: string): Promise<string[][]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.split("\t").map((x) => x.trim()));
}

/** Reads every list under `dir` into claims by page key. */
async function readPlatformLists(dir: string): Promise<Map<string, SourcedClaim[]>> {
  const byKey = new Map<string, SourcedClaim[]>();
  for (const list of PLATFORM_LISTS) {
    for (const row of await readRows(`${dir}${list.file}`)) {
      for (const c of list.claims(row)) {
        const claim = { ...c, source: list.name, date: list.date };
        byKey.set(c.key, [...(byKey.get(c.key) ?? []), claim]);
      }
    }
  }
  return byKey;
}

/**
 * A vendor's platform and its provenance. First match wins:
 *
 * 1. a URL pattern that leaves no doubt ({@link PLATFORM_RULES});
 * 2. the API-level claims (the gathered list's own platform, dated {@link GATHERED_LIST_DATE},
 *    and the lists' `api` claims): the most recent wins, except that a claim resting only on
 *    the Statuspage v2 API agrees with an `incidentio` claim (incident.io serves that API too),
 *    which then stands; claims of one date that disagree leave the platform unknown;
 * 3. a feed claim → `rss`;
 * 4. otherwise `unknown` (statusd detects the platform from the page).
 */
function decidePlatform(
  given: Platform,
  url: URL,
  claims: readonly SourcedClaim[],
): { platform: Platform; source: PlatformSource | null; rule?: string; conflict?: string } {
  const byUrl = PLATFORM_RULES.find((p) => p.test(url));
  if (byUrl) return { platform: byUrl.platform, source: "url-pattern", rule: byUrl.rule };
  const api: SourcedClaim[] = claims.filter((c) => c.strength === "api");
  if (given !== "unknown") {
    api.push({
      key: "",
      platform: given,
      strength: "api",
      source: "vendors.json",
      date: GATHERED_LIST_DATE,
    });
  }
  if (api.length > 0) {
    const incidentio = api.find((c) => c.platform === "incidentio");
    const agrees = (c: SourcedClaim) =>
      c.platform === newest.platform ||
      (incidentio !== undefined && c.v2Api === true) ||
      (c.platform === "incidentio" && newest.v2Api === true);
    let newest = api.reduce((a, b) => (b.date > a.date ? b : a));
    if (newest.v2Api && incidentio) newest = incidentio;
    const others = [...new Set(api.filter((c) => !agrees(c)).map(describe))];
    if (api.some((c) => c.date === newest.date && !agrees(c))) {
      return { platform: "unknown", source: null, conflict: `${describe(newest)} vs ${others}` };
    }
    const conflict = others.length > 0
      ? `${describe(newest)} over ${others.join(", ")}`
      : undefined;
    return { platform: newest.platform, source: newest.source, conflict };
  }
  const feed = claims.find((c) => c.strength === "feed");
  if (feed) return { platform: feed.platform, source: feed.source };
  return { platform: "unknown", source: null };
}

function describe(c: SourcedClaim): string {
  return `${c.source} (${c.date}): ${c.platform}`;
}

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
// Vendors listed by statuscraft that the gathered list lacks

/** The statuscraft rows with a name (scripts/catalog_sources/statuscraft_vendors.tsv). */
const LISTED_VENDORS_FILE = "statuscraft_vendors.tsv";

/**
 * statuscraft tags → catalog category, first match over a row's tags in order. Tags not here
 * say nothing about the category (`saas`, `api`, `enterprise` …).
 */
const TAG_CATEGORIES: Readonly<Record<string, Category>> = Object.fromEntries(
  ([
    ["ai", [
      "ai",
      "llm",
      "ml",
      "mlops",
      "machine-learning",
      "inference",
      "vector-database",
      "generative-ai",
      "nlp",
      "tts",
      "voice",
      "speech-to-text",
      "conversational-ai",
      "image-generation",
      "document-ai",
      "embeddings",
      "agents",
    ]],
    ["cdn-dns", ["cdn", "dns", "edge", "domain", "domains", "registrar", "domain-registrar"]],
    ["ci-cd", [
      "ci-cd",
      "ci",
      "deployment",
      "testing",
      "qa",
      "load-testing",
      "browser-testing",
      "test-management",
      "performance-testing",
      "visual-regression",
    ]],
    ["cloud", [
      "cloud",
      "iaas",
      "gpu",
      "kubernetes",
      "k8s",
      "infrastructure",
      "serverless",
      "networking",
      "vpn",
      "compute",
      "iot",
      "sd-wan",
      "connectivity",
    ]],
    ["communication", [
      "messaging",
      "sms",
      "email",
      "voice",
      "video",
      "chat",
      "communication",
      "communications",
      "telephony",
      "voip",
      "cpaas",
      "video-conferencing",
      "notifications",
      "push-notifications",
      "live-chat",
      "team-chat",
      "webinar",
      "meetings",
      "meeting",
      "streaming",
      "live-streaming",
      "podcast",
      "audio",
      "phone-system",
      "contact-center",
    ]],
    ["crm-marketing", [
      "crm",
      "marketing",
      "sales",
      "advertising",
      "adtech",
      "seo",
      "email-marketing",
      "marketing-automation",
      "social-media",
      "lead-generation",
      "customer-support",
      "helpdesk",
      "help-desk",
      "customer-success",
      "cx",
      "loyalty",
      "reviews",
      "surveys",
      "feedback",
      "abm",
      "referral",
      "affiliate",
      "community",
      "events",
      "event-management",
      "sales-enablement",
      "customer-service",
    ]],
    ["data", [
      "data",
      "database",
      "analytics",
      "bi",
      "etl",
      "elt",
      "data-integration",
      "search",
      "postgres",
      "mysql",
      "time-series",
      "data-warehouse",
      "cdp",
      "financial-data",
      "market-data",
      "product-analytics",
      "integration",
      "ipaas",
      "data-import",
    ]],
    ["devtools", [
      "developer-tools",
      "devtools",
      "devops",
      "api",
      "sdk",
      "ide",
      "code-quality",
      "feature-flags",
      "developer-portal",
      "platform-engineering",
      "git",
      "package-manager",
      "no-code",
      "low-code",
      "cms",
      "headless",
      "headless-cms",
      "documentation",
      "workflow",
      "automation",
      "internal-tools",
      "design",
      "prototyping",
    ]],
    ["ecommerce", [
      "ecommerce",
      "e-commerce",
      "marketplace",
      "pos",
      "retail",
      "shopify",
      "shipping",
      "logistics",
      "fulfillment",
      "inventory",
      "restaurant",
      "subscriptions",
      "checkout",
      "order-management",
      "delivery",
    ]],
    ["hosting", [
      "hosting",
      "paas",
      "web-hosting",
      "website-builder",
      "wordpress",
      "static-sites",
      "servers",
    ]],
    ["hr-finance", [
      "hr",
      "payroll",
      "recruiting",
      "ats",
      "benefits",
      "accounting",
      "finance",
      "expense-management",
      "erp",
      "fintech",
      "banking",
      "lending",
      "mortgage",
      "insurance",
      "insurtech",
      "tax",
      "invoicing",
      "billing",
      "legal",
      "compliance",
      "workforce",
      "workforce-management",
      "time-tracking",
      "scheduling",
      "employee-engagement",
      "crypto",
      "blockchain",
      "web3",
      "trading",
      "investing",
      "neobank",
      "bnpl",
    ]],
    ["monitoring", [
      "monitoring",
      "observability",
      "apm",
      "logging",
      "error-tracking",
      "incident-management",
      "on-call",
      "alerting",
      "uptime",
      "uptime-monitoring",
      "tracing",
      "session-replay",
      "metrics",
      "status-page",
    ]],
    ["payments", [
      "payments",
      "payment-gateway",
      "payment-processing",
      "gateway",
      "merchant-services",
      "payment-orchestration",
      "open-banking",
      "money-transfer",
      "card-issuing",
    ]],
    ["productivity", [
      "productivity",
      "collaboration",
      "project-management",
      "documents",
      "notes",
      "calendar",
      "forms",
      "e-signature",
      "esign",
      "esignature",
      "edtech",
      "education",
      "lms",
      "e-learning",
      "knowledge-base",
      "knowledge-management",
      "intranet",
      "file-sharing",
      "storage",
      "cloud-storage",
      "backup",
      "presentations",
      "healthcare",
      "telehealth",
      "ehr",
    ]],
    ["security", [
      "security",
      "identity",
      "auth",
      "authentication",
      "authorization",
      "iam",
      "sso",
      "mfa",
      "fraud-prevention",
      "fraud-detection",
      "fraud",
      "kyc",
      "aml",
      "privacy",
      "siem",
      "edr",
      "endpoint",
      "password-manager",
      "cybersecurity",
      "appsec",
      "devsecops",
      "identity-verification",
      "threat-intelligence",
      "data-privacy",
    ]],
  ] as [Category, string[]][]).flatMap(([category, tags]) => tags.map((t) => [t, category])),
);

/** A source row naming a vendor: its page, name, category (or tags to find one) and source. */
interface ListedVendor {
  readonly page: string;
  readonly name: string;
  readonly tags: readonly string[];
  readonly category?: Category;
  /** Its `sources` entry (`<list>: <URL>`). */
  readonly source: string;
}

/**
 * w6w categories → catalog category, first match over an app's categories in order; the rest
 * say nothing about the category.
 */
const W6W_CATEGORIES: Readonly<Record<string, Category>> = {
  ai: "ai",
  crm: "crm-marketing",
  marketing: "crm-marketing",
  "social-media": "crm-marketing",
  communication: "communication",
  email: "communication",
  support: "communication",
  "developer-tools": "devtools",
  devops: "devtools",
  "version-control": "devtools",
  commerce: "ecommerce",
  finance: "payments",
  payments: "payments",
  security: "security",
  databases: "data",
  "data-warehousing": "data",
  storage: "data",
  analytics: "data",
  hr: "hr-finance",
  recruiting: "hr-finance",
  productivity: "productivity",
  "project-management": "productivity",
  forms: "productivity",
  spreadsheets: "productivity",
  documents: "productivity",
  calendar: "productivity",
};

/**
 * The rows naming vendors: statuscraft's named rows, then each w6w app whose document proves a
 * platform statusd reads ({@link w6wPage}), under the app's display name.
 */
async function readListedVendors(dir: string): Promise<ListedVendor[]> {
  const statuscraft = (await readRows(`${dir}${LISTED_VENDORS_FILE}`)).map(
    ([, page = "", , name = "", tags = ""]) => ({
      page,
      name,
      tags: tags.split(",").filter(Boolean),
      source: `statuscraft: ${page}`,
    }),
  );
  const w6w = (await readRows(`${dir}w6w.tsv`)).flatMap(
    ([label = "", url = "", , name = "", categories = ""]) => {
      const read = w6wPage(label, url);
      if (read === null || name === "") return [];
      const category = categories.split(",").map((c) => W6W_CATEGORIES[c]).find(Boolean);
      return [{ page: read.page, name, tags: [], category, source: `w6w: ${url}` }];
    },
  );
  return [...statuscraft, ...w6w];
}

/** A name as two listings of one vendor spell it alike: its slug without the dashes. */
function nameKey(name: string): string {
  return slugify(name).replaceAll("-", "");
}

/**
 * The listed vendors the gathered list lacks, as source records. A row is left out when its
 * page is already a vendor's (same page key) or was named by a row left out, when a vendor of
 * the same name exists (the same company on another page, e.g. Stripe on stripestatus.com), or
 * when its page sits on a shared
 * platform host (a bare `*.statuspage.io` page is not shown to be the vendor's own). The
 * vendor's domain is its status host's registrable domain when that host is `status.<domain>`.
 */
function listedRecords(
  listed: readonly ListedVendor[],
  records: readonly SourceVendor[],
): { added: SourceVendor[]; known: number } {
  const pages = new Set(records.map((r) => pageKey(r.statusPageUrl)));
  const names = new Set(records.map((r) => nameKey(r.name)));
  const added: SourceVendor[] = [];
  let known = 0;
  for (const row of listed) {
    const url = cleanUrl(row.page);
    const key = url === null ? null : pageKey(url);
    if (url === null || key === null) continue;
    const name = nameKey(row.name);
    if (pages.has(key) || names.has(name)) {
      // A known vendor's page stays its own: another row naming it (another product of the
      // same company) is not a vendor of its own.
      pages.add(key);
      known++;
      continue;
    }
    const host = new URL(url).hostname;
    if (SHARED_HOSTS.some((h) => under(host, h))) continue;
    pages.add(key);
    names.add(name);
    const category = row.category ??
      row.tags.map((t) => TAG_CATEGORIES[t]).find((c) => c !== undefined);
    added.push(SourceVendor.parse({
      name: row.name,
      slug: slugify(row.name),
      statusPageUrl: url,
      category: category ?? "other",
      domains: host.startsWith("status.") ? [registrable(host)] : [],
      sources: [row.source],
    }));
  }
  return { added, known };
}

// ---------------------------------------------------------------------------------------------
// Build

interface Report {
  dropped: string[];
  renamedSlugs: string[];
  urlsChanged: string[];
  platformBy: Map<string, number>;
  platformConflicts: string[];
  invalidPlatform: string[];
  invalidCategory: string[];
  promoted: string[];
}

/** A shipped catalog entry: a {@link Vendor} plus where its platform came from (unknown: none). */
export type CatalogEntry = Vendor & { platformSource?: PlatformSource };

function build(
  records: readonly SourceVendor[],
  promoted: readonly SourceVendor[],
  claims: ReadonlyMap<string, readonly SourcedClaim[]>,
) {
  const report: Report = {
    dropped: [],
    renamedSlugs: [],
    urlsChanged: [],
    platformBy: new Map(),
    platformConflicts: [],
    invalidPlatform: [],
    invalidCategory: [],
    promoted: promoted.map((p) => p.name),
  };
  const seenSlugs = new Set<string>();
  const seenUrls = new Map<string, string>();
  const rows: { v: Omit<CatalogEntry, "provider">; host: string }[] = [];

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

    const given: Platform = (PLATFORMS as readonly string[]).includes(r.platform)
      ? r.platform as Platform
      : "unknown";
    if (given === "unknown" && r.platform !== "unknown") {
      report.invalidPlatform.push(`${slug}: ${r.platform}`);
    }
    const decided = decidePlatform(given, new URL(url), claims.get(pageKey(url) ?? "") ?? []);
    const by = decided.rule ?? decided.source ?? "unknown";
    report.platformBy.set(by, (report.platformBy.get(by) ?? 0) + 1);
    if (decided.conflict) report.platformConflicts.push(`${slug}: ${decided.conflict}`);

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
        platform: decided.platform,
        ...(decided.source ? { platformSource: decided.source } : {}),
        category,
        domains: cleanDomains(r.domains),
      },
      host,
    });
  }

  const hostGroups = groupBySharedHost(rows.map((r) => ({ slug: r.v.slug, host: r.host })));
  const vendors: CatalogEntry[] = rows.map(({ v, host }) => ({
    ...v,
    provider: familyOf({ name: v.name, slug: v.slug, host }) ?? hostGroups.get(v.slug) ?? v.slug,
  }));
  checkProviders(vendors);
  vendors.sort((a, b) => a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
  return { vendors, report };
}

/** statusd's own list of the names and hosts a vendor goes by (`vendor_names.tsv`). */
interface VendorNames {
  readonly aliases: readonly string[];
  readonly domains: readonly string[];
}

/** Reads `vendor_names.tsv`: slug, aliases and extra domains (each `;`-separated). */
async function readVendorNames(dir: string): Promise<Map<string, VendorNames>> {
  const out = new Map<string, VendorNames>();
  // A sources folder without the list (a test's) has no names to add.
  const rows = await readRows(`${dir}vendor_names.tsv`).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  });
  for (const [slug = "", aliases = "", domains = ""] of rows) {
    if (out.has(slug)) throw new Error(`vendor_names.tsv names ${slug} twice`);
    const list = (text: string) => text.split(";").map((x) => x.trim()).filter((x) => x !== "");
    out.set(slug, { aliases: list(aliases), domains: cleanDomains(list(domains)) });
  }
  return out;
}

/**
 * The vendors with the names and hosts of `own` added: aliases that are not already the name,
 * and domains not already listed. A row for a slug the catalog lacks, or an alias another vendor
 * is called, is an error: the list must stay true as the sources change.
 */
function withOwnNames(
  vendors: readonly CatalogEntry[],
  own: ReadonlyMap<string, VendorNames>,
): CatalogEntry[] {
  const bySlug = new Set(vendors.map((v) => v.slug));
  for (const slug of own.keys()) {
    if (!bySlug.has(slug)) throw new Error(`vendor_names.tsv names ${slug}, not in the catalog`);
  }
  const names = new Map(vendors.map((v) => [v.name.toLowerCase(), v.slug]));
  return vendors.map((v) => {
    const extra = own.get(v.slug);
    if (!extra) return v;
    const aliases = [...new Set(extra.aliases)].filter((a) =>
      a.toLowerCase() !== v.name.toLowerCase()
    );
    for (const a of aliases) {
      const other = names.get(a.toLowerCase());
      if (other && other !== v.slug) {
        throw new Error(`alias "${a}" of ${v.slug} is ${other}'s name`);
      }
    }
    const domains = [...new Set([...v.domains, ...extra.domains])].sort();
    // Hosts added for lookup (an API, a CDN) change nothing of what statusd probes of a vendor
    // that had domains: its probes stay those of its own domains, written out.
    const probes = v.probes ?? (domains.length > v.domains.length ? probeTargetsOf(v, null) : []);
    return {
      ...v,
      domains,
      ...(probes.length ? { probes } : {}),
      ...(aliases.length ? { aliases } : {}),
    };
  });
}

/**
 * The held-back candidates as catalog rows marked `candidate`: statusd lists (and polls) one only
 * once a reading proves the page is the vendor's (app/candidates.ts). A candidate whose slug or
 * page a vendor has already is left out.
 */
function candidateRows(
  candidates: readonly z.output<typeof Candidate>[],
  vendors: readonly CatalogEntry[],
): CatalogEntry[] {
  const slugs = new Set(vendors.map((v) => v.slug));
  const pages = new Set(vendors.map((v) => statusPageKey(v.statusPageUrl)));
  const out: CatalogEntry[] = [];
  for (const c of candidates) {
    const slug = slugify(c.name);
    const url = cleanUrl(c.url);
    if (!slug || url === null || slugs.has(slug) || pages.has(statusPageKey(url))) continue;
    slugs.add(slug);
    pages.add(statusPageKey(url));
    const platform = platformFromUrl(url);
    out.push({
      name: c.name.trim(),
      slug,
      statusPageUrl: url,
      platform: platform ?? "unknown",
      ...(platform ? { platformSource: "url-pattern" as const } : {}),
      category: "other",
      domains: [],
      provider: slug,
      candidate: true,
    });
  }
  return out;
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

/**
 * Builds the catalog text from the gathered list, the held-back candidates and the platform
 * lists, exactly as `main` writes it (tests compare it with the committed ingest/catalog.json).
 */
export async function buildCatalogText(
  input = DEFAULT_INPUT,
  candidatesPath = DEFAULT_CANDIDATES,
  sourcesDir = SOURCES_DIR,
) {
  const records = z.array(SourceVendor).parse(JSON.parse(await Deno.readTextFile(input)));
  const candidates = z.array(Candidate).parse(
    JSON.parse(await Deno.readTextFile(candidatesPath)),
  );
  const promoted = PROMOTED.map((name) => {
    const c = candidates.find((x) => x.name === name);
    if (!c) throw new Error(`promoted candidate "${name}" is not in ${candidatesPath}`);
    return SourceVendor.parse({ name: c.name, slug: slugify(c.name), statusPageUrl: c.url });
  });
  const claims = await readPlatformLists(sourcesDir);
  const listed = listedRecords(await readListedVendors(sourcesDir), [...records, ...promoted]);
  const built = build([...records, ...listed.added], promoted, claims);
  const report = built.report;
  const own = withOwnNames(built.vendors, await readVendorNames(sourcesDir));
  const vendors = [
    ...own,
    ...candidateRows(candidates.filter((c) => !PROMOTED.includes(c.name)), own),
  ].sort((a, b) => a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
  const text = serialise(vendors);
  // The loader must accept exactly what is shipped.
  const loaded = parseCatalog(JSON.parse(text), input);
  if (loaded.length !== vendors.length) throw new Error("loader and builder disagree");
  return { text, vendors, report, records, candidates, promoted, listed };
}

async function main(args: string[]): Promise<void> {
  const [input, candidatesPath, output = DEFAULT_OUTPUT, sourcesDir] = args;
  const { text, vendors, report, records, candidates, promoted, listed } = await buildCatalogText(
    input,
    candidatesPath,
    sourcesDir,
  );
  await Deno.writeTextFile(output, text);

  console.log(
    `wrote ${output}: ${vendors.length} vendors from ${records.length} records and ` +
      `${listed.added.length} vendors only the named lists give (${
        countBy(listed.added, (r) => r.sources[0]!.split(":")[0]!).map(([k, n]) => `${k} ${n}`)
          .join(", ")
      }; ${listed.known} of their named rows are vendors already listed)`,
  );
  console.log(
    `held back: ${candidates.length - promoted.length} of ${candidates.length} candidates ` +
      `(${promoted.length} promoted)`,
  );
  section("per platform", countBy(vendors, (v) => v.platform).map(([k, n]) => `${k}: ${n}`), 99);
  section("per category", countBy(vendors, (v) => v.category).map(([k, n]) => `${k}: ${n}`), 99);
  const known = vendors.filter((v) => v.platform !== "unknown").length;
  console.log(
    `platform known: ${known} of ${vendors.length} (${
      (100 * known / vendors.length).toFixed(1)
    } %)`,
  );
  section("platform decided by", [...report.platformBy].map(([r, n]) => `${r}: ${n}`), 99);
  section("platform conflicts (newest kept; same date: unknown)", report.platformConflicts, 99);
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
