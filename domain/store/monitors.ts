/**
 * `store.monitors`: the services an account watches. A monitor names its service by
 * slug and its components by name, so it outlives both leaving the vendor's page; it carries a
 * version that every write bumps (the API's ETag).
 * @module
 */
import type { PageRequest } from "../page.ts";
import type { EpochMs } from "../time.ts";

/** A stored monitor. */
export interface MonitorRecord {
  readonly id: string;
  readonly accountId: string;
  readonly serviceSlug: string;
  /** Chosen component names; empty: the whole service. */
  readonly components: readonly string[];
  readonly label: string | null;
  /** Percent overriding the account's SLA target, or null. */
  readonly slaTarget: number | null;
  readonly paused: boolean;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  /** Starts at 1; every update adds one. */
  readonly version: number;
}

/** A monitor to create (version 1, updated when created). */
export type NewMonitor = Omit<MonitorRecord, "updatedAt" | "version">;

/** Fields an update may change. */
export type MonitorPatch = Partial<
  Pick<MonitorRecord, "components" | "label" | "slaTarget" | "paused">
>;

/** The monitors noun of the store. */
export interface MonitorStore {
  /**
   * Creates `m` unless the account already has `limit` monitors (null: no limit), in one
   * atomic act; "limit" when refused.
   */
  create(m: NewMonitor, limit: number | null): Promise<MonitorRecord | "limit">;
  /** One page of the account's monitors, oldest first, and how many it has. */
  list(
    accountId: string,
    page: PageRequest,
  ): Promise<{ items: readonly MonitorRecord[]; total: number }>;
  /**
   * Every unpaused monitor of any account on one of the services `slugs`, oldest first: who
   * watches what changed (the evaluator's index from service to rules; `monitors_service`).
   */
  watching(slugs: readonly string[]): Promise<readonly MonitorRecord[]>;
  /** The account's monitor `id`, or null (another account's monitor is null too). */
  get(accountId: string, id: string): Promise<MonitorRecord | null>;
  /**
   * Applies `patch` at `at` when the stored version is `ifVersion` (null: any); the updated
   * monitor, null when there is no such monitor, "conflict" when the version differs.
   */
  update(
    accountId: string,
    id: string,
    patch: MonitorPatch,
    at: EpochMs,
    ifVersion: number | null,
  ): Promise<MonitorRecord | null | "conflict">;
  /** Deletes it when the version is `ifVersion` (null: any); false when none, "conflict". */
  delete(accountId: string, id: string, ifVersion: number | null): Promise<boolean | "conflict">;
}
