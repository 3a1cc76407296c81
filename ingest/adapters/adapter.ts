/**
 * The contract every status-page platform adapter fulfils.
 * @module
 */
import type { EpochMs, Platform, Snapshot, Vendor } from "../../domain/mod.ts";

/**
 * What `parse` may know besides the body: the vendor's page URL (for links), the document's own
 * URL and the fetch time.
 */
export interface ParseContext {
  readonly pageUrl: URL;
  readonly fetchedAt: EpochMs;
  /**
   * The URL the document came from (after redirects), where it says more than the page URL
   * (status.io's page id, for links to its incidents). Absent in tests of a payload alone.
   */
  readonly documentUrl?: URL;
  /** Reports a platform value with no mapping (the poller logs each once). */
  readonly unknownValue?: (field: string, value: string) => void;
  /**
   * Reports an item or field left out of the snapshot because it was malformed or out of range
   * (`path` as in {@link PayloadError}, e.g. `incidents[3].started_at`). The poller keeps these
   * as the reading's notes, so a partial reading says what it dropped.
   */
  readonly dropped?: (path: string, reason: string) => void;
}

/** One status-page platform: where to fetch and how to read what was fetched. */
export interface Adapter {
  /** Catalog value this adapter serves, e.g. "statuspage". */
  readonly platform: Platform;
  /** The document to GET for a vendor (absolute URL), derived from its status page URL. */
  endpoint(vendor: Pick<Vendor, "statusPageUrl" | "slug">): URL;
  /** Pure: the exact bytes the vendor published → a normalised snapshot. Throws PayloadError. */
  parse(body: string, ctx: ParseContext): Snapshot;
  /**
   * For platforms whose data endpoint is not always derivable from the page URL: the poller
   * then reads the status page once, asks `find` for the endpoint and stores it per vendor.
   */
  readonly discovery?: Discovery;
  /**
   * The platform's cheapest honest signal that a page changed, when it offers one smaller
   * than the full document. Without it, the poller's signal for a calm vendor is a
   * conditional request of the full endpoint (304, or the same bytes as last time).
   */
  readonly pulse?: Pulse;
  /**
   * For platforms whose document lists open incidents only: the vendor's history document
   * (its recent incidents, resolved ones included), in a format `parse` reads. The poller
   * fetches it only when an open incident vanished from the document, to tell a resolution
   * (with the vendor's own time and words) from a deletion (domain/vanished_incidents.ts).
   */
  readonly history?: History;
  /**
   * For platforms whose components name their group by id only (`groupRef`): the document
   * naming the groups. The poller reads it (at most hourly per vendor) and fills each
   * component's `group`.
   */
  readonly groupNames?: GroupNames;
}

/** Where a platform names its component groups (see {@link Adapter.groupNames}). */
export interface GroupNames {
  /** The groups document's URL, from the URL the components came from (after redirects). */
  endpoint(main: URL): URL;
  /** Pure: the groups document → each group's id → its name. Throws PayloadError. */
  parse(body: string): ReadonlyMap<string, string>;
}

/** Where a platform keeps the history document of a page (see {@link Adapter.history}). */
export interface History {
  /** The history document's URL, from the URL the main document came from (after redirects). */
  endpoint(main: URL): URL;
}

/**
 * A small document that says whether anything on a status page changed: the poller fetches it
 * often for calm vendors and reads the full snapshot at once when its fingerprint changes, and
 * at least once per stable interval regardless.
 */
export interface Pulse {
  /** The pulse document to GET for a vendor (absolute URL), derived from its status page URL. */
  endpoint(vendor: Pick<Vendor, "statusPageUrl" | "slug">): URL;
  /**
   * Pure: the pulse document → a short fingerprint of what it says, equal for two documents
   * exactly when the page did not change as far as the document tells. Throws PayloadError
   * when the body is not the platform's pulse document.
   */
  fingerprint(body: string): string;
}

/** Finding a vendor's data endpoint in its status page HTML (see {@link Adapter.discovery}). */
export interface Discovery {
  /** True when `endpoint()` cannot know this vendor's data endpoint from its URL alone. */
  needed(vendor: Pick<Vendor, "statusPageUrl" | "slug">): boolean;
  /**
   * Pure: from the vendor's status page HTML (served at `pageUrl`, after redirects), the data
   * endpoint to poll, or null when the page does not say.
   */
  find(pageHtml: string, pageUrl: URL): URL | null;
}

/** The payload is not the platform's shape; the message names the field and what was found. */
export class PayloadError extends SyntaxError {
  constructor(readonly platform: string, readonly path: string, detail: string) {
    super(`Cannot parse ${platform} payload at "${path}": ${detail}`);
    this.name = "PayloadError";
  }
}

/**
 * The body is not a document of the platform's format at all (not JSON, malformed XML): the
 * poller records it as `parse_error`, or `not_machine_readable` when the body is an HTML page.
 */
export class UndecodableError extends PayloadError {
  constructor(platform: string, detail: string) {
    super(platform, "$", detail);
    this.name = "UndecodableError";
  }
}
