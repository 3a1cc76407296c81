/**
 * Human pages of the catalog: `/` (what is down right now), `/services` (searchable catalog)
 * and `/services/{slug}` (one service: components, open incidents, 90-day history).
 * @module
 */
import type { Context } from "hono";
import type { Env } from "../env.ts";
import {
  getService,
  homeOverview,
  listServices,
  serviceHistory,
  serviceUptime,
} from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  ANONYMOUS,
  CATEGORIES,
  type Incident,
  isReadingState,
  isStatusLevel,
  NotFound,
  type Reading,
  READING_STATES,
  type ReadingError,
  type ReadingErrorKind,
  type ReadingState,
  type Service,
  type StatusLevel,
  toIso,
} from "../../domain/mod.ts";
import { homeLinkHeader } from "../discovery.ts";
import type { Register } from "../register.ts";
import { type FeedLink, Layout, StatusBadge } from "./layout.tsx";

/** The incident feeds of one service, for its page's `<link rel="alternate">`. */
function serviceFeeds(slug: string, name: string): FeedLink[] {
  const base = `/services/${encodeURIComponent(slug)}`;
  return [
    { href: `${base}/feed.atom`, type: "application/atom+xml", title: `${name} incidents (Atom)` },
    { href: `${base}/feed.rss`, type: "application/rss+xml", title: `${name} incidents (RSS)` },
  ];
}

const PAGE_SIZE = 100;

function when(t: number | null): string {
  return t === null ? "never" : toIso(t).replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

/** Each reading state in a few words (badges, filters). */
const STATE_WORDS: Record<ReadingState, string> = {
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

function ReadingBadge(props: { reading: Reading }) {
  return (
    <span class={`badge r-${props.reading.state}`} title={props.reading.summary}>
      {STATE_WORDS[props.reading.state]}
    </span>
  );
}

/** The reading in words: what statusd could read, or why not and since when. */
function ReadingText(props: { reading: Reading; statusPageUrl: string }) {
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

function ServiceTable(props: { services: readonly Service[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Service</th>
          <th>Status</th>
          <th>30-day uptime</th>
          <th>Category</th>
          <th>Reading</th>
          <th>Last change</th>
        </tr>
      </thead>
      <tbody>
        {props.services.map((s) => (
          <tr>
            <td>
              <a href={`/services/${encodeURIComponent(s.slug)}`}>{s.name}</a>
            </td>
            <td>
              <StatusBadge status={s.currentStatus} />
            </td>
            <td>{s.uptimePercent === null ? "—" : `${s.uptimePercent.toFixed(3)} %`}</td>
            <td>{s.category}</td>
            <td>
              <ReadingBadge reading={s.reading} />
            </td>
            <td class="muted">{when(s.lastChangedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function IncidentList(props: { incidents: readonly Incident[]; withService?: boolean }) {
  if (props.incidents.length === 0) return <p class="muted">None.</p>;
  return (
    <ul>
      {props.incidents.map((i) => (
        <li id={`incident-${i.id}`}>
          {props.withService && (
            <>
              <a href={`/services/${encodeURIComponent(i.serviceSlug)}`}>{i.serviceSlug}</a>:{" "}
            </>
          )}
          <strong>{i.title}</strong>{" "}
          <span class="muted">({i.status}, {i.impact}, since {when(i.startedAt)})</span>
          {i.updates.length > 0 && (
            <ol class="timeline">
              {i.updates.map((u) => (
                <li>
                  <span class="muted">{when(u.at)} · {u.status}</span> — {u.body}
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A day's worst status in words; UNKNOWN is "no data". */
function dayWords(status: StatusLevel): string {
  return status === "UNKNOWN" ? "no data" : status.replaceAll("_", " ").toLowerCase();
}

/** Over what period uptime was observed, when shorter than the 90-day window. */
function observedText(since: number | null, asOf: number): string {
  if (since === null) return "(nothing observed yet)";
  if (since <= asOf - 90 * 24 * 3600 * 1000) return "(observed over the whole window)";
  return `(observed since ${toIso(since).slice(0, 10)})`;
}

async function home(c: Context<Env>) {
  const app = c.get("app");
  const publicUrl = app.settings.publicUrl;
  // Everything the page shows, read in one consistent go.
  const overview = await homeOverview(app, { perLevel: PAGE_SIZE, incidents: 20 });
  const { total, readings } = overview;
  const down = overview.disrupted;
  const incidents = overview.activeIncidents;
  const unknown = overview.byStatus.UNKNOWN;
  const unreadable = readings.failing + readings.stale + readings.never_read;
  const readLink = (state: ReadingState, text: string) => (
    <a href={`/services?reading=${state}`}>{text}</a>
  );
  c.header("Link", homeLinkHeader(publicUrl));
  return c.html(
    <Layout
      title="Status of cloud and SaaS vendors"
      description={`Live status of ${total} cloud and SaaS vendors, normalised.`}
      publicUrl={publicUrl}
      canonicalPath="/"
      nav="home"
    >
      <h1>Status of {total} cloud and SaaS vendors</h1>
      <h2>Disrupted right now ({down.length})</h2>
      {down.length
        ? <ServiceTable services={down} />
        : readings.fresh === 0
        ? (
          <p class="notice warn">
            statusd has no current reading of any service, so it cannot tell whether any is
            disrupted.
          </p>
        )
        : unreadable > 0
        ? (
          <p class="notice warn">
            No disruption among the {readings.fresh} services read successfully; the status of the
            {" "}
            {unreadable} services statusd cannot read right now is not known.
          </p>
        )
        : <p class="notice">Every service statusd can read is operational or in maintenance.</p>}
      {(unreadable > 0 || readings.unsupported > 0) && (
        <p class="reading-summary">
          {unreadable + readings.unsupported} of {total} services cannot be read:{" "}
          {readLink("failing", `${readings.failing} failing`)},{" "}
          {readLink("stale", `${readings.stale} stale`)},{" "}
          {readLink("never_read", `${readings.never_read} not read yet`)}, {readLink(
            "unsupported",
            `${readings.unsupported} unsupported (no machine-readable status)`,
          )}.
        </p>
      )}
      {unknown > 0 && (
        <p class="muted">
          <a href="/services?status=UNKNOWN">{unknown} services</a>{" "}
          have no fresh data (not read yet, or their status page has been failing for over three
          poll intervals).
        </p>
      )}
      <h2>Open incidents</h2>
      <IncidentList incidents={incidents} withService />
      <p>
        <a href="/services">Browse all services</a> · API: <a href="/openapi.json">OpenAPI</a> ·
        {" "}
        <a href="/llms.txt">llms.txt</a>
      </p>
    </Layout>,
  );
}

async function catalog(c: Context<Env>) {
  const app = c.get("app");
  const q = c.req.query("q")?.trim().slice(0, 100) || undefined;
  const statusText = c.req.query("status");
  const status = statusText && isStatusLevel(statusText) ? statusText : undefined;
  const categoryText = c.req.query("category");
  const category = (CATEGORIES as readonly string[]).includes(categoryText ?? "")
    ? categoryText
    : undefined;
  const readingText = c.req.query("reading");
  const reading = isReadingState(readingText) ? readingText : undefined;
  const pageNo = Math.max(0, Math.min(100_000, Number.parseInt(c.req.query("page") ?? "0") || 0));
  const filter = {
    ...(q ? { q } : {}),
    ...(status ? { status } : {}),
    ...(category ? { category } : {}),
    ...(reading ? { reading } : {}),
  };
  const result = await listServices(app, filter, { page: pageNo, limit: PAGE_SIZE });
  const link = (p: number) => {
    const params = new URLSearchParams({ ...filter, page: String(p) });
    return `/services?${params}`;
  };
  return c.html(
    <Layout
      title="Services"
      description="Every vendor statusd watches, with current status and 30-day uptime."
      publicUrl={app.settings.publicUrl}
      canonicalPath="/services"
      nav="services"
    >
      <h1>Services</h1>
      <form class="inline" method="get" action="/services">
        <input type="search" name="q" value={q ?? ""} placeholder="Search by name" />
        <select name="status">
          <option value="">Any status</option>
          {ALL_STATUS_LEVELS.map((l) => (
            <option key={l} value={l} selected={l === status}>{l}</option>
          ))}
        </select>
        <select name="category">
          <option value="">Any category</option>
          {CATEGORIES.map((k) => <option key={k} value={k} selected={k === category}>{k}</option>)}
        </select>
        <select name="reading">
          <option value="">Any reading</option>
          {READING_STATES.map((k) => (
            <option key={k} value={k} selected={k === reading}>{STATE_WORDS[k]}</option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      <p class="muted">
        {result.totalElements} services · page {result.page + 1} of {Math.max(1, result.totalPages)}
      </p>
      <ServiceTable services={result.content} />
      <div class="pager">
        {pageNo > 0 && <a href={link(pageNo - 1)}>← Previous</a>}
        {pageNo + 1 < result.totalPages && <a href={link(pageNo + 1)}>Next →</a>}
      </div>
    </Layout>,
  );
}

async function servicePage(c: Context<Env>) {
  const app = c.get("app");
  const slug = c.req.param("slug")!;
  const publicUrl = app.settings.publicUrl;
  let s;
  try {
    s = await getService(app, slug);
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    c.status(404);
    return c.html(
      <Layout title="Not found" publicUrl={publicUrl} nav="services" noindex>
        <h1>No service “{slug}”</h1>
        {err.suggestions.length > 0 && (
          <p>
            Did you mean {err.suggestions.map((x, i) => (
              <>
                {i > 0 && ", "}
                <a href={`/services/${encodeURIComponent(x)}`}>{x}</a>
              </>
            ))}?
          </p>
        )}
        <p>
          <a href="/services">All services</a>
        </p>
      </Layout>,
    );
  }
  // Public pages read as an anonymous visitor.
  const uptime = await serviceUptime(app, ANONYMOUS, slug);
  const history = await serviceHistory(app, ANONYMOUS, slug, 90);
  const pct = (p: number | null) => (p === null ? "—" : `${p.toFixed(3)} %`);
  const noData = history.entries.filter((e) => e.worstStatus === "UNKNOWN").length;
  const notable = history.entries
    .filter((e) => e.worstStatus !== "OPERATIONAL" && e.worstStatus !== "UNKNOWN")
    .reverse();
  return c.html(
    <Layout
      title={`${s.name} status`}
      description={`Current status, incidents and uptime of ${s.name}.`}
      publicUrl={publicUrl}
      canonicalPath={`/services/${encodeURIComponent(s.slug)}`}
      nav="services"
      feeds={serviceFeeds(s.slug, s.name)}
    >
      <h1>
        {s.name} <StatusBadge status={s.currentStatus} />
      </h1>
      <p class="muted">
        Source: <a href={s.statusPageUrl} rel="nofollow">{s.statusPageUrl}</a>{" "}
        ({s.platform}) · last attempt {when(s.reading.lastAttemptAt)} · last good reading{" "}
        {when(s.reading.lastSuccessAt)} · last change {when(s.lastChangedAt)}
      </p>
      <h2>
        Reading <ReadingBadge reading={s.reading} />
      </h2>
      <ReadingText reading={s.reading} statusPageUrl={s.statusPageUrl} />
      {s.reading.notes.length > 0 && (
        <>
          <p>The latest reading left out:</p>
          <ul class="notes">
            {s.reading.notes.map((n, i) => <li key={i}>{n}</li>)}
          </ul>
        </>
      )}
      {s.reading.redetection && (
        <p class="redetection">
          {`Platform detected again ${when(s.reading.redetection.at)}: ` +
            `${s.reading.redetection.from} kept failing; ` +
            (s.reading.redetection.to === "unknown" ||
                s.reading.redetection.to === s.reading.redetection.from
              ? `no other platform found, still read as ${s.reading.redetection.from}.`
              : `now read as ${s.reading.redetection.to}.`)}
        </p>
      )}
      <table>
        <tbody>
          <tr>
            <th>Uptime 7 / 30 / 90 days</th>
            <td>
              {pct(uptime.days7)} / {pct(uptime.days30)} / {pct(uptime.days90)}{" "}
              <span class="muted observed">{observedText(uptime.observedSince, uptime.asOf)}</span>
            </td>
          </tr>
          <tr>
            <th>MTTR (90 days)</th>
            <td>
              {uptime.mttrMinutes === null ? "—" : `${uptime.mttrMinutes} min`} over{" "}
              {uptime.disruptions} disruptions
            </td>
          </tr>
        </tbody>
      </table>
      <h2>Open incidents</h2>
      <IncidentList incidents={s.incidents} />
      <h2>Components</h2>
      {s.components.length === 0 ? <p class="muted">None published.</p> : (
        <table>
          <tbody>
            {s.components.map((k) => (
              <tr>
                <td>{k.group ? `${k.group} › ${k.name}` : k.name}</td>
                <td>
                  <StatusBadge status={k.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Last 90 days (worst status per UTC day)</h2>
      <ol class="days">
        {history.entries.map((e) => {
          const day = toIso(e.day).slice(0, 10);
          const words = dayWords(e.worstStatus);
          return (
            <li key={day} class={`s-${e.worstStatus}`} data-date={day} title={`${day}: ${words}`}>
              <span class="sr">{`${day}: ${words}`}</span>
            </li>
          );
        })}
      </ol>
      <p class="muted">
        Oldest on the left, today on the right; {noData} of {history.entries.length}{" "}
        days have no data (statusd was not reading the vendor).
      </p>
      {notable.length > 0 && (
        <table>
          <tbody>
            {notable.map((e) => (
              <tr>
                <td>{toIso(e.day).slice(0, 10)}</td>
                <td>
                  <StatusBadge status={e.worstStatus} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="muted">
        {notable.length > 0 && "Days not listed were operational or had no data. "}JSON:{" "}
        <a href={`/api/services/${encodeURIComponent(s.slug)}`}>/api/services/{s.slug}</a>
      </p>
    </Layout>,
  );
}

/** Mounts the catalog pages. */
export const registerCatalogPages: Register = (api) => {
  api.get("/", home);
  api.get("/services", catalog);
  api.get("/services/:slug", servicePage);
};
