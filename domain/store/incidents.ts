/**
 * `store.incidents`: the incident feed and the maintenance calendar of catalog services.
 * @module
 */
import type { Incident } from "../incident.ts";
import type { PageRequest } from "../page.ts";
import type { EpochMs } from "../time.ts";

/** Filters of the incident feed; they combine with AND. */
export interface IncidentFilter {
  /** Only unfinished incidents and maintenances. */
  readonly active?: boolean;
  /** Only this service (slug). */
  readonly service?: string;
  /** Only incidents updated at or after this instant. */
  readonly since?: EpochMs;
  /** Only incidents resolved (or maintenances completed) at or after this instant. */
  readonly resolvedSince?: EpochMs;
  /** Newest first by start (the default) or by last update (what feeds date their items by). */
  readonly order?: "started" | "updated";
}

/** Which maintenances to list; the fields combine with AND. */
export interface MaintenanceFilter {
  /** Only these services (slugs). */
  readonly services?: readonly string[];
  /** Only services of this provider (slug). */
  readonly provider?: string;
  /** Only unfinished ones in progress, or planned to start (or started) before this instant. */
  readonly startsBefore?: EpochMs;
  /**
   * Only unfinished ones in progress, or whose announced end (if any) is after this instant: a
   * maintenance still SCHEDULED after its window closed is stale, not due.
   */
  readonly endsAfter?: EpochMs;
  /** Also the ones finished (COMPLETED) at or after this instant. */
  readonly finishedSince?: EpochMs;
  /** At most this many (the earliest). */
  readonly limit: number;
}

/** The incidents noun of the store. */
export interface IncidentStore {
  /**
   * One page of incidents matching `filter`, newest first (start time, then id), each with its
   * affected component names and its timeline (oldest entry first), and the total. Null when
   * `filter.service` names no catalog service.
   */
  page(
    filter: IncidentFilter,
    page: PageRequest,
  ): Promise<{ readonly items: readonly Incident[]; readonly total: number } | null>;
  /**
   * Maintenances of catalog services: the unfinished ones (scheduled or in progress), plus the
   * recently finished ones when `finishedSince` is set; earliest planned start first.
   */
  maintenances(filter: MaintenanceFilter): Promise<readonly Incident[]>;
}
