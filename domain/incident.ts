/**
 * Incident statuses, impacts and the normalised incident shape.
 * @module
 */
import type { EpochMs } from "./time.ts";

/** Incident lifecycle; the last three are for scheduled maintenance. */
export const INCIDENT_STATUSES = [
  "INVESTIGATING",
  "IDENTIFIED",
  "MONITORING",
  "RESOLVED",
  "SCHEDULED",
  "IN_PROGRESS",
  "COMPLETED",
] as const;
/** One of {@link INCIDENT_STATUSES}. */
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Impact of an incident, least to most; MAINTENANCE marks planned work. */
export const IMPACTS = ["NONE", "MINOR", "MAJOR", "CRITICAL", "MAINTENANCE"] as const;
/** One of {@link IMPACTS}. */
export type Impact = (typeof IMPACTS)[number];

/** One entry of an incident's timeline. */
export interface IncidentUpdate {
  readonly at: EpochMs;
  readonly status: IncidentStatus;
  readonly body: string;
}

/** An incident as an adapter reads it from a vendor (nothing stored yet). */
export interface IncidentSnapshot {
  /** The vendor's own id (stable across polls); adapters synthesise one when none exists. */
  readonly externalId: string;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly impact: Impact;
  readonly startedAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
  readonly url: string | null;
  /** External ids of the components it names (may be empty). */
  readonly componentIds: readonly string[];
  /** Timeline, oldest first. */
  readonly updates: readonly IncidentUpdate[];
  /**
   * Planned start of a maintenance as the vendor announced it; absent or null when the
   * platform publishes none (the adapter then leaves it out).
   */
  readonly scheduledStartAt?: EpochMs | null;
  /** Planned end of a maintenance as the vendor announced it; absent or null when unknown. */
  readonly scheduledEndAt?: EpochMs | null;
}

/** An incident as reads return it. */
export interface Incident extends
  Omit<
    IncidentSnapshot,
    "externalId" | "componentIds" | "scheduledStartAt" | "scheduledEndAt"
  > {
  readonly id: string;
  readonly serviceSlug: string;
  /** Names of the affected components. */
  readonly components: readonly string[];
  /** Planned start of a maintenance; null when the vendor published none. */
  readonly scheduledStartAt: EpochMs | null;
  /** Planned end of a maintenance; null when the vendor published none. */
  readonly scheduledEndAt: EpochMs | null;
  /**
   * What the vendor rewrote of it after publishing, oldest first, with what statusd saw before
   * (absent where the read does not carry them).
   */
  readonly revisions?: readonly IncidentRevision[];
  /**
   * When statusd saw the vendor take it off its page while newer incidents stayed listed
   * (a history document only); null while it is listed, absent where the read does not say.
   */
  readonly removedAt?: EpochMs | null;
}

/** {@link maintenanceOverrun} as JSON both the API and MCP return (whole seconds). */
export function overrunJson(
  i: Pick<Incident, "status" | "impact" | "scheduledEndAt">,
  now: EpochMs,
): { since: string; seconds: number } | null {
  const overrun = maintenanceOverrun(i, now);
  return overrun === null ? null : {
    since: new Date(overrun.since).toISOString(),
    seconds: Math.floor(overrun.byMs / 1000),
  };
}

/** An incident's revisions as JSON both the API and MCP return (times as ISO 8601). */
export function revisionsJson(
  i: Pick<Incident, "revisions">,
): { at: string; kind: RevisionKind; before: string; after: string }[] {
  return (i.revisions ?? []).map((r) => ({
    at: new Date(r.at).toISOString(),
    kind: r.kind,
    before: r.before,
    after: r.after,
  }));
}

/**
 * What a vendor can rewrite of what it published: an update's text, the impact once it was
 * over, the start time; or take the incident off its page (and put it back).
 */
export const REVISION_KINDS = [
  "update_edited",
  "impact_lowered",
  "start_moved",
  "removed",
  "restored",
] as const;
/** One of {@link REVISION_KINDS}. */
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** One rewrite statusd saw: when it saw it, what kind, and the text before and after. */
export interface IncidentRevision {
  readonly at: EpochMs;
  readonly kind: RevisionKind;
  readonly before: string;
  readonly after: string;
}

/**
 * The statuses that end an incident or a maintenance. Every other status is open; stores render
 * their "open" predicate from this list, so the rule is written once.
 */
export const CLOSED_INCIDENT_STATUSES: readonly IncidentStatus[] = ["RESOLVED", "COMPLETED"];

/** True while an incident or maintenance is not finished. */
export function isOpen(status: IncidentStatus): boolean {
  return !CLOSED_INCIDENT_STATUSES.includes(status);
}

/**
 * When a maintenance starts and ends, as best known: the announced window, else its start time
 * and (once finished) its resolution time; `end` is null while no end is known.
 */
export function maintenanceWindow(
  i: Pick<Incident, "startedAt" | "resolvedAt" | "status" | "scheduledStartAt" | "scheduledEndAt">,
): { start: EpochMs; end: EpochMs | null } {
  const start = i.scheduledStartAt ?? i.startedAt;
  const end = i.scheduledEndAt ?? (isOpen(i.status) ? null : i.resolvedAt);
  return { start, end: end !== null && end < start ? start : end };
}

/** Statuses only planned maintenance has. */
export const MAINTENANCE_STATUSES: readonly IncidentStatus[] = [
  "SCHEDULED",
  "IN_PROGRESS",
  "COMPLETED",
];

/** True for planned maintenance (by impact or by a maintenance-only status). */
export function isMaintenance(i: { status: IncidentStatus; impact: Impact }): boolean {
  return i.impact === "MAINTENANCE" || MAINTENANCE_STATUSES.includes(i.status);
}

/**
 * A maintenance past its announced end that the vendor has not closed: since when (the
 * announced end) and by how long at `now`; null for anything else. The vendor has not said it
 * is done, so it still counts as under way; this only says it overran.
 */
export function maintenanceOverrun(
  i: Pick<Incident, "status" | "impact" | "scheduledEndAt">,
  now: EpochMs,
): { readonly since: EpochMs; readonly byMs: number } | null {
  if (!isMaintenance(i) || !isOpen(i.status) || i.scheduledEndAt === null) return null;
  return now > i.scheduledEndAt ? { since: i.scheduledEndAt, byMs: now - i.scheduledEndAt } : null;
}
