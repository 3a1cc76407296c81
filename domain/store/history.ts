/**
 * `store.history`: what reports read about one service over time: its transitions, the
 * incidents of a window and the fetch log.
 * @module
 */
import type { Impact, Incident } from "../incident.ts";
import type { LatencyHistogram } from "../latency.ts";
import type { ResolvedSpan } from "../resolution.ts";
import type { Component } from "../service.ts";
import type { EpochMs } from "../time.ts";
import type { StatusTransition, TimeWindow } from "../uptime.ts";
import type { ServiceDetailRows, ServiceWithHistory } from "./catalog.ts";
import type { PollOutcome } from "./polls.ts";

/**
 * How far before a window to reach for its first transition: the last transition at or before
 * its start (`"last"`), or the last recovery to OPERATIONAL/UNDER_MAINTENANCE at or before it
 * (`"recovery"`, so MTTR sees whole episodes).
 */
export type Lookback = "last" | "recovery";

/** An incident as the SLA report cites it. */
export interface SlaIncidentRow {
  readonly id: string;
  readonly title: string;
  readonly impact: Impact;
  readonly startedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
}

/** What one SLA report reads, together. */
export interface SlaInputs extends ServiceWithHistory {
  /** The service's incidents open at some moment of the transitions' window, oldest first. */
  readonly incidents: readonly SlaIncidentRow[];
  /**
   * Latencies of the answered fetches (full reads and pulses; failures are left out) over the
   * UTC days the latency window touches, as a histogram (domain/latency.ts).
   */
  readonly latency: LatencyHistogram;
}

/** One fetch of a vendor's status endpoint, as logged. */
export interface FetchRecord {
  readonly at: EpochMs;
  readonly outcome: PollOutcome;
  readonly httpStatus: number | null;
  readonly latencyMs: number;
}

/** A service's current components, each with every transition the store keeps of it. */
export interface ComponentTimelines extends ServiceWithHistory {
  readonly components: readonly {
    readonly component: Component;
    /** Oldest first; at most the newest `STORE_LIMITS.transitionsPerComponent`. */
    readonly transitions: readonly StatusTransition[];
  }[];
}

/** What the service page asks for, all read in one snapshot. */
export interface ServicePageQuery {
  /** The catalog rows' transitions window (as `catalog.detail`). */
  readonly window: TimeWindow;
  /** Resolutions since then (time to resolve). */
  readonly resolvedAfter: EpochMs;
  /** Uptime and MTTR: transitions over this window, reaching back to the last recovery. */
  readonly uptime: TimeWindow;
  /** Daily history of the service and its components: transitions over this window. */
  readonly history: TimeWindow;
  /** Past incidents: closed at or after this instant, at most `pastLimit`, newest first. */
  readonly pastSince: EpochMs;
  readonly pastLimit: number;
}

/** The rows of one service page, from one consistent snapshot. */
export interface ServicePageRows {
  readonly detail: ServiceDetailRows;
  readonly uptime: ServiceWithHistory;
  readonly history: ComponentTimelines;
  readonly past: readonly Incident[];
  /** What the vendor rewrote of its incidents within `q.history`: revisions, and of how many. */
  readonly rewrites: { readonly revisions: number; readonly incidents: number };
}

/** The history noun of the store. */
export interface HistoryStore {
  /** Everything the service page shows, in one snapshot; null when no such service. */
  servicePage(slug: string, q: ServicePageQuery): Promise<ServicePageRows | null>;
  /**
   * A catalog service with its service-level transitions over `window` (reaching back by
   * `lookback`, through the first one at or after its end); null when no such service.
   */
  timeline(
    slug: string,
    window: TimeWindow,
    lookback: Lookback,
  ): Promise<ServiceWithHistory | null>;
  /**
   * The SLA report's inputs: transitions over `window` (recovery lookback), incidents open in
   * it, and the latency summary of the days `latency` touches; null when no such service.
   */
  slaInputs(slug: string, window: TimeWindow, latency: TimeWindow): Promise<SlaInputs | null>;
  /**
   * A catalog service with its transitions over `window` and its current components (in the
   * vendor's order) each with its stored transitions; null when no such service.
   */
  componentTimelines(slug: string, window: TimeWindow): Promise<ComponentTimelines | null>;
  /**
   * A catalog service's incidents and maintenances resolved (or completed) at or after `since`;
   * null when no such service.
   */
  resolutions(slug: string, since: EpochMs): Promise<readonly ResolvedSpan[] | null>;
  /** The fetch log of a vendor (catalog or not) since `since`, oldest first; [] when unknown. */
  fetchLog(slug: string, since: EpochMs): Promise<readonly FetchRecord[]>;
}
