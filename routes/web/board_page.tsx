/**
 * `/b/{slug}`: a public board as a status page of its own, the page a team hands to its
 * customers ("the status of everything our product depends on"). It carries the team's title,
 * description, links and accent colour and none of statusd's navigation: a banner that says in
 * words what is affected now, each entry with its level, 90-day bar, uptime over what was
 * observed and how fresh its reading is, open incidents and maintenance with their timelines,
 * and ways to follow it (feeds, calendar, badges). `/b/{slug}/embed` is the same in brief for
 * an iframe. A private board, or none, is the HTML 404.
 * @module
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { Context } from "hono";
import {
  boardBySlug,
  type BoardEntry,
  boardRecordBySlug,
  type BoardView,
  type EarlyWarning,
  MONITOR_UPTIME_DAYS,
  type MonitorView,
  openWarnings,
  subscribeToPublicBoard,
} from "../../app/mod.ts";
import {
  ANONYMOUS,
  coversWindow,
  type EpochMs,
  formatMinutes,
  InvalidRequest,
  isMaintenance,
  logoBytes,
  notEnoughData,
  NotFound,
  overlappingDays,
  RateLimited,
  type StatusLevel,
  toIso,
  uptimeSpanWords,
} from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { EMBED_CSP } from "../middleware/security_headers.ts";
import { BOARD_HOST_HEADER } from "../board_host.ts";
import type { Register } from "../register.ts";
import { ASSET_PATHS } from "./assets.ts";
import { FAVICON_PATHS } from "./favicon.ts";
import { StatusBadge } from "./layout.tsx";
import { publicPage } from "./page_cache.ts";
import { countOf, DayBar, IncidentList, Legend, levelWords, monogram, when } from "./_parts.tsx";

/** The accent of a board that chose none (the site's own `--accent`). */
export const DEFAULT_ACCENT = "#0a58d0";

/** Where a board's pages live: `/b/{slug}` on statusd's own host, `""` on the board's own. */
export function boardBase(slug: string): string {
  return `/b/${encodeURIComponent(slug)}`;
}

const SEVERITY: readonly StatusLevel[] = [
  "MAJOR_OUTAGE",
  "PARTIAL_OUTAGE",
  "DEGRADED_PERFORMANCE",
  "UNDER_MAINTENANCE",
  "UNKNOWN",
];

/** What the banner says: a headline, and one line per entry that is not operational. */
export function bannerWords(b: BoardView): { headline: string; affected: string[] } {
  if (b.entries.length === 0) return { headline: "Nothing on this board yet", affected: [] };
  const affected = SEVERITY.flatMap((level) =>
    b.entries.filter((e) => e.currentStatus === level).map((e) => {
      const parts = e.kind === "group"
        ? e.monitors.filter((m) => m.currentStatus !== "OPERATIONAL").map(memberName)
        : [];
      return `${e.name}${parts.length ? ` (${parts.join(", ")})` : ""}: ${levelWords(level)}`;
    })
  );
  const down = b.entries.filter((e) => e.currentStatus !== "OPERATIONAL").length;
  const unknown = b.entries.filter((e) => e.currentStatus === "UNKNOWN").length;
  const headline = down === 0
    ? "All systems operational"
    : unknown === down
    ? `No current data for ${countOf(down, "service")}`
    : b.currentStatus === "UNDER_MAINTENANCE"
    ? `Maintenance under way on ${countOf(down, "service")}`
    : `${capital(levelWords(b.currentStatus))} on ${
      countOf(down, "service")
    } of ${b.entries.length}`;
  return { headline, affected };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function memberName(m: MonitorView): string {
  return m.label ?? m.serviceName ?? m.serviceSlug;
}

/** "99.982 % uptime over 30 days", or over what was observed; "no uptime yet". */
function uptimeWords(m: Pick<MonitorView, "uptime30d" | "uptimeObservedMs">): string {
  if (m.uptime30d === null) return "no uptime yet (nothing observed)";
  const early = notEnoughData(m.uptimeObservedMs);
  if (early !== null) return `uptime: ${early}`;
  const span = coversWindow(m.uptimeObservedMs, MONITOR_UPTIME_DAYS)
    ? `over ${MONITOR_UPTIME_DAYS} days`
    : uptimeSpanWords(m.uptimeObservedMs, MONITOR_UPTIME_DAYS);
  return `${m.uptime30d.toFixed(3)} % uptime ${span}`;
}

/** How fresh a reading is: "read 2 min ago", or that it has not been read. */
function freshness(m: MonitorView, now: EpochMs): string {
  const at = m.reading?.lastSuccessAt ?? null;
  if (at === null) return "not read yet";
  return `read ${formatMinutes(Math.max(0, Math.round((now - at) / 60_000)))} ago`;
}

function EntryFacts(props: { m: MonitorView; now: EpochMs }) {
  return (
    <p class="muted facts">
      {uptimeWords(props.m)} · {freshness(props.m, props.now)}
    </p>
  );
}

function Entry(props: { key?: string; e: BoardEntry; now: number }) {
  const { e, now } = props;
  const id = `entry-${e.id}`;
  const incidents = e.openIncidents.filter((i) => !isMaintenance(i));
  const maintenance = e.openIncidents.filter(isMaintenance);
  return (
    <section class="board-entry" aria-labelledby={id}>
      <h2 id={id}>
        {e.name} <StatusBadge status={e.currentStatus} />
      </h2>
      {e.monitor && <EntryFacts m={e.monitor} now={now} />}
      <DayBar
        entries={e.history}
        incidents={overlappingDays(e.openIncidents, e.history.map((d) => d.day), now)}
        label={`${e.name}: worst level per day, last ${e.history.length} days`}
      />
      {e.monitors.length > 0 && (
        <ul class="group-members">
          {e.monitors.map((m) => (
            <li>
              <strong>{memberName(m)}</strong>
              {m.components.length > 0 && ` (${m.components.join(", ")})`}: {levelWords(
                m.currentStatus,
              )} · <span class="muted">{uptimeWords(m)} · {freshness(m, now)}</span>
            </li>
          ))}
        </ul>
      )}
      {incidents.length > 0 && (
        <>
          <h3 class="sub">Open incidents</h3>
          <IncidentList incidents={incidents} now={now} />
        </>
      )}
      {maintenance.length > 0 && (
        <>
          <h3 class="sub">Maintenance</h3>
          <IncidentList incidents={maintenance} now={now} />
        </>
      )}
    </section>
  );
}

/** The board's mark: its logo when it has one, else a monogram of its title. */
function BoardMark(props: { b: BoardView; base: string }) {
  const { b } = props;
  if (b.logo === null) {
    return <span class="monogram" aria-hidden="true">{monogram(b.title)}</span>;
  }
  // The version in the query changes with the logo, so browsers fetch a new one at once.
  const version = `${b.logo.base64.length}-${b.logo.base64.slice(-12)}`;
  return (
    <img
      class="logo"
      src={`${props.base}/logo?v=${encodeURIComponent(version)}`}
      alt={`${b.title} logo`}
      height={48}
    />
  );
}

/** The board's mark and title, the page's heading. */
function Brand(props: { b: BoardView; base: string }) {
  return (
    <div class="sp-brand">
      <BoardMark b={props.b} base={props.base} />
      <h1>{props.b.title}</h1>
    </div>
  );
}

/** The frame of a board's pages: the team's own header, no statusd navigation. */
function StatusFrame(
  props: { b: BoardView; base: string; embed?: boolean; children?: Child },
) {
  const { b, base } = props;
  const feeds = [
    { href: `${base}/feed.atom`, type: "application/atom+xml", title: `${b.title} (Atom)` },
    { href: `${base}/feed.rss`, type: "application/rss+xml", title: `${b.title} (RSS)` },
  ];
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${b.title} status`}</title>
          {b.description && <meta name="description" content={b.description} />}
          {props.embed && <meta name="robots" content="noindex" />}
          <link rel="stylesheet" href={ASSET_PATHS.css} />
          {b.accentColor && (
            <link rel="stylesheet" href={`${base}/theme.css?c=${b.accentColor.slice(1)}`} />
          )}
          <link rel="icon" href={FAVICON_PATHS.svg} type="image/svg+xml" />
          {feeds.map((f) => (
            <link key={f.href} rel="alternate" type={f.type} title={f.title} href={f.href} />
          ))}
        </head>
        <body class={props.embed ? "status-page embed" : "status-page"}>
          {!props.embed && <a class="skip" href="#main">Skip to content</a>}
          {props.children}
        </body>
      </html>
    </>
  );
}

/**
 * statusd's own public early warnings of the board's services (its probes, or reports of
 * several long-standing accounts), shown apart from the vendors' statuses and only when the
 * owner turned them on; nothing when there is none.
 */
function EarlyWarnings(props: { b: BoardView; warnings: ReadonlyMap<string, EarlyWarning> }) {
  if (!props.b.earlyWarning) return null;
  const slugs = [...new Set(props.b.entries.flatMap((e) => e.services))];
  const names = new Map<string, string>();
  for (const e of props.b.entries) {
    for (const m of e.monitor ? [e.monitor] : e.monitors) {
      names.set(m.serviceSlug, m.serviceName ?? m.serviceSlug);
    }
  }
  const shown = slugs.flatMap((slug) => {
    const w = props.warnings.get(slug);
    return w && w.visibility === "public" ? [{ slug, w }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <section class="notice warn early-warning" aria-labelledby="early-warning">
      <h2 id="early-warning">Early warning (statusd's own observation)</h2>
      <p class="muted">
        Not the vendors' statuses: what statusd's own checks of their endpoints, or reports of
        several of its accounts, see.
      </p>
      <ul>
        {shown.map(({ slug, w }) => (
          <li key={slug}>
            <strong>{names.get(slug) ?? slug}</strong>: {w.summary}
          </li>
        ))}
      </ul>
    </section>
  );
}

function BoardPage(
  props: {
    b: BoardView;
    now: number;
    base: string;
    publicUrl: string;
    mail: boolean;
    warnings: ReadonlyMap<string, EarlyWarning>;
  },
) {
  const { b, now, base } = props;
  const banner = bannerWords(b);
  return (
    <StatusFrame b={b} base={base}>
      <header class="sp-head">
        <Brand b={b} base={base} />
        {b.description && <p class="lead">{b.description}</p>}
        {b.links.length > 0 && (
          <nav aria-label="Links">
            <ul class="sp-links">
              {b.links.map((l) => (
                <li>
                  <a href={l.url} rel="nofollow noopener">{l.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" tabindex={-1}>
        <section class={`banner b-${b.currentStatus}`} aria-labelledby="now">
          <h2 id="now">
            <StatusBadge status={b.currentStatus} /> {banner.headline}
          </h2>
          {banner.affected.length > 0 && (
            <ul class="affected">
              {banner.affected.map((a, k) => <li key={k}>{a}</li>)}
            </ul>
          )}
          <p class="muted">
            Last updated{" "}
            <time datetime={toIso(now)}>{when(now)}</time>. Each service is read from its vendor's
            own status page.
          </p>
        </section>
        <EarlyWarnings b={b} warnings={props.warnings} />
        <Legend />
        {b.entries.map((e) => <Entry key={e.id} e={e} now={now} />)}
        <section class="subscribe" aria-labelledby="follow">
          <h2 id="follow">Follow this page</h2>
          {props.mail && (
            <form method="post" action={`${base}/subscribe`} class="inline">
              <label>
                Email updates{" "}
                <input type="email" name="email" autocomplete="email" required maxlength={254} />
              </label>
              <button type="submit">Subscribe</button>
            </form>
          )}
          <ul class="sp-links">
            <li>
              <a href={`${base}/feed.atom`}>Atom feed</a>
            </li>
            <li>
              <a href={`${base}/feed.rss`}>RSS feed</a>
            </li>
            <li>
              <a href={`${base}/calendar.ics`}>Maintenance calendar</a>
            </li>
            <li>
              <a href={`${base}/badge.json`}>Badge (shields.io)</a>
            </li>
            <li>
              <a href={`${props.publicUrl}/api/boards/${encodeURIComponent(b.slug)}`}>JSON</a>
            </li>
          </ul>
        </section>
      </main>
      <footer class="sp-foot muted">
        {b.entries.length === 1 ? "1 entry" : `${b.entries.length} entries`} · Powered by{" "}
        <a href={props.publicUrl}>statusd</a>
      </footer>
    </StatusFrame>
  );
}

/** The board in brief for an iframe: banner and one line per entry, links open the page. */
function EmbedPage(props: { b: BoardView; base: string; publicUrl: string; now: number }) {
  const { b, base } = props;
  const banner = bannerWords(b);
  return (
    <StatusFrame b={b} base={base} embed>
      <main id="main" class="embed-main">
        <h1 class={`banner b-${b.currentStatus}`}>
          <StatusBadge status={b.currentStatus} />{" "}
          <a href={base === "" ? "/" : `${props.publicUrl}${base}`} target="_blank" rel="noopener">
            {b.title}: {banner.headline}
          </a>
        </h1>
        <ul class="embed-list">
          {b.entries.map((e) => (
            <li>
              {e.name}: <strong>{levelWords(e.currentStatus)}</strong>
            </li>
          ))}
        </ul>
        <p class="muted">
          Updated <time datetime={toIso(props.now)}>{when(props.now)}</time>
        </p>
      </main>
    </StatusFrame>
  );
}

async function renderBoard(c: Context<Env>, slug: string, base: string, embed: boolean) {
  const app = c.get("app");
  const headers: Record<string, string> = embed ? { "Content-Security-Policy": EMBED_CSP } : {};
  return await publicPage(c, async () => {
    const [b, warnings] = await Promise.all([
      boardBySlug(app, ANONYMOUS, slug),
      embed ? Promise.resolve(new Map<string, EarlyWarning>()) : openWarnings(app),
    ]);
    const now = app.clock.now();
    const publicUrl = app.settings.publicUrl;
    return {
      html: embed ? <EmbedPage b={b} base={base} publicUrl={publicUrl} now={now} /> : (
        <BoardPage
          b={b}
          now={now}
          base={base}
          publicUrl={publicUrl}
          mail={app.settings.mailEnabled === true}
          warnings={warnings}
        />
      ),
    };
  }, headers);
}

/** Where links to the board's files point: `/b/{slug}`, or `""` on the board's own host. */
function baseOf(c: Context<Env>, slug: string): string {
  return c.req.header(BOARD_HOST_HEADER) === undefined ? boardBase(slug) : "";
}

/** The board page (private or unknown: the HTML 404). */
export function boardPage(c: Context<Env>): Promise<Response> {
  const slug = c.req.param("slug")!;
  return renderBoard(c, slug, baseOf(c, slug), false);
}

/** The board's embed page: frameable by any site (its own policy; every other page refuses). */
export function boardEmbed(c: Context<Env>): Promise<Response> {
  const slug = c.req.param("slug")!;
  return renderBoard(c, slug, baseOf(c, slug), true);
}

/** What the subscribe form answers: the same whether the address was new or not. */
function SubscribedPage(
  props: { b: BoardView; base: string; email?: string; error?: string },
) {
  const { b, base } = props;
  return (
    <StatusFrame b={b} base={base}>
      <header class="sp-head">
        <Brand b={b} base={base} />
      </header>
      <main id="main" tabindex={-1}>
        {props.error
          ? <p class="notice error" role="alert">{props.error}</p>
          : (
            <p class="notice" role="status">
              If {props.email}{" "}
              is not subscribed yet, a mail asking to confirm is on its way: follow its link and
              this page's news will come by email. Every mail has a one-click unsubscribe link.
            </p>
          )}
        <p>
          <a href={base === "" ? "/" : base}>Back to {b.title}</a>
        </p>
      </main>
    </StatusFrame>
  );
}

/** `POST /b/{slug}/subscribe`: email updates of a public board, double opt-in. */
export async function boardSubscribe(c: Context<Env>): Promise<Response> {
  const app = c.get("app");
  const slug = c.req.param("slug")!;
  const b = await boardBySlug(app, ANONYMOUS, slug);
  const base = baseOf(c, slug);
  const form = await c.req.parseBody().catch(() => ({} as Record<string, unknown>));
  const email = typeof form.email === "string" ? form.email.slice(0, 400) : "";
  const page = (status: 200 | 400 | 429, error?: string) =>
    c.html(
      <SubscribedPage
        b={b}
        base={base}
        email={email.trim()}
        error={error}
      />,
      status,
      { "Cache-Control": "no-store" },
    );
  try {
    await subscribeToPublicBoard(app, b, email);
    return page(200);
  } catch (err) {
    if (err instanceof InvalidRequest) {
      return page(400, err.issues.map((i) => i.message).join(". "));
    }
    if (err instanceof RateLimited) return page(429, `${err.message}.`);
    throw err;
  }
}

/** `/b/{slug}/logo`: the board's logo (a 404 without one), as uploaded. */
export async function boardLogo(c: Context<Env>): Promise<Response> {
  const b = await boardRecordBySlug(c.get("app"), ANONYMOUS, c.req.param("slug")!);
  if (!b.logo) throw new NotFound("logo of board", b.slug);
  return c.body(logoBytes(b.logo), 200, {
    "Content-Type": b.logo.type,
    "Cache-Control": "public, max-age=300",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
}

/** `/b/{slug}/theme.css`: the accent colour of a board's pages (the only per-board style). */
export async function boardTheme(c: Context<Env>): Promise<Response> {
  const b = await boardRecordBySlug(c.get("app"), ANONYMOUS, c.req.param("slug")!);
  const color = b.accentColor ?? DEFAULT_ACCENT;
  return c.body(`:root{--brand:${color}}\n`, 200, {
    "Content-Type": "text/css; charset=utf-8",
    "Cache-Control": "public, max-age=300",
  });
}

/** Mounts `/b/{slug}`, its embed and its theme. */
export const registerBoardPages: Register = (api) => {
  api.get("/b/:slug", boardPage);
  api.get("/b/:slug/embed", boardEmbed);
  api.get("/b/:slug/theme.css", boardTheme);
  api.get("/b/:slug/logo", boardLogo);
  api.post("/b/:slug/subscribe", boardSubscribe);
};
