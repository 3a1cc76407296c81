/**
 * `/`: what is disrupted right now, what recovered lately, open incidents and upcoming
 * maintenance; and, honestly, how many vendors statusd cannot read (it never says all is well
 * when it does not know).
 * @module
 */
import type { Context } from "hono";
import {
  type BoardView,
  type Caller,
  type EarlyWarning,
  homeOverview,
  listBoards,
  listMonitors,
  type MonitorView,
  openWarnings,
  type Recovery,
} from "../../app/mod.ts";
import {
  DAY_MS,
  formatMinutes,
  type Incident,
  isMaintenance,
  maintenanceWindow,
  type ProberStats,
  type ReadingState,
  type Service,
  type StatusLevel,
} from "../../domain/mod.ts";
import { homeLinkHeader } from "../discovery.ts";
import type { Env } from "../env.ts";
import { Layout, type SignedIn, StatusBadge } from "./layout.tsx";
import { publicPage } from "./page_cache.ts";
import {
  countOf,
  IncidentList,
  levelWords,
  Section,
  serviceHref,
  ServiceTable,
  when,
} from "./_parts.tsx";

/** Most rows of each list on the home page. */
const HOME_LIST = 100;
/** "Recovered recently" looks back this far. */
const RECOVERED_WITHIN_MS = DAY_MS;

interface HomeData {
  readonly total: number;
  /** How many services are at each level now. */
  readonly byStatus: Readonly<Record<StatusLevel, number>>;
  readonly down: Service[];
  readonly unknown: number;
  readonly readings: Record<ReadingState, number>;
  readonly recovered: Recovery[];
  readonly incidents: Incident[];
  readonly maintenance: Incident[];
  readonly names: Map<string, string>;
  readonly now: number;
  /** statusd's own early warnings open now, by slug. */
  readonly warnings: ReadonlyMap<string, EarlyWarning>;
  /** statusd's own probes fail for many vendors at once: its network seems at fault. */
  readonly localOutage: ProberStats["localOutage"];
}

/**
 * What statusd's own eyes see: a note when its own network seems at fault (no vendor is warned
 * meanwhile), and each vendor it suspects, apart from the vendors' own statuses.
 */
function OwnEyes(props: { data: HomeData }) {
  const { warnings, localOutage, names } = props.data;
  if (localOutage === null && warnings.size === 0) return null;
  return (
    <Section id="early-warnings" title={`statusd's own eyes (${warnings.size})`}>
      {localOutage !== null && (
        <p class="notice warn" role="status">
          statusd's own probes of {localOutage.failing} of {localOutage.probed}{" "}
          vendors fail together since{" "}
          {when(localOutage.since)}: its own network seems at fault, so no vendor is warned until
          they answer again.
        </p>
      )}
      {warnings.size > 0 && (
        <ul class="plain">
          {[...warnings].map(([slug, w]) => (
            <li>
              <a href={serviceHref(slug)}>{names.get(slug) ?? slug}</a>: {w.summary}
            </li>
          ))}
        </ul>
      )}
      <p class="muted">
        What statusd's own checks of the vendors' endpoints, and members' reports, see — never the
        vendors' statuses.
      </p>
    </Section>
  );
}

/** The page's first words: what is wrong now, in a sentence, and how much statusd can see. */
function SummaryBanner(props: { data: HomeData }) {
  const { byStatus, readings, total, incidents, maintenance } = props.data;
  const levels = ["MAJOR_OUTAGE", "PARTIAL_OUTAGE", "DEGRADED_PERFORMANCE"] as const;
  const disrupted = levels.reduce((n, l) => n + byStatus[l], 0);
  const worstLevel = levels.find((l) => byStatus[l] > 0) ?? null;
  const level: StatusLevel = worstLevel ??
    (readings.fresh === 0 ? "UNKNOWN" : "OPERATIONAL");
  const headline = worstLevel !== null
    ? `${countOf(disrupted, "service")} disrupted now` +
      ` (${
        levels.filter((l) => byStatus[l] > 0).map((l) => `${byStatus[l]} ${levelWords(l)}`)
          .join(", ")
      })`
    : readings.fresh === 0
    ? "No current reading of any service"
    : "No disruption among the services statusd can read";
  return (
    <section class={`banner b-${level}`} aria-labelledby="summary">
      <h2 id="summary">
        <StatusBadge status={level} /> {headline}
      </h2>
      <p class="muted">
        {countOf(incidents.length, "open incident")} ·{" "}
        {countOf(maintenance.length, "maintenance", "maintenances")} announced or under way ·{" "}
        {countOf(readings.fresh, "service")} of {total.toLocaleString("en-US")} read recently
      </p>
    </section>
  );
}

function Disrupted(props: { data: HomeData }) {
  const { down, readings, total } = props.data;
  const unreadable = readings.failing + readings.stale + readings.never_read;
  const readLink = (state: ReadingState, text: string) => (
    <a href={`/services?reading=${state}`}>{text}</a>
  );
  return (
    <Section id="disrupted" title={`Disrupted right now (${down.length})`}>
      {down.length
        ? <ServiceTable services={down} caption="Services disrupted right now" />
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
            No disruption among the {countOf(readings.fresh, "service")}{" "}
            read successfully; the status of the {countOf(unreadable, "service")}{" "}
            statusd cannot read right now is not known.
          </p>
        )
        : <p class="notice">Every service statusd can read is operational or in maintenance.</p>}
      {(unreadable > 0 || readings.unsupported > 0) && (
        <p class="reading-summary">
          {unreadable + readings.unsupported} of {countOf(total, "service")} cannot be read:{" "}
          {readLink("failing", `${readings.failing} failing`)},{" "}
          {readLink("stale", `${readings.stale} stale`)},{" "}
          {readLink("never_read", `${readings.never_read} not read yet`)}, {readLink(
            "unsupported",
            `${readings.unsupported} unsupported (no machine-readable status)`,
          )}.
        </p>
      )}
      {props.data.unknown > 0 && (
        <p class="muted">
          <a href="/services?status=UNKNOWN">{countOf(props.data.unknown, "service")}</a>{" "}
          {props.data.unknown === 1 ? "has" : "have"}{" "}
          no fresh data (not read yet, or their status page has been failing for over three poll
          intervals).
        </p>
      )}
    </Section>
  );
}

function Recovered(props: { recovered: readonly Recovery[] }) {
  return (
    <Section id="recovered" title={`Recovered in the last 24 hours (${props.recovered.length})`}>
      {props.recovered.length === 0
        ? <p class="muted">No service recovered from a disruption in the last 24 hours.</p>
        : (
          <ul class="plain recovered">
            {props.recovered.map((r) => (
              <li>
                <a href={serviceHref(r.slug)}>{r.name}</a> <StatusBadge status={r.currentStatus} />
                {` back since ${when(r.recoveredAt)}, after ${
                  formatMinutes((r.recoveredAt - r.disruptedSince) / 60_000)
                } of ${levelWords(r.worstStatus)}`}
              </li>
            ))}
          </ul>
        )}
    </Section>
  );
}

function Maintenance(props: { items: readonly Incident[]; names: ReadonlyMap<string, string> }) {
  return (
    <Section id="maintenance" title={`Upcoming and ongoing maintenance (${props.items.length})`}>
      {props.items.length === 0
        ? <p class="muted">No maintenance announced.</p>
        : (
          <ul class="plain maintenance">
            {props.items.map((m) => {
              const w = maintenanceWindow(m);
              return (
                <li>
                  <a href={`${serviceHref(m.serviceSlug)}#incident-${m.id}`}>
                    {props.names.get(m.serviceSlug) ?? m.serviceSlug}
                  </a>
                  {`: ${m.title} — ${m.status === "IN_PROGRESS" ? "in progress" : "scheduled"}, ${
                    when(w.start)
                  }${w.end === null ? "" : ` to ${when(w.end)}`}`}
                </li>
              );
            })}
          </ul>
        )}
      <p class="muted">
        Subscribe in a calendar app: <a href="/calendar.ics">/calendar.ics</a> · JSON:{" "}
        <a href="/api/maintenances">/api/maintenances</a>
      </p>
    </Section>
  );
}

/** A signed-in person's own monitors and boards, first on their home page. */
interface Stack {
  readonly monitors: readonly MonitorView[];
  readonly boards: readonly BoardView[];
}

/** The account's monitors (what is not operational first) and boards, or how to start. */
function YourStack(props: { stack: Stack }) {
  const { monitors, boards } = props.stack;
  const worstFirst = [...monitors].sort((a, b) =>
    Number(a.currentStatus === "OPERATIONAL") - Number(b.currentStatus === "OPERATIONAL")
  );
  return (
    <Section id="your-stack" title={`Your monitors (${monitors.length})`}>
      {monitors.length === 0
        ? (
          <p>
            You watch no vendor yet:{" "}
            <a href="/settings/monitors?welcome=1">
              pick the vendors you depend on
            </a>.
          </p>
        )
        : (
          <ul class="plain">
            {worstFirst.slice(0, 50).map((m) => (
              <li>
                <a href={serviceHref(m.serviceSlug)}>{m.label ?? m.serviceName ?? m.serviceSlug}</a>
                {": "}
                {m.paused ? "paused" : levelWords(m.currentStatus)}
              </li>
            ))}
          </ul>
        )}
      {boards.length > 0 && (
        <p>
          Your boards: {boards.map((b, i) => (
            <>
              {i > 0 && " · "}
              <a href={`/b/${b.slug}`}>{b.title}</a>
            </>
          ))}
        </p>
      )}
      <p>
        <a href="/settings/monitors">Settings › Monitors</a>
      </p>
    </Section>
  );
}

function HomePage(
  props: { data: HomeData; publicUrl: string; signedIn: SignedIn | null; stack: Stack | null },
) {
  const { data } = props;
  return (
    <Layout
      title="Status of cloud and SaaS vendors"
      description={`Live status of ${data.total} cloud and SaaS vendors, normalised.`}
      publicUrl={props.publicUrl}
      canonicalPath="/"
      nav="home"
      signedIn={props.signedIn}
    >
      <h1>Status of {data.total} cloud and SaaS vendors</h1>
      {props.stack ? <YourStack stack={props.stack} /> : (
        <p class="notice">
          Watch the vendors your team depends on and be told when one breaks:{" "}
          <a href="/sign-up">create an account</a> (or <a href="/sign-in">sign in</a>).
        </p>
      )}
      <SummaryBanner data={data} />
      <OwnEyes data={data} />
      <Disrupted data={data} />
      <Recovered recovered={data.recovered} />
      <Section id="open-incidents" title={`Open incidents (${data.incidents.length})`}>
        <IncidentList
          incidents={data.incidents}
          now={data.now}
          names={data.names}
          latestOnly
          empty="No open incident."
        />
      </Section>
      <Maintenance items={data.maintenance} names={data.names} />
      <p>
        <a href="/services">Browse all services</a> · <a href="/docs">API reference</a> ·{" "}
        <a href="/llms.txt">llms.txt</a>
      </p>
    </Layout>
  );
}

async function homeData(
  c: Context<Env>,
  proberStats?: () => ProberStats,
): Promise<HomeData> {
  const app = c.get("app");
  const warnings = await openWarnings(app);
  // The counts, the disrupted services and the open incidents in one consistent read.
  const o = await homeOverview(app, {
    perLevel: HOME_LIST,
    incidents: HOME_LIST,
    maintenances: 20,
    recoveredWithinMs: RECOVERED_WITHIN_MS,
  });
  const incidents = o.activeIncidents.filter((i) => !isMaintenance(i));
  const names = new Map<string, string>();
  for (const i of [...incidents, ...o.maintenances]) {
    names.set(i.serviceSlug, o.names.get(i.serviceSlug) ?? i.serviceSlug);
  }
  for (const slug of warnings.keys()) {
    const name = o.names.get(slug) ?? (await app.store.catalog.service(slug))?.name;
    names.set(slug, name ?? slug);
  }
  return {
    total: o.total,
    byStatus: o.byStatus,
    down: [...o.disrupted],
    unknown: o.byStatus.UNKNOWN,
    readings: o.readings,
    recovered: [...o.recovered],
    incidents,
    maintenance: [...o.maintenances],
    names,
    now: app.clock.now(),
    warnings,
    localOutage: proberStats?.().localOutage ?? null,
  };
}

/** A signed-in person's monitors and boards; null for anyone else (the shared page). */
async function stackOf(c: Context<Env>, who: Caller): Promise<Stack | null> {
  if (who.kind !== "session") return null;
  const app = c.get("app");
  const all = { page: 0, limit: 500 };
  const [monitors, boards] = await Promise.all([
    listMonitors(app, who, all),
    listBoards(app, who, all),
  ]);
  return { monitors: monitors.content, boards: boards.content };
}

/** The home page (shared-cached for anonymous callers). */
export async function homePage(
  c: Context<Env>,
  proberStats?: () => ProberStats,
): Promise<Response> {
  const publicUrl = c.get("app").settings.publicUrl;
  return await publicPage(
    c,
    async (signedIn, who) => ({
      html: (
        <HomePage
          data={await homeData(c, proberStats)}
          publicUrl={publicUrl}
          signedIn={signedIn}
          stack={await stackOf(c, who)}
        />
      ),
    }),
    { Link: homeLinkHeader(publicUrl) },
  );
}
