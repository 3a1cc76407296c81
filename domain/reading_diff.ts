/**
 * What a new reading of a vendor changes, decided once for every store: a pure function from
 * what is stored (the vendor's level, its components and the incidents the reading concerns),
 * the new snapshot and the time, to the writes a store must make and the changes it must log.
 * Stores load the state, persist the result and never judge a change themselves.
 *
 * The rules held here:
 * - **First reading.** The first successful reading of a vendor is an observation, not a
 *   change: its transition is written (history starts there) but `lastChangedAt` stays, so a
 *   fresh start does not make every vendor "moving".
 * - **Vanished incidents.** An open incident the page no longer shows is closed at the reading
 *   time (`COMPLETED` for maintenance, else `RESOLVED`): documents such as Statuspage's summary
 *   drop an incident once it is resolved, so absence is the only signal.
 * - **Removed incidents.** A document that keeps history (`Snapshot.keepsHistory`: feeds,
 *   incident lists) lists every incident newer than the oldest closed one it shows. One it
 *   stops listing while older ones stay was taken off the page by the vendor: it is marked
 *   removed (a `removed` revision; closed if it was open) and kept; one that comes back is
 *   marked `restored`. See {@link historyCutoff} for what "newer" means. A document of open
 *   incidents only says so through `Snapshot.removedIncidents`, which the poller fills from the
 *   vendor's history document (domain/vanished_incidents.ts).
 * - **Removed components.** A component gone from the page ends its history with a transition
 *   to `UNKNOWN` (time not counted as up or down) and is kept, marked removed; one that comes
 *   back is revived from `UNKNOWN`.
 * - **Open or closed** is `isOpen` (domain/incident.ts).
 * - **Caps.** Which per-vendor caps (`STORE_LIMITS`) a reading may have pushed past: the store
 *   then keeps the newest rows up to the cap (a storage bound it alone can count).
 * @module
 */
import type { IncidentChange, StatusChange } from "./change.ts";
import {
  type Impact,
  type IncidentRevision,
  type IncidentSnapshot,
  type IncidentStatus,
  type IncidentUpdate,
  isMaintenance,
  isOpen,
} from "./incident.ts";
import { type ComponentSnapshot, serviceStatus, type Snapshot } from "./service.ts";
import type { StatusLevel } from "./status.ts";
import type { EpochMs } from "./time.ts";

/** The stored facts of a vendor a reading is compared with. */
export interface StoredVendor {
  readonly slug: string;
  readonly currentStatus: StatusLevel;
  readonly lastSuccessAt: EpochMs | null;
  readonly lastChangedAt: EpochMs | null;
}

/** A stored component (removed ones included). */
export interface StoredComponent {
  readonly externalId: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: StatusLevel;
  readonly position: number;
  /** When it left the page; null while it is on it. */
  readonly removedAt: EpochMs | null;
}

/** A stored incident with its timeline. */
export interface StoredIncident {
  readonly externalId: string;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly impact: Impact;
  readonly startedAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
  readonly url: string | null;
  readonly componentIds: readonly string[];
  readonly scheduledStartAt: EpochMs | null;
  readonly scheduledEndAt: EpochMs | null;
  /** Its stored timeline (only needed for incidents the snapshot names). */
  readonly updates: readonly IncidentUpdate[];
  /** When it was seen taken off the vendor's page; null while listed. */
  readonly removedAt: EpochMs | null;
}

/**
 * What a store loads before applying a reading: the vendor, every stored component of it, and
 * its stored incidents that are open or that the snapshot names (those with their timeline),
 * and, when the snapshot has a {@link historyCutoff}, those that started after it.
 */
export interface StoredReadingState {
  readonly vendor: StoredVendor;
  readonly components: readonly StoredComponent[];
  readonly incidents: readonly StoredIncident[];
}

/** A component write. `revive` also clears its removal; `touch` moves its `updatedAt`. */
export type ComponentWrite =
  | { readonly kind: "insert"; readonly component: ComponentSnapshot; readonly position: number }
  | {
    readonly kind: "update";
    readonly externalId: string;
    readonly name: string;
    readonly group: string | null;
    readonly status: StatusLevel;
    readonly position: number;
    /** True when its level changed or it came back: `updatedAt` becomes the reading time. */
    readonly touch: boolean;
  }
  | { readonly kind: "remove"; readonly externalId: string };

/**
 * A change a vendor made to what it had already published, with what statusd saw before:
 * an update's text edited, an impact lowered once the incident was over, a start moved.
 */
export interface Revision {
  readonly kind: IncidentRevision["kind"];
  /** What was published before (the text, the impact, the start as ISO 8601). */
  readonly before: string;
  /** What is published now. */
  readonly after: string;
  /** The update an edit is of (its time and status), for `update_edited`. */
  readonly update?: { readonly at: EpochMs; readonly status: IncidentStatus };
}

/** An incident write; `updates` are the timeline entries to add (never stored before). */
export type IncidentWrite =
  | { readonly kind: "insert"; readonly incident: IncidentSnapshot }
  | {
    readonly kind: "update";
    readonly incident: IncidentSnapshot;
    /** True when any stored field differs (they are all rewritten). */
    readonly fields: boolean;
    readonly updates: readonly IncidentUpdate[];
    /** What the vendor rewrote of what it had published; edited updates change in place. */
    readonly revisions: readonly Revision[];
    /** It had been removed from the page and is listed again (its removal is cleared). */
    readonly restored: boolean;
  }
  | { readonly kind: "close"; readonly externalId: string; readonly status: IncidentStatus }
  | {
    readonly kind: "remove";
    readonly externalId: string;
    /** The status it closes with, when it was open; null when it was already over. */
    readonly close: IncidentStatus | null;
    readonly revision: Revision;
  };

/** A level change to log: of the service (`component` null) or of a component (external id). */
export interface TransitionWrite {
  readonly component: string | null;
  readonly from: StatusLevel;
  readonly to: StatusLevel;
}

/** The per-vendor caps a reading may have pushed past (domain/retention.ts `STORE_LIMITS`). */
export interface CapsToEnforce {
  /** A component was removed: keep the most recently removed up to the cap. */
  readonly removedComponents: boolean;
  /** Components (external ids) whose level changed: keep their newest transitions. */
  readonly componentTransitions: readonly string[];
  /** An incident was added: keep open ones and the most recently closed up to the cap. */
  readonly incidents: boolean;
  /** Incidents (external ids) whose timeline grew: keep their newest entries. */
  readonly timelines: readonly string[];
}

/** Everything a reading changes. `changes` go to the feed in this order. */
export interface ReadingDiff {
  /** The vendor's row after the reading (always written: the check time moves). */
  readonly vendor: {
    readonly currentStatus: StatusLevel;
    readonly indicator: StatusLevel;
    readonly lastChangedAt: EpochMs | null;
    readonly lastSuccessAt: EpochMs;
    readonly lastCheckedAt: EpochMs;
  };
  readonly components: readonly ComponentWrite[];
  readonly incidents: readonly IncidentWrite[];
  /** Transitions in the order to log them (the service's last). */
  readonly transitions: readonly TransitionWrite[];
  readonly changes: readonly (StatusChange | IncidentChange)[];
  readonly caps: CapsToEnforce;
}

/** The service's level after a reading that gives `status`, and whether that is a change. */
export interface ServiceAfterReading {
  readonly status: StatusLevel;
  /** The level moved (a transition is logged, even on a first reading). */
  readonly moved: boolean;
  /** When it last changed, by the first-reading rule. */
  readonly lastChangedAt: EpochMs | null;
}

/**
 * The service's level after a successful reading at `at` giving `status`: a move on the first
 * reading of a vendor (no success before) keeps `lastChangedAt`. The poller's schedule and
 * {@link diffReading} both use this, so they agree on what counts as a change.
 */
export function serviceAfterReading(
  vendor: Pick<StoredVendor, "currentStatus" | "lastSuccessAt" | "lastChangedAt">,
  status: StatusLevel,
  at: EpochMs,
): ServiceAfterReading {
  const moved = status !== vendor.currentStatus;
  const first = vendor.lastSuccessAt === null;
  return { status, moved, lastChangedAt: moved && !first ? at : vendor.lastChangedAt };
}

/** Compares `snapshot` read at `at` with the stored state; see the module doc for the rules. */
export function diffReading(
  state: StoredReadingState,
  snapshot: Snapshot,
  at: EpochMs,
): ReadingDiff {
  const { vendor } = state;
  const components = diffComponents(vendor.slug, state.components, snapshot.components);
  const names = new Map(state.components.map((c) => [c.externalId, c.name]));
  for (const c of snapshot.components) names.set(c.externalId, c.name);
  const incidents = diffIncidents(
    vendor.slug,
    state.incidents,
    snapshot.incidents,
    names,
    historyCutoff(snapshot),
    new Set(snapshot.removedIncidents ?? []),
  );
  const after = serviceAfterReading(vendor, serviceStatus(snapshot), at);
  const transitions = [...components.transitions];
  const changes: (StatusChange | IncidentChange)[] = [];
  if (after.moved) {
    transitions.push({ component: null, from: vendor.currentStatus, to: after.status });
    changes.push({
      kind: "status",
      slug: vendor.slug,
      component: null,
      from: vendor.currentStatus,
      to: after.status,
    });
  }
  changes.push(...components.changes, ...incidents.changes);
  return {
    vendor: {
      currentStatus: after.status,
      indicator: snapshot.indicator,
      lastChangedAt: after.lastChangedAt,
      lastSuccessAt: at,
      lastCheckedAt: at,
    },
    components: components.writes,
    incidents: incidents.writes,
    transitions,
    changes,
    caps: {
      removedComponents: components.removed,
      componentTransitions: components.flipped,
      incidents: incidents.added,
      timelines: incidents.grown,
    },
  };
}

function diffComponents(
  slug: string,
  stored: readonly StoredComponent[],
  read: readonly ComponentSnapshot[],
) {
  const byExternal = new Map(stored.map((c) => [c.externalId, c]));
  const writes: ComponentWrite[] = [];
  const transitions: TransitionWrite[] = [];
  const changes: StatusChange[] = [];
  const flipped: string[] = [];
  const seen = new Set<string>();
  read.forEach((c, position) => {
    if (seen.has(c.externalId)) return; // a repeated id in one payload: the first one wins
    seen.add(c.externalId);
    const row = byExternal.get(c.externalId);
    if (!row) {
      writes.push({ kind: "insert", component: c, position });
      transitions.push({ component: c.externalId, from: "UNKNOWN", to: c.status });
      return;
    }
    const from: StatusLevel = row.removedAt === null ? row.status : "UNKNOWN";
    const moved = from !== c.status;
    if (moved) {
      transitions.push({ component: c.externalId, from, to: c.status });
      flipped.push(c.externalId);
      changes.push({ kind: "status", slug, component: c.name, from, to: c.status });
    }
    if (
      moved || row.name !== c.name || row.group !== c.group || row.position !== position ||
      row.removedAt !== null
    ) {
      writes.push({
        kind: "update",
        externalId: c.externalId,
        name: c.name,
        group: c.group,
        status: c.status,
        position,
        touch: row.status !== c.status || row.removedAt !== null,
      });
    }
  });
  let removed = false;
  for (const row of stored) {
    if (seen.has(row.externalId) || row.removedAt !== null) continue;
    // Gone from the page: history ends here (UNKNOWN time is not counted as up or down).
    transitions.push({ component: row.externalId, from: row.status, to: "UNKNOWN" });
    writes.push({ kind: "remove", externalId: row.externalId });
    removed = true;
  }
  return { writes, transitions, changes, flipped, removed };
}

const updateKey = (u: IncidentUpdate) => `${u.at}\u0000${u.status}\u0000${u.body}`;

/** How bad each impact is, for "lowered" (maintenance is not on the scale). */
const IMPACT_RANK: Readonly<Record<Impact, number>> = {
  NONE: 0,
  MINOR: 1,
  MAJOR: 2,
  CRITICAL: 3,
  MAINTENANCE: -1,
};

/** Start times closer than this are the same start (feeds print minutes). */
const START_SLACK_MS = 5 * 60_000;

/**
 * What the vendor rewrote of incident `row` in `read`, judged only where nothing else explains
 * it: an update (same time and status) whose text changed; an impact lowered after the
 * incident was over; a start moved earlier, or later while the vendor's own timeline still
 * shows the old start (a feed dropping its oldest entries moves a start later by itself).
 */
export function revisionsOf(row: StoredIncident, read: IncidentSnapshot): Revision[] {
  const out: Revision[] = [];
  const moment = (u: IncidentUpdate) => `${u.at}\u0000${u.status}`;
  const stored = Map.groupBy(row.updates, moment);
  const readKeys = Map.groupBy(read.updates, moment);
  for (const [key, now] of readKeys) {
    const before = stored.get(key);
    // One entry at that time and status on both sides, with other words: an edit.
    if (before?.length !== 1 || now.length !== 1) continue;
    if (before[0]!.body === now[0]!.body || now[0]!.body.trim() === "") continue;
    out.push({
      kind: "update_edited",
      before: before[0]!.body,
      after: now[0]!.body,
      update: { at: now[0]!.at, status: now[0]!.status },
    });
  }
  const over = !isOpen(row.status) && !isOpen(read.status);
  if (over && IMPACT_RANK[read.impact] >= 0 && IMPACT_RANK[read.impact] < IMPACT_RANK[row.impact]) {
    out.push({ kind: "impact_lowered", before: row.impact, after: read.impact });
  }
  const shift = read.startedAt - row.startedAt;
  const stillShown = read.updates.some((u) => u.at <= row.startedAt + START_SLACK_MS);
  if (Math.abs(shift) > START_SLACK_MS && (shift < 0 || stillShown)) {
    out.push({
      kind: "start_moved",
      before: new Date(row.startedAt).toISOString(),
      after: new Date(read.startedAt).toISOString(),
    });
  }
  return out;
}

/**
 * The instant after which a document that keeps history (`snapshot.keepsHistory`) lists every
 * incident the vendor still shows: the later of the earliest start and the earliest last
 * update among the closed incidents it lists, plus the start slack. A document cut by count or
 * by age, sorted by start or by last update, lists every incident that started after that.
 * Open incidents are left out, because documents of "open ones, plus those resolved lately"
 * list them whatever their age. Null when the snapshot keeps no history or lists nothing
 * closed (no evidence that it keeps any).
 */
export function historyCutoff(
  snapshot: Pick<Snapshot, "keepsHistory" | "incidents">,
): EpochMs | null {
  if (!snapshot.keepsHistory) return null;
  let start = Infinity;
  let updated = Infinity;
  for (const i of snapshot.incidents) {
    if (isOpen(i.status)) continue;
    start = Math.min(start, i.startedAt);
    updated = Math.min(updated, i.updatedAt);
  }
  return Number.isFinite(start) ? Math.max(start, updated) + START_SLACK_MS : null;
}

/** What a history document shows, as far as telling a removed incident goes. */
export interface Listing {
  /** Every incident that started after this is listed ({@link historyCutoff}). */
  readonly cutoff: EpochMs;
  /** The titles (`t:`) and links (`u:`) it lists. */
  readonly names: ReadonlySet<string>;
}

/** The {@link Listing} of the incidents a history document lists, past `cutoff`. */
export function listingOf(incidents: readonly IncidentSnapshot[], cutoff: EpochMs): Listing {
  const names = new Set(
    incidents.flatMap((i) => [`t:${i.title}`, ...(i.url === null ? [] : [`u:${i.url}`])]),
  );
  return { cutoff, names };
}

/**
 * Whether an incident a history document no longer lists by id was taken off the page: it
 * started after the listing's cutoff, and neither its title nor its link is listed. One listed
 * under another id is the same incident under a new id (some generators put a time in their
 * ids; a vendor that moved platform numbers them anew), not a removal.
 */
export function takenOff(
  i: { readonly startedAt: EpochMs; readonly title: string; readonly url: string | null },
  listing: Listing,
): boolean {
  return i.startedAt > listing.cutoff && !listing.names.has(`t:${i.title}`) &&
    !(i.url !== null && listing.names.has(`u:${i.url}`));
}

/** The words a subscriber reads when an open incident is taken off the vendor's page. */
export const REMOVED_WORDS = "The vendor removed this incident from its status page.";

/** The entries of `updates` not in `known` (nor repeated), in order. */
function newUpdates(updates: readonly IncidentUpdate[], known: Set<string>): IncidentUpdate[] {
  const out: IncidentUpdate[] = [];
  for (const u of updates) {
    const key = updateKey(u);
    if (known.has(key)) continue;
    known.add(key);
    out.push(u);
  }
  return out;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** The names of the components an incident names (ids no component has are left out). */
function componentNames(
  ids: readonly string[],
  names: ReadonlyMap<string, string>,
): string[] {
  return ids.flatMap((id) => names.has(id) ? [names.get(id)!] : []);
}

function incidentChange(
  slug: string,
  i: IncidentSnapshot,
  names: ReadonlyMap<string, string>,
): IncidentChange {
  const latest = i.updates[i.updates.length - 1];
  return {
    kind: "incident",
    slug,
    incidentId: i.externalId,
    title: i.title,
    status: i.status,
    impact: i.impact,
    latestUpdate: latest?.body ?? null,
    url: i.url,
    components: componentNames(i.componentIds, names),
  };
}

function diffIncidents(
  slug: string,
  stored: readonly StoredIncident[],
  read: readonly IncidentSnapshot[],
  names: ReadonlyMap<string, string>,
  cutoff: EpochMs | null,
  removedByHistory: ReadonlySet<string>,
) {
  const byExternal = new Map(stored.map((i) => [i.externalId, i]));
  // Removals are judged only while the page's ids still match what is stored (a vendor whose
  // ids all changed, or a new adapter, would otherwise read as a page wiped clean).
  const judgeRemovals = cutoff !== null && read.some((i) => byExternal.has(i.externalId));
  // Built only where removals are judged (a history document), not for every reading.
  const listing = judgeRemovals ? listingOf(read, cutoff) : null;
  const writes: IncidentWrite[] = [];
  const changes: IncidentChange[] = [];
  const grown: string[] = [];
  const seen = new Set<string>();
  let added = false;
  for (const i of read) {
    if (seen.has(i.externalId)) continue;
    seen.add(i.externalId);
    const row = byExternal.get(i.externalId);
    if (!row) {
      const updates = newUpdates(i.updates, new Set());
      writes.push({ kind: "insert", incident: { ...i, updates } });
      if (updates.length) grown.push(i.externalId);
      changes.push({ ...incidentChange(slug, i, names), opened: true });
      added = true;
      continue;
    }
    const restored = row.removedAt !== null;
    const revisions = revisionsOf(row, i);
    if (restored) revisions.push({ kind: "restored", before: "", after: i.title });
    const edited = new Set(
      revisions.flatMap((r) =>
        r.update ? [updateKey({ at: r.update.at, status: r.update.status, body: r.after })] : []
      ),
    );
    const updates = newUpdates(
      i.updates,
      new Set([...row.updates.map(updateKey), ...edited]),
    );
    const scheduledStartAt = i.scheduledStartAt ?? null;
    const scheduledEndAt = i.scheduledEndAt ?? null;
    // A rescheduled maintenance is news for subscribers (calendars, deploy gates).
    const moved = row.status !== i.status || row.impact !== i.impact || row.title !== i.title ||
      row.scheduledStartAt !== scheduledStartAt || row.scheduledEndAt !== scheduledEndAt;
    const fields = moved || row.startedAt !== i.startedAt || row.updatedAt !== i.updatedAt ||
      row.resolvedAt !== i.resolvedAt || row.url !== i.url ||
      !sameIds(row.componentIds, i.componentIds);
    if (fields || updates.length || revisions.length) {
      writes.push({ kind: "update", incident: i, fields, updates, revisions, restored });
    }
    if (updates.length) grown.push(i.externalId);
    if (moved || updates.length) changes.push(incidentChange(slug, i, names));
  }
  for (const row of stored) {
    if (seen.has(row.externalId)) continue;
    const closing: IncidentStatus = isMaintenance(row) ? "COMPLETED" : "RESOLVED";
    const removed = row.removedAt === null &&
      (removedByHistory.has(row.externalId) || (listing !== null && takenOff(row, listing)));
    if (removed) {
      const close = isOpen(row.status) ? closing : null;
      const revision: Revision = { kind: "removed", before: row.title, after: "" };
      writes.push({ kind: "remove", externalId: row.externalId, close, revision });
      if (close === null) continue;
    } else if (isOpen(row.status)) {
      writes.push({ kind: "close", externalId: row.externalId, status: closing });
    } else continue;
    changes.push({
      kind: "incident",
      slug,
      incidentId: row.externalId,
      title: row.title,
      status: closing,
      impact: row.impact,
      latestUpdate: removed ? REMOVED_WORDS : null,
      url: row.url,
      components: componentNames(row.componentIds, names),
    });
  }
  return { writes, changes, grown, added };
}

/** What marking a vendor stale writes: its level becomes `UNKNOWN` (once). */
export interface StaleDiff {
  /** The transition and change to log; null when the level already was UNKNOWN. */
  readonly transition: TransitionWrite | null;
  readonly change: StatusChange | null;
  /** The vendor's level and last change after it (unchanged when already UNKNOWN). */
  readonly currentStatus: StatusLevel;
  readonly lastChangedAt: EpochMs | null;
}

/**
 * A vendor whose data went stale (no success for too long: ingest/schedule.ts `isStale`)
 * reads `UNKNOWN` from `at` on; nothing changes when it already does. (The store also forgets
 * its validators, so the next good fetch is a full one and restores the level.)
 */
export function staleReading(vendor: StoredVendor, at: EpochMs): StaleDiff {
  if (vendor.currentStatus === "UNKNOWN") {
    return {
      transition: null,
      change: null,
      currentStatus: "UNKNOWN",
      lastChangedAt: vendor.lastChangedAt,
    };
  }
  return {
    transition: { component: null, from: vendor.currentStatus, to: "UNKNOWN" },
    change: {
      kind: "status",
      slug: vendor.slug,
      component: null,
      from: vendor.currentStatus,
      to: "UNKNOWN",
    },
    currentStatus: "UNKNOWN",
    lastChangedAt: at,
  };
}
