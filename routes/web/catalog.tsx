/**
 * Human pages of the catalog: `/` (what is down right now), `/services` (searchable catalog)
 * and `/services/{slug}` (one service: components, open incidents, 90-day history).
 * @module
 */
import type { Context } from "hono";
import type { Env } from "../env.ts";
import {
  getService,
  listIncidents,
  listServices,
  serviceHistory,
  serviceUptime,
} from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  CATEGORIES,
  type Incident,
  isStatusLevel,
  NotFound,
  type Service,
  type StatusLevel,
  toIso,
} from "../../domain/mod.ts";
import { homeLinkHeader } from "../discovery.ts";
import type { Register } from "../mod.ts";
import { Layout, StatusBadge } from "./layout.tsx";

const PAGE_SIZE = 100;

function when(t: number | null): string {
  return t === null ? "never" : toIso(t).replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
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
        <li>
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

const DISRUPTED: StatusLevel[] = ["MAJOR_OUTAGE", "PARTIAL_OUTAGE", "DEGRADED_PERFORMANCE"];

function home(c: Context<Env>) {
  const app = c.get("app");
  const publicUrl = app.settings.publicUrl;
  const total = listServices(app, {}, { page: 0, limit: 1 }).totalElements;
  const down = DISRUPTED.flatMap((status) =>
    listServices(app, { status }, { page: 0, limit: PAGE_SIZE }).content
  );
  const incidents = listIncidents(app, { active: true }, { page: 0, limit: 20 }).content;
  const unknown = listServices(app, { status: "UNKNOWN" }, { page: 0, limit: 1 }).totalElements;
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
        : <p class="notice">Every service statusd can see is operational or in maintenance.</p>}
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

function catalog(c: Context<Env>) {
  const app = c.get("app");
  const q = c.req.query("q")?.trim().slice(0, 100) || undefined;
  const statusText = c.req.query("status");
  const status = statusText && isStatusLevel(statusText) ? statusText : undefined;
  const categoryText = c.req.query("category");
  const category = (CATEGORIES as readonly string[]).includes(categoryText ?? "")
    ? categoryText
    : undefined;
  const pageNo = Math.max(0, Math.min(100_000, Number.parseInt(c.req.query("page") ?? "0") || 0));
  const filter = {
    ...(q ? { q } : {}),
    ...(status ? { status } : {}),
    ...(category ? { category } : {}),
  };
  const result = listServices(app, filter, { page: pageNo, limit: PAGE_SIZE });
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

function servicePage(c: Context<Env>) {
  const app = c.get("app");
  const slug = c.req.param("slug")!;
  const publicUrl = app.settings.publicUrl;
  let s;
  try {
    s = getService(app, slug);
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
  const uptime = serviceUptime(app, slug);
  const history = serviceHistory(app, slug, 90);
  const pct = (p: number | null) => (p === null ? "—" : `${p.toFixed(3)} %`);
  return c.html(
    <Layout
      title={`${s.name} status`}
      description={`Current status, incidents and uptime of ${s.name}.`}
      publicUrl={publicUrl}
      canonicalPath={`/services/${encodeURIComponent(s.slug)}`}
      nav="services"
    >
      <h1>
        {s.name} <StatusBadge status={s.currentStatus} />
      </h1>
      <p class="muted">
        Source: <a href={s.statusPageUrl} rel="nofollow">{s.statusPageUrl}</a> · checked{" "}
        {when(s.lastCheckedAt)} · last change {when(s.lastChangedAt)}
      </p>
      <table>
        <tbody>
          <tr>
            <th>Uptime 7 / 30 / 90 days</th>
            <td>{pct(uptime.days7)} / {pct(uptime.days30)} / {pct(uptime.days90)}</td>
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
      <table>
        <tbody>
          {history.entries.filter((e) => e.worstStatus !== "OPERATIONAL").slice(-30).reverse().map((
            e,
          ) => (
            <tr>
              <td>{toIso(e.day).slice(0, 10)}</td>
              <td>
                <StatusBadge status={e.worstStatus} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">
        Days not listed were fully operational. JSON:{" "}
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
