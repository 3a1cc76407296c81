/**
 * Monitors: an account watching one service, optionally narrowed to some of its
 * components. What a monitor reads — its level now, its uptime and whether what it watches still
 * exists — is computed here from the service's and components' stored levels, by the same
 * uptime rules as services (domain/uptime.ts).
 * @module
 */
import { worst } from "./status.ts";
import type { StatusLevel } from "./status.ts";
import type { EpochMs } from "./time.ts";
import { downtime, percentUp, type StatusTransition, type TimeWindow } from "./uptime.ts";

/** One level timeline: its stored transitions and its level now. */
export interface Timeline {
  readonly transitions: readonly StatusTransition[];
  readonly now: StatusLevel;
}

/** A current component of the watched service, by name, with its timeline. */
export interface WatchedComponent extends Timeline {
  readonly name: string;
}

/**
 * Whether what a monitor watches still exists: `ok`; `service_missing` (the service left the
 * catalog: kept, read as UNKNOWN); `components_missing` (some chosen components are no longer
 * on the vendor's page: the others are still read).
 */
export type MonitorState = "ok" | "service_missing" | "components_missing";

/** What a monitor reads. */
export interface MonitorReading {
  readonly currentStatus: StatusLevel;
  /** Uptime percent of the watched selection over the window, null when nothing was observed. */
  readonly uptime: number | null;
  /** How much of the window was observed (ms): the uptime covers only that. */
  readonly uptimeObservedMs: number;
  readonly state: MonitorState;
  /** Chosen component names no longer on the page (case kept as chosen). */
  readonly missingComponents: readonly string[];
  /** The level timeline of what is watched (null when nothing watched can be read). */
  readonly timeline: Timeline | null;
}

/** A component name compared as people type it: trimmed, any case. */
export function componentKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The level of `t` just after `at` (its first `from` before any transition). */
function levelAt(t: Timeline, at: EpochMs): StatusLevel {
  let level = t.transitions.length ? t.transitions[0]!.from : t.now;
  for (const x of t.transitions) {
    if (x.at > at) break;
    level = x.to;
  }
  return level;
}

/**
 * The timeline of the worst level among `timelines` at every moment (transitions sorted by
 * time in each): one transition wherever that worst level changes.
 */
export function worstTimeline(timelines: readonly Timeline[]): Timeline {
  const sorted = timelines.map((t) => ({
    ...t,
    transitions: [...t.transitions].sort((a, b) => a.at - b.at),
  }));
  const times = [...new Set(sorted.flatMap((t) => t.transitions.map((x) => x.at)))].sort((a, b) =>
    a - b
  );
  const first = worst(sorted.map((t) => t.transitions.length ? t.transitions[0]!.from : t.now));
  const out: StatusTransition[] = [];
  let level = first;
  for (const at of times) {
    const next = worst(sorted.map((t) => levelAt(t, at)));
    if (next !== level) {
      out.push({ at, from: level, to: next });
      level = next;
    }
  }
  return { transitions: out, now: worst(sorted.map((t) => t.now)) };
}

/**
 * The level a monitor reads now from its service's current levels (no history): the service's
 * when `chosen` is empty, else the worst of the chosen components still on the page, UNKNOWN
 * when none is (or the service left the catalog: `null`). The same rule as {@link monitorReading}.
 */
export function monitorLevelNow(
  service: {
    readonly currentStatus: StatusLevel;
    readonly components: readonly { readonly name: string; readonly status: StatusLevel }[];
  } | null,
  chosen: readonly string[],
): StatusLevel {
  if (service === null) return "UNKNOWN";
  if (chosen.length === 0) return service.currentStatus;
  const byKey = new Map(service.components.map((c) => [componentKey(c.name), c.status]));
  const present = chosen.flatMap((name) => byKey.get(componentKey(name)) ?? []);
  return present.length ? worst(present) : "UNKNOWN";
}

/**
 * What a monitor of `service` reads over `window`: the whole service when `chosen` is empty,
 * else the worst of the chosen components still on the page; a service that left the catalog
 * (`null`) reads UNKNOWN and is kept.
 */
export function monitorReading(
  service: Timeline | null,
  components: readonly WatchedComponent[],
  chosen: readonly string[],
  window: TimeWindow,
): MonitorReading {
  if (service === null) {
    return {
      currentStatus: "UNKNOWN",
      uptime: null,
      uptimeObservedMs: 0,
      state: "service_missing",
      missingComponents: [],
      timeline: null,
    };
  }
  if (chosen.length === 0) {
    const d = downtime(service.transitions, window, service.now);
    return {
      currentStatus: service.now,
      uptime: percentUp(d),
      uptimeObservedMs: d.observedMs,
      state: "ok",
      missingComponents: [],
      timeline: service,
    };
  }
  const byKey = new Map(components.map((c) => [componentKey(c.name), c]));
  const present = chosen.flatMap((name) => byKey.get(componentKey(name)) ?? []);
  const missing = chosen.filter((name) => !byKey.has(componentKey(name)));
  const state: MonitorState = missing.length ? "components_missing" : "ok";
  if (present.length === 0) {
    return {
      currentStatus: "UNKNOWN",
      uptime: null,
      uptimeObservedMs: 0,
      state,
      missingComponents: missing,
      timeline: null,
    };
  }
  const merged = worstTimeline(present);
  const d = downtime(merged.transitions, window, merged.now);
  return {
    currentStatus: merged.now,
    uptime: percentUp(d),
    uptimeObservedMs: d.observedMs,
    state,
    missingComponents: missing,
    timeline: merged,
  };
}
