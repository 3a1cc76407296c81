/**
 * Vendors (catalog entries), snapshots adapters produce, and services reads return.
 * @module
 */
import type { Incident, IncidentSnapshot } from "./incident.ts";
import type { Reading } from "./reading.ts";
import type { TimeToResolve } from "./resolution.ts";
import { type StatusLevel, worst } from "./status.ts";
import type { EpochMs } from "./time.ts";
import type { Platform } from "./platform.ts";

export { type Platform, PLATFORMS } from "./platform.ts";

/** Catalog categories. */
export const CATEGORIES = [
  "ai",
  "cdn-dns",
  "ci-cd",
  "cloud",
  "communication",
  "crm-marketing",
  "data",
  "devtools",
  "ecommerce",
  "hosting",
  "hr-finance",
  "monitoring",
  "payments",
  "productivity",
  "security",
  "other",
] as const;
/** One of {@link CATEGORIES}. */
export type Category = (typeof CATEGORIES)[number];

/** One catalog entry: a vendor and where its status page lives. */
export interface Vendor {
  readonly name: string;
  readonly slug: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly category: Category;
  /** Slug of the owning company (e.g. `google` owns `google-cloud`). */
  readonly provider: string;
  readonly domains: readonly string[];
  /** Public endpoints statusd probes itself; derived from `domains` when absent. */
  readonly probes?: readonly string[];
  /** Other names people type for it (`AWS`, `Microsoft 365`): search finds it by them. */
  readonly aliases?: readonly string[];
  /**
   * A status URL a source names without proof it is this vendor's: never listed (nor polled)
   * until statusd has read the page and its own name or address matches the vendor.
   */
  readonly candidate?: true;
}

/** A component (region or subsystem) as an adapter reads it. */
export interface ComponentSnapshot {
  /** The vendor's own id; adapters synthesise a stable one (e.g. the name) when none exists. */
  readonly externalId: string;
  readonly name: string;
  /** Name of the group it belongs to, if any. */
  readonly group: string | null;
  readonly status: StatusLevel;
  /**
   * The vendor's id of its group when the document names the group by id only (Cachet 2.x):
   * the poller fills `group` from the platform's groups document (`Adapter.groupNames`).
   */
  readonly groupRef?: string;
}

/** What an adapter returns for one fetch of a vendor: nothing stored yet. */
export interface Snapshot {
  /** Page-level indicator; feeds and incident-only APIs derive it from open incidents. */
  readonly indicator: StatusLevel;
  /** Leaf components only (groups are carried in `group`). */
  readonly components: readonly ComponentSnapshot[];
  /** Incidents and maintenances the payload shows, open or recently resolved. */
  readonly incidents: readonly IncidentSnapshot[];
  /**
   * The document keeps history: it lists closed incidents too (the newest, by count or age),
   * not only open ones, so one it stops listing while older ones stay was removed by the
   * vendor (domain/reading_diff.ts). Absent for documents of open incidents only.
   */
  readonly keepsHistory?: boolean;
  /**
   * External ids of incidents the vendor took off its page, as a history document read alongside
   * this one shows (domain/vanished_incidents.ts): the store marks them removed, not resolved.
   */
  readonly removedIncidents?: readonly string[];
}

/** A service's status: the worst of its page indicator and its components. */
export function serviceStatus(snapshot: Pick<Snapshot, "indicator" | "components">): StatusLevel {
  return worst([snapshot.indicator, ...snapshot.components.map((c) => c.status)]);
}

/** A component as reads return it. */
export interface Component {
  readonly id: string;
  /** The vendor's own id of it (`s3-eu-west-1`), as its adapter read it. */
  readonly externalId?: string;
  readonly name: string;
  readonly status: StatusLevel;
  readonly group: string | null;
  readonly updatedAt: EpochMs;
}

/** A service as list reads return it (DESIGN §4). */
export interface Service {
  readonly name: string;
  readonly slug: string;
  readonly currentStatus: StatusLevel;
  /** 30-day uptime percent; null while nothing has been observed. */
  readonly uptimePercent: number | null;
  /**
   * How much of those 30 days statusd actually observed (ms): less after a fresh start, or
   * while it could not read the vendor. `uptimeSpanWords` says it in words.
   */
  readonly uptimeObservedMs: number;
  readonly category: Category;
  readonly provider: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly lastCheckedAt: EpochMs | null;
  readonly lastChangedAt: EpochMs | null;
  /** Reading health: can statusd read this vendor, and if not, why and since when. */
  readonly reading: Reading;
}

/** One service with its components, open incidents and typical time to resolve. */
export interface ServiceDetail extends Service {
  readonly components: readonly Component[];
  readonly incidents: readonly Incident[];
  /** How long its incidents of the last 90 days took to resolve (p50/p90, per impact). */
  readonly timeToResolve: TimeToResolve;
}

/**
 * What makes two status-page URLs the same page: host (lower case) and path without a trailing
 * slash, whatever the scheme, port, query or fragment (`https://Status.Example.com/` and
 * `http://status.example.com` are one page). Null for what is not an http(s) URL.
 */
export function statusPageKey(url: string): string | null {
  if (!URL.canParse(url.trim())) return null;
  const u = new URL(url.trim());
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  let path = u.pathname;
  while (path.endsWith("/")) path = path.slice(0, -1);
  return `${u.hostname}${path}`;
}

/** Hosts of platforms that serve many vendors' pages: an address there proves no owner. */
const SHARED_PAGE_HOSTS = [
  "statuspage.io",
  "instatus.com",
  "betteruptime.com",
  "betterstack.com",
  "status.io",
  "incident.io",
  "atlassian.net",
  "freshstatus.io",
  "hund.io",
  "sorryapp.com",
];

/**
 * Whether a page statusd read is the candidate vendor's (`Vendor.candidate`), and why: its own
 * name names the vendor (one holds the other, letters and digits only, three or more), or it was
 * served, after redirects, from a host of the vendor's own name that no shared platform serves.
 * Null when neither shows it.
 */
export function candidateProof(
  vendor: { readonly name: string; readonly slug: string },
  read: { readonly name: string; readonly url: string },
): string | null {
  const letters = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const want = letters(vendor.name);
  const said = letters(read.name);
  if (want.length >= 3 && said.length >= 3 && (said.includes(want) || want.includes(said))) {
    return `the page calls itself "${read.name}"`;
  }
  let host = "";
  try {
    host = new URL(read.url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const shared = SHARED_PAGE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  const labels = host.split(".");
  const own = labels.length >= 2 ? labels[labels.length - 2]! : "";
  const names = [want, letters(vendor.slug)].filter((n) => n.length >= 3);
  if (!shared && names.includes(letters(own))) return `the page is served from ${host}`;
  return null;
}
