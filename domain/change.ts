/**
 * Committed changes: what the poller stored, published to live subscribers (SSE, MCP).
 * @module
 */
import type { Impact, IncidentStatus } from "./incident.ts";
import type { StatusLevel } from "./status.ts";
import type { EpochMs } from "./time.ts";

/** A change of level of a service (component null) or of one of its components. */
export interface StatusChange {
  readonly kind: "status";
  readonly slug: string;
  /** Component name, or null for the service as a whole. */
  readonly component: string | null;
  readonly from: StatusLevel;
  readonly to: StatusLevel;
}

/** An incident that appeared or whose status, impact, timeline or planned window moved. */
export interface IncidentChange {
  readonly kind: "incident";
  readonly slug: string;
  readonly incidentId: string;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly impact: Impact;
  /** Body of the newest timeline entry, if any. */
  readonly latestUpdate: string | null;
  /** The vendor's page of the incident (http or https), when it gave one; absent in old rows. */
  readonly url?: string | null;
  /** The components the vendor said it affects (names); empty: it named none; absent in old rows. */
  readonly components?: readonly string[];
  /** True when this reading is the first to show the incident. */
  readonly opened?: true;
}

/**
 * statusd's own early warning of a vendor moved: suspected (its probes or members' reports see
 * trouble), acknowledged (the vendor admitted it), or cleared. statusd's observation, never the
 * vendor's status.
 */
export interface EarlyWarningChange {
  readonly kind: "early_warning";
  readonly slug: string;
  readonly phase: "suspected" | "acknowledged" | "cleared";
  /** statusd's first evidence (ISO 8601). */
  readonly since: string;
  /** In words, as surfaces show it. */
  readonly summary: string;
}

/** A change as stored in the feed: a monotonically increasing id (SSE `id`) and its time. */
export type Change = (StatusChange | IncidentChange | EarlyWarningChange) & {
  readonly id: number;
  readonly at: EpochMs;
};
