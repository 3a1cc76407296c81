/**
 * What one reading of one vendor may carry, and the check every snapshot passes before the
 * store sees it: timestamps in a plausible range, at most so many components, incidents and
 * timeline entries, and texts of bounded length. The excess is dropped (texts are cut) and
 * each drop is reported, so the reading's notes say what was left out. Pure.
 * @module
 */
import { type IncidentSnapshot, isMaintenance, isOpen } from "./incident.ts";
import type { ComponentSnapshot, Snapshot } from "./service.ts";
import { worst } from "./status.ts";
import { DAY_MS, type EpochMs } from "./time.ts";

/** The caps of one reading (documented in docs/architecture.md and the README). */
export const READING_LIMITS = {
  /** Components kept, in page order. */
  components: 2_000,
  /** Incidents and maintenances kept: open ones first, then the most recently updated. */
  incidents: 250,
  /** Timeline entries kept per incident: the newest. */
  updatesPerIncident: 50,
  /** Characters of timeline text kept per incident, newest entries first. */
  timelineChars: 100_000,
  /** Characters of timeline text kept per reading, open and recent incidents first. */
  readingTextChars: 1_000_000,
  /** Affected components named per incident. */
  componentsPerIncident: 500,
  /** Vendor ids (component, incident): a longer id drops its item. */
  idChars: 255,
  /** Component and group names: longer ones are cut. */
  nameChars: 255,
  /** Incident titles: longer ones are cut. */
  titleChars: 500,
  /** One timeline entry's body: longer ones are cut. */
  bodyChars: 10_000,
  /** Incident links: a longer URL is dropped (a cut URL would be broken). */
  urlChars: 2_048,
} as const;

/** The caps {@link boundSnapshot} applies; {@link READING_LIMITS} unless a test passes others. */
export type ReadingLimits = { readonly [K in keyof typeof READING_LIMITS]: number };

/** Earliest plausible timestamp: 1990-01-01T00:00:00Z (before any status page existed). */
export const EARLIEST_TIME: EpochMs = Date.UTC(1990, 0, 1);
/** How far past the fetch time a timestamp may lie (clock skew, zone mistakes). */
export const FUTURE_SLACK_MS = DAY_MS;
/** How far ahead a maintenance may be scheduled (its start and planned end). */
export const MAINTENANCE_HORIZON_MS = 400 * DAY_MS;

/** Reports one dropped or cut item (same shape as the adapters' `ParseContext.dropped`). */
export type DropReporter = (path: string, reason: string) => void;

/** At most this many drops are reported one by one; the rest are counted in one last report. */
const MAX_REPORTS = 50;

/**
 * Applies the reading limits and the time range to `snapshot` read at `fetchedAt`. Each item
 * dropped or text cut is reported through `dropped` (at most about 50 reports; a mass drop is
 * one report with a count). Components beyond the cap still count for the page indicator, so
 * a dropped component in outage keeps the service in outage.
 */
export function boundSnapshot(
  snapshot: Snapshot,
  fetchedAt: EpochMs,
  dropped: DropReporter = () => {},
  limits: ReadingLimits = READING_LIMITS,
): Snapshot {
  const report = budgeted(dropped);
  const components = boundComponents(snapshot.components, limits, report);
  const range = { earliest: EARLIEST_TIME, latest: fetchedAt + FUTURE_SLACK_MS, fetchedAt };
  const incidents = boundIncidents(snapshot.incidents, range, limits, report);
  report.flush();
  const beyond = snapshot.components.slice(limits.components).map((c) => c.status);
  return {
    indicator: beyond.length ? worst([snapshot.indicator, ...beyond]) : snapshot.indicator,
    components,
    incidents,
  };
}

function budgeted(dropped: DropReporter) {
  let reported = 0;
  let silenced = 0;
  return {
    drop(path: string, reason: string) {
      if (reported < MAX_REPORTS) {
        reported++;
        dropped(path, reason);
      } else silenced++;
    },
    flush() {
      if (silenced > 0) dropped("$", `${silenced} more items dropped or cut`);
    },
  };
}

type Reporter = ReturnType<typeof budgeted>;

/** `text` cut to `max` characters (code points kept whole), marked with an ellipsis. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return `${text.slice(0, end)}…`;
}

function cut(text: string, max: number, path: string, report: Reporter): string {
  if (text.length <= max) return text;
  report.drop(path, `cut from ${text.length} to ${max} characters`);
  return cutText(text, max);
}

function boundComponents(
  all: readonly ComponentSnapshot[],
  limits: ReadingLimits,
  report: Reporter,
): ComponentSnapshot[] {
  if (all.length > limits.components) {
    report.drop(
      "components",
      `${
        all.length - limits.components
      } of ${all.length} left out (at most ${limits.components} per reading)`,
    );
  }
  const out: ComponentSnapshot[] = [];
  all.slice(0, limits.components).forEach((c, i) => {
    const path = `components[${i}]`;
    if (c.externalId.length > limits.idChars) {
      report.drop(path, `id longer than ${limits.idChars} characters`);
      return;
    }
    const name = cut(c.name, limits.nameChars, `${path}.name`, report);
    const group = c.group === null ? null : cut(c.group, limits.nameChars, `${path}.group`, report);
    out.push(name === c.name && group === c.group ? c : { ...c, name, group });
  });
  return out;
}

interface TimeRange {
  readonly earliest: EpochMs;
  readonly latest: EpochMs;
  readonly fetchedAt: EpochMs;
}

function inRange(t: EpochMs | null, range: TimeRange, horizon = 0): t is EpochMs {
  return typeof t === "number" && Number.isFinite(t) && t >= range.earliest &&
    t <= Math.max(range.latest, range.fetchedAt + horizon);
}

function describeTime(t: unknown): string {
  return `${String(t).slice(0, 30)} is out of range (1990-01-01 to one day after the fetch)`;
}

/** Indexes of the incidents kept, in priority order: open first, then most recently updated. */
function keptIncidents(
  all: readonly IncidentSnapshot[],
  limits: ReadingLimits,
  report: Reporter,
): number[] {
  const order = all.map((i, at) => ({ i, at })).sort((a, b) =>
    Number(isOpen(b.i.status)) - Number(isOpen(a.i.status)) ||
    (Number.isFinite(b.i.updatedAt) ? b.i.updatedAt : 0) -
      (Number.isFinite(a.i.updatedAt) ? a.i.updatedAt : 0)
  );
  if (all.length > limits.incidents) {
    report.drop(
      "incidents",
      `${
        all.length - limits.incidents
      } of ${all.length} left out (at most ${limits.incidents} per reading, open and recent first)`,
    );
  }
  return order.slice(0, limits.incidents).map((o) => o.at);
}

function boundIncidents(
  all: readonly IncidentSnapshot[],
  range: TimeRange,
  limits: ReadingLimits,
  report: Reporter,
): IncidentSnapshot[] {
  const bounded = new Map<number, IncidentSnapshot>();
  const text = { left: limits.readingTextChars };
  for (const i of keptIncidents(all, limits, report)) {
    const b = boundIncident(all[i]!, `incidents[${i}]`, range, limits, text, report);
    if (b) bounded.set(i, b);
  }
  return [...bounded.keys()].sort((a, b) => a - b).map((i) => bounded.get(i)!);
}

function boundIncident(
  i: IncidentSnapshot,
  path: string,
  range: TimeRange,
  limits: ReadingLimits,
  text: { left: number },
  report: Reporter,
): IncidentSnapshot | null {
  if (i.externalId.length > limits.idChars) {
    report.drop(path, `id longer than ${limits.idChars} characters`);
    return null;
  }
  const updates = boundUpdates(i, path, range, limits, text, report);
  const planned = isMaintenance(i) ? MAINTENANCE_HORIZON_MS : 0;
  let startedAt = i.startedAt;
  if (!inRange(startedAt, range, planned)) {
    const first = updates[0]?.at;
    if (first === undefined) {
      report.drop(path, `startedAt ${describeTime(i.startedAt)}, and no timeline entry is`);
      return null;
    }
    report.drop(`${path}.startedAt`, `${describeTime(i.startedAt)}; the first update's time used`);
    startedAt = first;
  }
  let updatedAt = i.updatedAt;
  if (!inRange(updatedAt, range)) {
    updatedAt = updates.at(-1)?.at ?? Math.min(startedAt, range.fetchedAt);
    report.drop(`${path}.updatedAt`, `${describeTime(i.updatedAt)}; replaced`);
  }
  let resolvedAt = i.resolvedAt;
  if (resolvedAt !== null && !inRange(resolvedAt, range, planned)) {
    report.drop(`${path}.resolvedAt`, `${describeTime(i.resolvedAt)}; replaced`);
    resolvedAt = isOpen(i.status) ? null : updatedAt;
  }
  const scheduled = {
    scheduledStartAt: plannedTime(i.scheduledStartAt, `${path}.scheduledStartAt`, range, report),
    scheduledEndAt: plannedTime(i.scheduledEndAt, `${path}.scheduledEndAt`, range, report),
  };
  let url = i.url;
  if (url !== null && url.length > limits.urlChars) {
    report.drop(`${path}.url`, `longer than ${limits.urlChars} characters`);
    url = null;
  } else if (url !== null && !isWebLink(url)) {
    // A `javascript:` or `data:` link would run in a feed reader or an API client's page.
    report.drop(`${path}.url`, "not an http: or https: link");
    url = null;
  }
  const ids = i.componentIds.filter((id) => id.length <= limits.idChars);
  if (ids.length > limits.componentsPerIncident) {
    report.drop(`${path}.componentIds`, `only the first ${limits.componentsPerIncident} kept`);
  }
  return {
    ...i,
    title: cut(i.title, limits.titleChars, `${path}.title`, report),
    startedAt,
    updatedAt,
    resolvedAt,
    ...(i.scheduledStartAt === undefined && i.scheduledEndAt === undefined ? {} : scheduled),
    url,
    componentIds: ids.length === i.componentIds.length && ids.length <= limits.componentsPerIncident
      ? i.componentIds
      : ids.slice(0, limits.componentsPerIncident),
    updates,
  };
}

/** A maintenance's announced start or end: kept within the planning horizon, else dropped. */
function plannedTime(
  at: EpochMs | null | undefined,
  path: string,
  range: TimeRange,
  report: Reporter,
): EpochMs | null {
  if (at === undefined || at === null) return null;
  if (inRange(at, range, MAINTENANCE_HORIZON_MS)) return at;
  report.drop(path, `${describeTime(at)}; left out`);
  return null;
}

/**
 * Valid times only; the newest entries within the count and text caps (the incident's own and
 * what is `left` of the reading's); bodies cut.
 */
function boundUpdates(
  i: IncidentSnapshot,
  path: string,
  range: TimeRange,
  limits: ReadingLimits,
  text: { left: number },
  report: Reporter,
): IncidentSnapshot["updates"] {
  const timed = i.updates.map((u, n) => ({ u, n })).filter(({ u, n }) => {
    if (inRange(u.at, range)) return true;
    report.drop(`${path}.updates[${n}]`, describeTime(u.at));
    return false;
  });
  const kept: IncidentSnapshot["updates"][number][] = [];
  let chars = 0;
  for (let k = timed.length - 1; k >= 0; k--) {
    const { u, n } = timed[k]!;
    const room = Math.min(limits.bodyChars, limits.timelineChars - chars, text.left);
    if (kept.length >= limits.updatesPerIncident || room <= 0) {
      report.drop(
        `${path}.updates`,
        `${k + 1} older entries left out (at most ${limits.updatesPerIncident} entries and ` +
          `${limits.timelineChars} characters per incident, ${limits.readingTextChars} per reading)`,
      );
      break;
    }
    const body = cut(u.body, room, `${path}.updates[${n}].body`, report);
    chars += body.length;
    text.left -= body.length;
    kept.push(body === u.body ? u : { ...u, body });
  }
  return kept.reverse();
}

/** True when `url` is an absolute `http:` or `https:` URL: the only links statusd keeps or shows. */
export function isWebLink(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const protocol = new URL(url).protocol;
  return protocol === "http:" || protocol === "https:";
}

/** `value` when it is a web link ({@link isWebLink}); null otherwise (rows stored before the rule). */
export function webLinkOrNull(value: unknown): string | null {
  return typeof value === "string" && isWebLink(value) ? value : null;
}
