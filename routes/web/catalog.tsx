/**
 * `/services`: the searchable catalog for people. A plain GET form with labelled filters
 * (search, status, category, provider, reading state) that works without JavaScript, pages of
 * results, and search as you type where JavaScript runs (`/assets/search.js` swaps in the same
 * page's results, so the ranking is the server's). Also mounts `/` and `/services/{slug}`.
 * @module
 */
import type { Context } from "hono";
import { listServices, suggestSlugs } from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  CATEGORIES,
  isReadingState,
  isStatusLevel,
  type Page,
  READING_STATES,
  type Service,
} from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import type { Register } from "../register.ts";
import { ASSET_PATHS } from "./assets.ts";
import { homePage } from "./home.tsx";
import { Layout, type SignedIn } from "./layout.tsx";
import { publicPage } from "./page_cache.ts";
import { reportFromPage, servicePage } from "./service_page.tsx";
import { webSession } from "./session.ts";
import { countOf, levelWords, ServiceTable, STATE_WORDS } from "./_parts.tsx";

/** Services per page of the catalog. */
export const CATALOG_PAGE_SIZE = 50;

/** The catalog's filters as read from the query (anything unknown is dropped, not an error). */
interface Filters {
  readonly q?: string;
  readonly status?: (typeof ALL_STATUS_LEVELS)[number];
  readonly category?: string;
  readonly provider?: string;
  readonly reading?: (typeof READING_STATES)[number];
  readonly sort?: "slowest_to_admit";
}

function filtersOf(c: Context<Env>): { filters: Filters; page: number } {
  const q = c.req.query("q")?.trim().slice(0, 100) || undefined;
  const status = c.req.query("status");
  const category = c.req.query("category") ?? "";
  const provider = c.req.query("provider")?.trim().toLowerCase().slice(0, 100) || undefined;
  const reading = c.req.query("reading");
  const sort = c.req.query("sort");
  const filters: Filters = {
    ...(q ? { q } : {}),
    ...(status && isStatusLevel(status) ? { status } : {}),
    ...((CATEGORIES as readonly string[]).includes(category) ? { category } : {}),
    ...(provider ? { provider } : {}),
    ...(isReadingState(reading) ? { reading } : {}),
    ...(sort === "slowest_to_admit" ? { sort } : {}),
  };
  const page = Math.max(0, Math.min(100_000, Number.parseInt(c.req.query("page") ?? "0") || 0));
  return { filters, page };
}

function FilterForm(props: { filters: Filters }) {
  const f = props.filters;
  return (
    <form id="service-filters" class="filters" method="get" action="/services" role="search">
      <label>
        Search
        <input
          type="search"
          name="q"
          value={f.q ?? ""}
          placeholder="Name or slug, e.g. github"
          autocomplete="off"
          maxlength={100}
        />
      </label>
      <label>
        Status
        <select name="status">
          <option value="">Any status</option>
          {ALL_STATUS_LEVELS.map((l) => (
            <option value={l} selected={l === f.status}>{levelWords(l)}</option>
          ))}
        </select>
      </label>
      <label>
        Category
        <select name="category">
          <option value="">Any category</option>
          {CATEGORIES.map((k) => (
            <option value={k} selected={k === f.category}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        Provider
        <input
          type="text"
          name="provider"
          value={f.provider ?? ""}
          placeholder="e.g. google"
          maxlength={100}
        />
      </label>
      <label>
        Reading
        <select name="reading">
          <option value="">Any reading</option>
          {READING_STATES.map((k) => (
            <option value={k} selected={k === f.reading}>{STATE_WORDS[k]}</option>
          ))}
        </select>
      </label>
      <label>
        Order
        <select name="sort">
          <option value="">By name</option>
          <option value="slowest_to_admit" selected={f.sort === "slowest_to_admit"}>
            Slowest to admit trouble
          </option>
        </select>
      </label>
      <div class="actions">
        <button type="submit">Filter</button>
        <a href="/services">Clear</a>
      </div>
    </form>
  );
}

function Pager(props: { result: Page<Service>; link: (page: number) => string }) {
  const { result } = props;
  if (result.totalPages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {result.page > 0 && <a href={props.link(result.page - 1)} rel="prev">← Previous</a>}
      <span>Page {result.page + 1} of {result.totalPages}</span>
      {result.page + 1 < result.totalPages && (
        <a href={props.link(result.page + 1)} rel="next">Next →</a>
      )}
    </nav>
  );
}

function CatalogPage(
  props: {
    filters: Filters;
    result: Page<Service>;
    /** When a search found nothing: the slugs closest to what was typed. */
    closest: readonly string[];
    publicUrl: string;
    signedIn: SignedIn | null;
  },
) {
  const { filters, result } = props;
  const link = (p: number) => {
    const query = new URLSearchParams({ ...filters, ...(p > 0 ? { page: String(p) } : {}) });
    return query.size ? `/services?${query}` : "/services";
  };
  const searching = filters.q !== undefined;
  return (
    <Layout
      title="Services"
      description="Every vendor statusd watches, with current status and 30-day uptime."
      publicUrl={props.publicUrl}
      canonicalPath="/services"
      nav="services"
      signedIn={props.signedIn}
      scripts={[ASSET_PATHS.search]}
    >
      <h1>Services</h1>
      <FilterForm filters={filters} />
      <p id="result-count" role="status">
        {countOf(result.totalElements, "service")}
        {searching
          ? ", best match first"
          : filters.sort === "slowest_to_admit"
          ? " with an acknowledgement grade, slowest to admit trouble first"
          : ""} · page {result.page + 1} of {Math.max(1, result.totalPages)}
      </p>
      <div id="results">
        {result.content.length
          ? <ServiceTable services={result.content} caption="Services" />
          : filters.q !== undefined
          ? (
            <p class="notice">
              No service matches “{filters.q}”{Object.keys(filters).length > 1
                ? " with these filters"
                : ""}. {props.closest.length > 0 && (
                <>
                  Closest: {props.closest.map((slug, i) => (
                    <>
                      {i > 0 && ", "}
                      <a href={`/services/${slug}`}>{slug}</a>
                    </>
                  ))}.{" "}
                </>
              )}
              Not listed? Add its status page by URL in{" "}
              <a href="/settings/monitors#by-url-title">Settings › Monitors</a>.
            </p>
          )
          : <p class="notice">No service matches these filters.</p>}
        <Pager result={result} link={link} />
      </div>
    </Layout>
  );
}

async function catalogPage(c: Context<Env>): Promise<Response> {
  const app = c.get("app");
  const { filters, page } = filtersOf(c);
  return await publicPage(c, async (signedIn, who) => {
    // A signed-in page is the person's own: it lists their account's added vendors too.
    const account = who.kind === "session" ? who.account.id : undefined;
    const result = await listServices(app, { ...filters, account }, {
      page,
      limit: CATALOG_PAGE_SIZE,
    });
    const closest = result.totalElements === 0 && filters.q !== undefined
      ? await suggestSlugs(app, filters.q)
      : [];
    return {
      html: (
        <CatalogPage
          filters={filters}
          result={result}
          closest={closest}
          publicUrl={app.settings.publicUrl}
          signedIn={signedIn}
        />
      ),
    };
  });
}

/** Mounts the catalog pages: `/`, `/services` and `/services/{slug}`. */
export const registerCatalogPages: Register = (api, deps) => {
  api.get("/", (c) => homePage(c, deps.proberStats));
  api.get("/services", catalogPage);
  api.get("/services/:slug", servicePage);
  api.post("/services/:slug/report", webSession, reportFromPage);
};
