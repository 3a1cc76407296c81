/**
 * What the conformance cases share: the case shape, a fixed time, vendors and snapshots.
 * @module
 */
import type {
  ComponentSnapshot,
  EpochMs,
  IncidentSnapshot,
  Snapshot,
  StatusLevel,
  Store,
  SuccessRecord,
  Vendor,
} from "../../../domain/mod.ts";

/** One behaviour every store must show. */
export interface Case {
  readonly name: string;
  run(store: Store): Promise<void>;
}

/** 2026-03-01T00:00:00Z. */
export const T = Date.UTC(2026, 2, 1);
export const MIN = 60_000;
export const DAY = 86_400_000;

/** A catalog vendor. */
export function vendor(slug: string, extra: Partial<Vendor> = {}): Vendor {
  return {
    name: slug.charAt(0).toUpperCase() + slug.slice(1),
    slug,
    statusPageUrl: `https://status.${slug}.test`,
    platform: "statuspage",
    category: "other",
    provider: slug,
    domains: [],
    ...extra,
  };
}

/** A component snapshot. */
export function component(
  externalId: string,
  status: StatusLevel = "OPERATIONAL",
  extra: Partial<ComponentSnapshot> = {},
): ComponentSnapshot {
  return { externalId, name: externalId.toUpperCase(), group: null, status, ...extra };
}

/** An incident snapshot started at `at`. */
export function incident(
  externalId: string,
  at: EpochMs,
  extra: Partial<IncidentSnapshot> = {},
): IncidentSnapshot {
  return {
    externalId,
    title: `Incident ${externalId}`,
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: at,
    updatedAt: at,
    resolvedAt: null,
    url: `https://status.test/incidents/${externalId}`,
    componentIds: [],
    updates: [{ at, status: "INVESTIGATING", body: `Looking into ${externalId}` }],
    ...extra,
  };
}

/** A snapshot. */
export function snapshot(
  indicator: StatusLevel,
  components: ComponentSnapshot[] = [],
  incidents: IncidentSnapshot[] = [],
): Snapshot {
  return { indicator, components, incidents };
}

/** The poll facts of a success at `at`. */
export function success(at: EpochMs, extra: Partial<SuccessRecord> = {}): SuccessRecord {
  return {
    at,
    latencyMs: 40,
    httpStatus: 200,
    nextPollAt: at + MIN,
    deadlineAt: at + 2 * MIN,
    etag: null,
    lastModified: null,
    notes: [],
    ...extra,
  };
}

/** Syncs `vendors` and answers their row ids by slug. */
export async function withVendors(
  store: Store,
  vendors: readonly Vendor[],
  at: EpochMs = T,
): Promise<Record<string, number>> {
  await store.catalog.sync(vendors, at);
  const ids: Record<string, number> = {};
  for (const v of vendors) ids[v.slug] = (await store.catalog.service(v.slug))!.id;
  return ids;
}

/** Records a reading of vendor `id` at `at`; answers the committed changes without ids. */
export async function read(store: Store, id: number, s: Snapshot, at: EpochMs) {
  const changes = await store.polls.recordSuccess(id, s, success(at));
  return changes.map(({ id: _id, at: _at, ...c }) => c);
}

/** The whole window from long before to long after `T`. */
export const ALL_TIME = { start: T - 400 * DAY, end: T + 400 * DAY };
