/**
 * `store.catalog`: the vendors statusd watches, as services. Syncing the catalog file into the
 * store, and every read of services (lists, one service, providers, the home page), each in
 * one consistent read.
 * @module
 */
import type { Category, Component, Platform, Vendor } from "../service.ts";
import type { ResolvedSpan } from "../resolution.ts";
import type { Incident } from "../incident.ts";
import type { PageRequest } from "../page.ts";
import type { ReadingFacts, ReadingState } from "../reading.ts";
import type { StatusLevel } from "../status.ts";
import type { EpochMs } from "../time.ts";
import type { StatusTransition, TimeWindow } from "../uptime.ts";

/** What {@link CatalogStore.sync} did. */
export interface CatalogSync {
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Vendors stored before that the catalog no longer lists. */
  readonly retired: number;
}

/**
 * Filters of the service catalog; every field is optional and they combine with AND. (Text
 * search is ranked by the app over {@link CatalogStore.candidates}.)
 */
export interface ServiceFilter {
  readonly status?: StatusLevel;
  readonly category?: string;
  readonly provider?: string;
  /** Reading state (domain/reading.ts `readingState`); needs `staleBefore`. */
  readonly reading?: ReadingState;
  /** A last success before this instant is stale (domain/reading.ts `staleBefore`). */
  readonly staleBefore?: EpochMs;
  /**
   * Only vendors with at least `minEpisodes` finished early-warning episodes since `since` (those
   * with an acknowledgement grade), slowest to admit trouble first: by their average delay,
   * longest first, then by name.
   */
  readonly slowestToAdmit?: { readonly since: EpochMs; readonly minEpisodes: number };
  /**
   * The account whose vendors added by URL are listed too. Without it, only the catalog's
   * (and those the operator promoted) are listed.
   */
  readonly account?: string;
}

/** One catalog service as stored, with its row id (the poller's and retention's handle). */
export interface ServiceRow {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly currentStatus: StatusLevel;
  readonly category: Category;
  readonly provider: string;
  readonly statusPageUrl: string;
  /** The platform read: the detected one when known, else the catalog's. */
  readonly platform: Platform;
  readonly lastCheckedAt: EpochMs | null;
  readonly lastChangedAt: EpochMs | null;
  /** What is stored about its readings (reading health is computed from these). */
  readonly reading: ReadingFacts;
}

/**
 * A service with its service-level transitions over a window (the input of uptime maths,
 * domain/uptime.ts): from the last transition at or before the window's start through the
 * first one at or after its end, oldest first.
 */
export interface ServiceWithHistory {
  readonly service: ServiceRow;
  readonly transitions: readonly StatusTransition[];
}

/** Where a stored vendor came from (see store/shared/schema.ts `vendorsByUrl`). */
export type VendorOrigin = "catalog" | "account" | "promoted" | "candidate";

/** A status page an account adds by URL, as read once. */
export interface NewAddedVendor {
  readonly name: string;
  /** Its slug if free; else a numbered one is chosen. */
  readonly slug: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly domains: readonly string[];
}

/** What {@link CatalogStore.addVendor} did. */
export type AddVendorResult =
  /** The page is a vendor everyone sees already: nothing was added. */
  | { readonly kind: "listed"; readonly slug: string }
  /** The account has it now; `created` when it was the first to add the page. */
  | { readonly kind: "added"; readonly slug: string; readonly created: boolean }
  /** The account keeps as many as it may: nothing was added. */
  | { readonly kind: "limit" };

/** A vendor an account added by URL. */
export interface AddedVendor {
  readonly slug: string;
  readonly name: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly currentStatus: StatusLevel;
  /** When this account added it. */
  readonly addedAt: EpochMs;
  /** How many accounts have added it. */
  readonly accounts: number;
  /** `promoted`: the operator has put it in this instance's catalog for everyone. */
  readonly origin: VendorOrigin;
}

/** A catalog service as text search sees it. */
export interface ServiceCandidate {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly domains: readonly string[];
  readonly aliases: readonly string[];
  readonly provider: string;
  readonly statusPageUrl: string;
  /** The catalog's probe URLs, if it names any. */
  readonly probes: readonly string[] | null;
}

/** One provider's roll-up over its catalog services. */
export interface ProviderRow {
  readonly provider: string;
  /** Names of its services, ordered by name (the app derives a display name). */
  readonly serviceNames: readonly string[];
  /** Services per current level (levels with none left out). */
  readonly byStatus: Partial<Record<StatusLevel, number>>;
  /** Open incidents and maintenances across its services. */
  readonly activeIncidents: number;
  /** Each service's level and transitions over the window asked for. */
  readonly services: readonly {
    readonly currentStatus: StatusLevel;
    readonly transitions: readonly StatusTransition[];
  }[];
}

/** One service with what its page shows, read together. */
export interface ServiceDetailRows extends ServiceWithHistory {
  /** Current (not removed) components, in the vendor's own order. */
  readonly components: readonly Component[];
  /** Open incidents and maintenances, newest first, each with its timeline. */
  readonly incidents: readonly Incident[];
  /** Its incidents and maintenances resolved (or completed) since the instant asked for. */
  readonly resolved: readonly ResolvedSpan[];
}

/** What the home page asks for. */
export interface OverviewQuery {
  /** Levels that count as disrupted; their services are listed. */
  readonly disrupted: readonly StatusLevel[];
  /** Most services listed per disrupted level. */
  readonly perLevel: number;
  /** Most open incidents listed. */
  readonly incidents: number;
  /** Window of the listed services' transitions (uptime). */
  readonly window: TimeWindow;
  /** A last success before this instant is stale. */
  readonly staleBefore: EpochMs;
}

/** The home page's facts, read together. */
export interface CatalogOverview {
  /** Catalog services per current level (every level present). */
  readonly byStatus: Readonly<Record<StatusLevel, number>>;
  /** Catalog services per reading state (every state present). */
  readonly readingStates: Readonly<Record<ReadingState, number>>;
  /** Services at a disrupted level, in the order of `disrupted`, then by name. */
  readonly disrupted: readonly ServiceWithHistory[];
  /** Open incidents and maintenances, newest first. */
  readonly activeIncidents: readonly Incident[];
}

/** The catalog noun of the store. */
export interface CatalogStore {
  /**
   * Makes the stored vendors match `vendors` in one transaction: upserts by slug; vendors no
   * longer listed are kept (with their history) but no longer polled. A changed status page
   * URL or platform resets the detected platform, the discovered endpoint, the validators and
   * reading health, and makes the vendor due at `now`.
   */
  sync(vendors: readonly Vendor[], now: EpochMs): Promise<CatalogSync>;
  /**
   * One page of the services matching `filter`, ordered by name (case-insensitive) then slug,
   * with the total and each one's transitions over `window`.
   */
  page(
    filter: ServiceFilter,
    page: PageRequest,
    window: TimeWindow,
  ): Promise<{ readonly rows: readonly ServiceWithHistory[]; readonly total: number }>;
  /** Every service matching `filter`, with what text search ranks on. */
  candidates(filter: ServiceFilter): Promise<readonly ServiceCandidate[]>;
  /**
   * A number that moves whenever what {@link candidates} answers without filters could change
   * (a sync that changed something, an added, removed or promoted vendor), on every instance.
   */
  searchVersion(): Promise<number>;
  /** The services with these row ids, in the order given (unknown ids skipped), with history. */
  byIds(ids: readonly number[], window: TimeWindow): Promise<readonly ServiceWithHistory[]>;
  /**
   * The services whose latest reading attempt failed, by slug, with since when their reading has
   * failed (null when not known) — `vendors_failing`: few rows, read every round of the alert
   * evaluator's readings pass.
   */
  failing(): Promise<readonly { readonly slug: string; readonly since: EpochMs | null }[]>;
  /** The catalog service with `slug`, or null. */
  service(slug: string): Promise<ServiceRow | null>;
  /**
   * One service with its components, open incidents, transitions over `window` and the
   * incidents resolved since `resolvedSince`; or null.
   */
  detail(
    slug: string,
    window: TimeWindow,
    resolvedSince: EpochMs,
  ): Promise<ServiceDetailRows | null>;
  /** Every catalog service's name and slug, by slug ("did you mean", feed titles). */
  names(): Promise<readonly { readonly name: string; readonly slug: string }[]>;
  /** One row per provider, ordered by provider slug, with history over `window`. */
  providers(window: TimeWindow): Promise<readonly ProviderRow[]>;
  /** When each catalog service's page last changed (status change or incident update), by slug. */
  lastModified(): Promise<
    readonly { readonly slug: string; readonly lastModified: EpochMs | null }[]
  >;
  /** What the home page shows. */
  overview(query: OverviewQuery): Promise<CatalogOverview>;
  /**
   * Catalog services working now (`RECOVERED_LEVELS`) whose level changed at or after `since`
   * (the candidates for "recovered lately"), most recent change first, each with its
   * transitions over `window` reaching back to the last recovery before it.
   */
  backToWorking(since: EpochMs, window: TimeWindow): Promise<readonly ServiceWithHistory[]>;
  /**
   * The stored vendor whose status page is `key`'s (`statusPageKey`: the same host and path,
   * whatever the scheme, case of the host, query or trailing slash), polled now, or null.
   */
  byPageKey(key: string): Promise<{ readonly slug: string; readonly origin: VendorOrigin } | null>;
  /**
   * Adds the page to the account's vendors in one transaction: a listed vendor with this page
   * adds nothing; a page another account added is linked (one vendor, polled once); a new one is
   * stored (due at `now`, listed only for the accounts that add it) unless the account keeps
   * `limit` already.
   */
  addVendor(
    accountId: string,
    vendor: NewAddedVendor,
    now: EpochMs,
    limit: number,
  ): Promise<AddVendorResult>;
  /** The vendors the account added by URL, most recently added first. */
  accountVendors(accountId: string): Promise<readonly AddedVendor[]>;
  /**
   * Removes one of the account's added vendors (false: it has no such one). The last account to
   * remove a vendor no one else added stops its polling (its history is kept).
   */
  removeAccountVendor(accountId: string, slug: string): Promise<boolean>;
  /** Lists an added vendor for everyone (false: no such added vendor). */
  promote(slug: string): Promise<boolean>;
  /**
   * Catalog candidates (`Vendor.candidate`) not yet proven, never checked or last checked before
   * `checkedBefore`, longest unchecked first, at most `limit`.
   */
  candidatesToCheck(
    checkedBefore: EpochMs,
    limit: number,
  ): Promise<
    readonly { readonly slug: string; readonly name: string; readonly statusPageUrl: string }[]
  >;
  /**
   * Records a check of a candidate at `at`: proven (`proof` says how), it joins the catalog
   * (listed, due at `at`) with its proof kept; else the check is kept and it stays unlisted.
   * False when no candidate has that slug.
   */
  recordCandidateCheck(
    slug: string,
    check: { readonly at: EpochMs; readonly proof: string | null; readonly detail: string },
  ): Promise<boolean>;
}
