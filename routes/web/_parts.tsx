/**
 * Pieces the catalog pages share: times and levels in words, reading health, the service
 * table, incidents with their timelines, and the 90-day bar.
 * @module
 */
import type { Child } from "hono/jsx";
import {
  type DayWorst,
  type EpochMs,
  type Incident,
  isMaintenance,
  maintenanceOverrun,
  type Reading,
  type ReadingError,
  type ReadingErrorKind,
  type ReadingState,
  type Role,
  type Service,
  type StatusLevel,
  toIso,
} from "../../domain/mod.ts";
import {
  coversWindow,
  DAY_MS,
  formatMinutes,
  notEnoughData,
  uptimeSpanWords,
} from "../../domain/mod.ts";
import { type FeedLink, StatusBadge } from "./layout.tsx";

/** An instant as people read it (`2026-11-20 12:00:00 UTC`), or "never". */
export function when(t: EpochMs | null): string {
  return t === null ? "never" : toIso(t).replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

/** A UTC day (`2026-11-20`). */
export function dayOf(t: EpochMs): string {
  return toIso(t).slice(0, 10);
}

/** `n` and its noun, plural when `n` is not one: "1 service", "3 services", "1,204 services". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? noun : plural}`;
}

/** Up to two letters standing for a name (a vendor's or a board's mark; nothing is fetched). */
export function monogram(name: string): string {
  const words = name.split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  const letters = words.slice(0, 2).map((w) => [...w].find((c) => /\p{L}|\p{N}/u.test(c))!);
  return letters.join("").toUpperCase() || "?";
}

/** Marks come in this many colours, one per name (the same name, the same colour). */
const MARK_COLOURS = 8;

/** A vendor's mark: its monogram on a colour of its own, decorative (the name follows it). */
export function Mark(props: { name: string }) {
  let h = 0;
  for (const ch of props.name) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return <span class={`mark m${h % MARK_COLOURS}`} aria-hidden="true">{monogram(props.name)}</span>;
}

/**
 * A 30-day uptime as tables show it (three decimals, "—" when nothing was observed), with what it
 * covers when statusd observed less than the 30 days.
 */
export function UptimeFigure(props: { percent: number | null; observedMs: number }) {
  const early = notEnoughData(props.observedMs);
  if (early !== null) return <span class="muted">{early}</span>;
  if (props.percent === null) return <>—</>;
  return (
    <>
      {`${props.percent.toFixed(3)} %`}
      {!coversWindow(props.observedMs, 30) && (
        <span class="muted">{` ${uptimeSpanWords(props.observedMs, 30)}`}</span>
      )}
    </>
  );
}

/** A level in words; UNKNOWN is "no data". */
export function levelWords(status: StatusLevel): string {
  return status === "UNKNOWN" ? "no data" : status.replaceAll("_", " ").toLowerCase();
}

/** An incident's or maintenance's state in words ("in progress", not `IN_PROGRESS`). */
export function stateWords(status: string): string {
  return status.replaceAll("_", " ").toLowerCase();
}

/** A timeline update's state in words, capitalised ("In progress"). */
export function updateWords(status: string): string {
  const words = stateWords(status);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A member's role in words, with its article ("an owner"). */
export function roleWords(role: Role): string {
  return { OWNER: "an owner", ADMIN: "an admin", MEMBER: "a member" }[role];
}

/** Each reading state in a few words (badges, filters). */
export const STATE_WORDS: Record<ReadingState, string> = {
  fresh: "read",
  stale: "stale",
  failing: "cannot read",
  unsupported: "unsupported",
  never_read: "not read yet",
};

/** What each error kind means, for people. */
function explain(error: ReadingError): string {
  const words: Record<ReadingErrorKind, string> = {
    network: "the vendor's server could not be reached (network error)",
    timeout: "the vendor's server did not answer in time (timeout)",
    http_status: `the vendor's server answered HTTP ${error.httpStatus ?? "error"}`,
    too_large: "the vendor's document is larger than statusd accepts (too large)",
    redirect_loop: "the vendor's page redirects in a loop (redirect loop)",
    refused_address: "the vendor's address is a loopback or private address statusd is not " +
      "allowed to fetch (refused address)",
    not_machine_readable:
      "the vendor answered with a web page or a binary file, not a status document " +
      "(not machine-readable)",
    bad_payload: "the vendor's document does not have the expected shape (bad payload)",
    parse_error: "the vendor's document could not be decoded (parse error)",
  };
  return words[error.kind];
}

/** The reading state as a coloured badge (its summary as the tooltip). */
export function ReadingBadge(props: { reading: Reading }) {
  return (
    <span class={`badge r-${props.reading.state}`} title={props.reading.summary}>
      {STATE_WORDS[props.reading.state]}
    </span>
  );
}

/** The reading in words: what statusd could read, or why not and since when. */
export function ReadingText(props: { reading: Reading; statusPageUrl: string }) {
  const r = props.reading;
  const attempts = r.consecutiveFailures === 1
    ? "1 attempt"
    : `${r.consecutiveFailures} attempts in a row`;
  switch (r.state) {
    case "fresh":
      return <p>Read {when(r.lastSuccessAt)}.</p>;
    case "never_read":
      return <p class="notice">Not read yet: statusd is waiting for the first poll.</p>;
    case "stale":
      return (
        <p class="notice warn">
          Stale: the last good reading was {when(r.lastSuccessAt)}{" "}
          and statusd has not polled this vendor since, so the status shown may be out of date.
        </p>
      );
    case "unsupported":
      return (
        <p class="notice">
          statusd cannot read this vendor: {r.summary.replace(/^unsupported: /, "")}. See{" "}
          <a href={props.statusPageUrl} rel="nofollow">its status page</a> instead.
        </p>
      );
    case "failing":
      return (
        <p class="notice error">
          {`statusd cannot read this vendor right now: ${
            r.error ? `${explain(r.error)} since ${when(r.error.since)}` : "the poll failed"
          } (${attempts}). `}
          {r.error?.message && <span class="muted">{`“${r.error.message}”. `}</span>}
          {`Last good reading: ${when(r.lastSuccessAt)}.`}
        </p>
      );
  }
}

/** Link to a service's page. */
export function serviceHref(slug: string): string {
  return `/services/${encodeURIComponent(slug)}`;
}

/** The incident feeds of one service, for its page's `<link rel="alternate">`. */
export function serviceFeeds(slug: string, name: string): FeedLink[] {
  const base = serviceHref(slug);
  return [
    { href: `${base}/feed.atom`, type: "application/atom+xml", title: `${name} incidents (Atom)` },
    { href: `${base}/feed.rss`, type: "application/rss+xml", title: `${name} incidents (RSS)` },
  ];
}

/** A table of services (a list of cards on a phone). */
export function ServiceTable(props: { services: readonly Service[]; caption: string }) {
  return (
    <table class="cards dense">
      <caption class="sr">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Service</th>
          <th scope="col">Status</th>
          <th scope="col">30-day uptime</th>
          <th scope="col">Category</th>
          <th scope="col">Provider</th>
          <th scope="col">Reading</th>
          <th scope="col">Last change</th>
        </tr>
      </thead>
      <tbody>
        {props.services.map((s) => (
          <tr>
            <td data-label="Service">
              <Mark name={s.name} /> <a href={serviceHref(s.slug)}>{s.name}</a>
            </td>
            <td data-label="Status">
              <StatusBadge status={s.currentStatus} />
            </td>
            <td data-label="30-day uptime" class="labelled">
              <UptimeFigure percent={s.uptimePercent} observedMs={s.uptimeObservedMs} />
            </td>
            <td data-label="Category" class="labelled">{s.category}</td>
            <td data-label="Provider" class="labelled">
              <a href={`/services?provider=${encodeURIComponent(s.provider)}`}>{s.provider}</a>
            </td>
            <td data-label="Reading">
              <ReadingBadge reading={s.reading} />
            </td>
            <td data-label="Last change" class="labelled muted when">{when(s.lastChangedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An incident's impact in words ("major impact", "maintenance"). */
function impactWords(i: Incident): string {
  if (isMaintenance(i)) return "maintenance";
  return i.impact === "NONE" ? "no impact stated" : `${i.impact.toLowerCase()} impact`;
}

/**
 * How long an incident lasted (or has lasted so far, at `now`); a maintenance past its
 * announced end says by how much it overran.
 */
function lasted(i: Incident, now: EpochMs): string {
  const end = i.resolvedAt ?? now;
  const words = formatMinutes(Math.max(0, end - i.startedAt) / 60_000);
  const overrun = maintenanceOverrun(i, now);
  if (overrun !== null) {
    return `open for ${words}, overran its announced end (${when(overrun.since)}) by ${
      formatMinutes(overrun.byMs / 60_000)
    }`;
  }
  return i.resolvedAt === null ? `open for ${words}` : `lasted ${words}`;
}

/** What the vendor rewrote of an incident, in words (one sentence each). */
export function rewriteWords(i: Incident): string[] {
  return (i.revisions ?? []).map((r) => {
    const after = formatMinutes(Math.max(0, r.at - i.startedAt) / 60_000);
    if (r.kind === "update_edited") {
      return `An update was edited by the vendor ${after} after the incident was posted; ` +
        `it first said: “${r.before.length > 300 ? `${r.before.slice(0, 300)}…` : r.before}”`;
    }
    if (r.kind === "impact_lowered") {
      return `The vendor lowered its impact from ${r.before.toLowerCase()} to ${r.after.toLowerCase()} after it ended (${
        when(r.at)
      }).`;
    }
    if (r.kind === "removed") {
      return `The vendor removed it from its status page ${after} after it was posted (seen ${
        when(r.at)
      }); statusd keeps what it said.`;
    }
    if (r.kind === "restored") return `The vendor put it back on its status page (${when(r.at)}).`;
    return `The vendor moved its start from ${when(Date.parse(r.before))} to ${
      when(Date.parse(r.after))
    } (seen ${when(r.at)}).`;
  });
}

/** One incident: title, facts and its whole timeline (newest entry first). */
export function IncidentItem(
  props: { incident: Incident; now: EpochMs; serviceName?: string; latestOnly?: boolean },
) {
  const i = props.incident;
  const updates = [...i.updates].reverse();
  const shown = props.latestOnly ? updates.slice(0, 1) : updates;
  const rewrites = rewriteWords(i);
  return (
    <li id={`incident-${i.id}`}>
      <h3>
        {props.serviceName !== undefined && (
          <>
            <a href={`${serviceHref(i.serviceSlug)}#incident-${i.id}`}>{props.serviceName}</a>:{" "}
          </>
        )}
        {i.title}
      </h3>
      <p class="muted">
        {`${stateWords(i.status)} · ${impactWords(i)} · started ${when(i.startedAt)}`}
        {i.removedAt
          ? ` · removed from the vendor's page ${when(i.removedAt)}`
          : i.resolvedAt !== null && ` · resolved ${when(i.resolvedAt)}`}
        {` · ${lasted(i, props.now)}`}
        {i.components.length > 0 && ` · affects ${i.components.join(", ")}`}
        {i.url && (
          <>
            {" · "}
            <a href={i.url} rel="nofollow">on the vendor's page</a>
          </>
        )}
      </p>
      {rewrites.length > 0 && (
        <ul class="rewrites" aria-label="Rewritten by the vendor">
          {rewrites.map((w, k) => <li key={k} class="muted">{w}</li>)}
        </ul>
      )}
      {shown.length > 0 && (
        <ol
          class="timeline"
          aria-label={props.latestOnly ? "Latest update" : "Timeline, newest first"}
        >
          {shown.map((u) => (
            <li>
              <span class="muted">
                <time datetime={toIso(u.at)}>{when(u.at)}</time> · {updateWords(u.status)}
              </span>{" "}
              — <span class="what">{u.body}</span>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

/** A list of incidents, or "None." */
export function IncidentList(
  props: {
    incidents: readonly Incident[];
    now: EpochMs;
    names?: ReadonlyMap<string, string>;
    latestOnly?: boolean;
    empty?: string;
  },
) {
  if (props.incidents.length === 0) return <p class="muted">{props.empty ?? "None."}</p>;
  return (
    <ul class="incidents">
      {props.incidents.map((i) => (
        <IncidentItem
          incident={i}
          now={props.now}
          serviceName={props.names ? props.names.get(i.serviceSlug) ?? i.serviceSlug : undefined}
          latestOnly={props.latestOnly}
        />
      ))}
    </ul>
  );
}

/** What one cell of a day bar says: the day, its worst level and that day's incidents. */
export function dayText(e: DayWorst, incidents: readonly Incident[]): string {
  const head = `${dayOf(e.day)}: ${levelWords(e.worstStatus)}`;
  if (incidents.length === 0) return head;
  const list = incidents.map((i) => `${i.title} (${impactWords(i)})`).join("; ");
  return `${head}; ${incidents.length === 1 ? "incident" : "incidents"}: ${list}`;
}

/**
 * A bar of days, oldest on the left: one cell per UTC day coloured by its worst level (UNKNOWN
 * hatched, not coloured), with the day, level and incidents as its tooltip and accessible text.
 */
export function DayBar(
  props: {
    entries: readonly DayWorst[];
    incidents: readonly (readonly Incident[])[];
    label: string;
    small?: boolean;
  },
) {
  return (
    <>
      <ol class={props.small ? "days small" : "days"} aria-label={props.label}>
        {props.entries.map((e, k) => {
          const text = dayText(e, props.incidents[k] ?? []);
          return (
            <li class={`s-${e.worstStatus}`} data-date={dayOf(e.day)} title={text}>
              <span class="sr">{text}</span>
            </li>
          );
        })}
      </ol>
      {!props.small && (
        <div class="bar-ends" aria-hidden="true">
          <span>{props.entries.length} days ago</span>
          <span>Today</span>
        </div>
      )}
    </>
  );
}

/** The key to the bar's colours, in words. */
export function Legend() {
  const levels: StatusLevel[] = [
    "OPERATIONAL",
    "UNDER_MAINTENANCE",
    "DEGRADED_PERFORMANCE",
    "PARTIAL_OUTAGE",
    "MAJOR_OUTAGE",
    "UNKNOWN",
  ];
  return (
    <ul class="legend" aria-label="Key">
      {levels.map((l) => (
        <li>
          <span class={`swatch s-${l}`}></span>
          {l === "UNKNOWN" ? "no data (hatched)" : levelWords(l)}
        </li>
      ))}
    </ul>
  );
}

/** Wraps children in a section with a heading `id` for `aria-labelledby`. */
export function Section(props: { id: string; title: Child; children?: Child }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** Weeks the incident chart covers (13 weeks: the 90-day window). */
export const CHART_WEEKS = 13;

/**
 * Incidents (maintenance left out) per week over the last {@link CHART_WEEKS} weeks, oldest first,
 * by when each started: `weekStart` is the week's first instant.
 */
export function incidentsPerWeek(
  incidents: readonly Incident[],
  now: EpochMs,
): { weekStart: EpochMs; count: number }[] {
  const WEEK = 7 * DAY_MS;
  const start = now - CHART_WEEKS * WEEK;
  const weeks = Array.from({ length: CHART_WEEKS }, (_, i) => ({
    weekStart: start + i * WEEK,
    count: 0,
  }));
  for (const i of incidents) {
    if (isMaintenance(i) || i.startedAt < start || i.startedAt > now) continue;
    weeks[Math.min(CHART_WEEKS - 1, Math.floor((i.startedAt - start) / WEEK))]!.count++;
  }
  return weeks;
}

/**
 * A bar per week of how many incidents started: a chart for the eye, a list for everyone else
 * (each bar is a list item that says its week and count). Heights come from classes (the page's
 * policy allows no inline style).
 */
export function IncidentChart(
  props: { incidents: readonly Incident[]; now: EpochMs; name: string },
) {
  const weeks = incidentsPerWeek(props.incidents, props.now);
  const most = Math.max(1, ...weeks.map((w) => w.count));
  const total = weeks.reduce((n, w) => n + w.count, 0);
  return (
    <figure class="chart">
      <figcaption>
        Incidents per week, last {CHART_WEEKS} weeks:{" "}
        {total === 1 ? "1 incident" : `${total} incidents`}
      </figcaption>
      <ol class="bars" aria-label={`${props.name}: incidents started per week`}>
        {weeks.map((w) => {
          const words = `week of ${dayOf(w.weekStart)}: ${
            w.count === 1 ? "1 incident" : `${w.count} incidents`
          }`;
          return (
            <li key={w.weekStart} title={words}>
              <span class={`bar h${Math.ceil((w.count / most) * 10)}`}></span>
              <span class="sr">{words}</span>
            </li>
          );
        })}
      </ol>
      <div class="bar-ends" aria-hidden="true">
        <span>{CHART_WEEKS} weeks ago</span>
        <span>This week</span>
      </div>
    </figure>
  );
}
