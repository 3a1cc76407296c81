/**
 * `/services/{slug}`: one service for people. Its status and reading health, uptime over what
 * was actually observed, MTTR and typical time to resolve, a 90-day bar for the service and one
 * per component, open incidents and the incidents resolved in the last 90 days, each with its
 * whole timeline.
 * @module
 */
import type { Context } from "hono";
import {
  type ComponentHistory,
  type OwnEyes,
  reportTrouble,
  type ServiceHistory,
  servicePageData,
  type ServiceUptime,
} from "../../app/mod.ts";
import {
  DAY_MS,
  formatMinutes,
  type Incident,
  overlappingDays,
  RESOLUTION_IMPACTS,
  type ResolutionFigure,
  type ServiceDetail,
  type TimeToResolve,
} from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { toSignIn } from "./forms.tsx";
import { field, readForm, type WebEnv } from "./session.ts";
import { Layout, type SignedIn, StatusBadge } from "./layout.tsx";
import { publicPage } from "./page_cache.ts";
import {
  DayBar,
  dayOf,
  IncidentChart,
  IncidentList,
  Legend,
  ReadingBadge,
  ReadingText,
  Section,
  serviceFeeds,
  serviceHref,
  when,
} from "./_parts.tsx";

/** One text as a list item. */
function listItem(text: string) {
  return <li>{text}</li>;
}

/** Components drawn with their own bar; beyond this only the disrupted ones get one. */
export const COMPONENT_BARS_MAX = 50;

const pct = (p: number | null) => (p === null ? "—" : `${p.toFixed(3)} %`);

/** "(observed since …)" when the window's figure covers less than the window. */
function observedNote(u: ServiceUptime, days: number): string {
  if (u.observedSince === null) return "nothing observed yet";
  if (u.observedSince <= u.asOf - days * DAY_MS) return "observed over the whole window";
  return `observed since ${dayOf(u.observedSince)}`;
}

function UptimeFigures(props: { uptime: ServiceUptime }) {
  const u = props.uptime;
  if (u.note !== null) {
    return (
      <div class="figures">
        <div class="figure">
          <span class="label">Uptime</span>
          <span class="value">{u.note}</span>
          <span class="muted observed">({observedNote(u, 90)})</span>
        </div>
      </div>
    );
  }
  const windows: [string, number, number | null][] = [
    ["7 days", 7, u.days7],
    ["30 days", 30, u.days30],
    ["90 days", 90, u.days90],
  ];
  return (
    <div class="figures">
      {windows.map(([label, days, value]) => (
        <div class="figure">
          <span class="label">Uptime, {label}</span>
          <span class="value">{pct(value)}</span>
          <span class="muted observed">({observedNote(u, days)})</span>
        </div>
      ))}
      <div class="figure">
        <span class="label">MTTR, 90 days</span>
        <span class="value">{u.mttrMinutes === null ? "—" : formatMinutes(u.mttrMinutes)}</span>
        <span class="muted">
          {u.disruptions === 0
            ? "no disruption ended in 90 days"
            : `mean of ${u.disruptions} disruption${u.disruptions === 1 ? "" : "s"} ` +
              `(${u.mttrMinutes} min)`}
        </span>
      </div>
    </div>
  );
}

/**
 * The typical time to resolve as a table: per impact (and for all incidents), the median and
 * p90 durations and the sample size; impacts with no incident are left out.
 */
export function TimeToResolveTable(props: { ttr: TimeToResolve }) {
  const t = props.ttr;
  const rows = RESOLUTION_IMPACTS.filter((i) => t.byImpact[i].incidents > 0);
  if (rows.length === 0) {
    return <p class="muted">No incident was resolved in the last {t.windowDays} days.</p>;
  }
  const row = (key: string, label: string, f: ResolutionFigure) => (
    <tr data-impact={key}>
      <th scope="row">{label}</th>
      <td data-label="Usually" class="labelled">{formatMinutes(f.p50Minutes!)}</td>
      <td data-label="9 in 10 within" class="labelled">{formatMinutes(f.p90Minutes!)}</td>
      <td data-label="Incidents" class="labelled">{f.incidents}</td>
    </tr>
  );
  return (
    <table class="cards ttr">
      <caption class="sr">Typical time to resolve, by impact</caption>
      <thead>
        <tr>
          <th scope="col">Impact</th>
          <th scope="col">Usually (median)</th>
          <th scope="col">9 in 10 within (p90)</th>
          <th scope="col">Incidents</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((i) =>
          row(i, i === "NONE" ? "no stated impact" : i.toLowerCase(), t.byImpact[i])
        )}
        {rows.length > 1 && row("ALL", "all incidents", t.all)}
      </tbody>
    </table>
  );
}

/** Which components get a bar: all of them up to the cap, else those with a disrupted day. */
function barred(components: readonly ComponentHistory[]): {
  bars: ComponentHistory[];
  rest: ComponentHistory[];
} {
  if (components.length <= COMPONENT_BARS_MAX) return { bars: [...components], rest: [] };
  const disrupted = (c: ComponentHistory) =>
    c.entries.some((e) => e.worstStatus !== "OPERATIONAL" && e.worstStatus !== "UNKNOWN");
  const bars = components.filter(disrupted).slice(0, COMPONENT_BARS_MAX);
  const shown = new Set(bars.map((c) => c.id));
  return { bars, rest: components.filter((c) => !shown.has(c.id)) };
}

function Components(
  props: { components: readonly ComponentHistory[]; incidents: readonly Incident[]; now: number },
) {
  if (props.components.length === 0) return <p class="muted">None published.</p>;
  const { bars, rest } = barred(props.components);
  return (
    <>
      {bars.map((c) => {
        const name = c.group ? `${c.group} › ${c.name}` : c.name;
        const mine = props.incidents.filter((i) => i.components.includes(c.name));
        return (
          <div class="component" data-component={c.name}>
            <h3>
              {name} <StatusBadge status={c.status} />
            </h3>
            <DayBar
              small
              entries={c.entries}
              incidents={overlappingDays(mine, c.entries.map((e) => e.day), props.now)}
              label={`${name}: worst status per day, last ${c.entries.length} days`}
            />
          </div>
        );
      })}
      {rest.length > 0 && (
        <>
          <h3>Other components</h3>
          <p class="muted">
            {rest.length} more components had no disruption in the last 90 days (no bar drawn).
          </p>
          <ul class="plain">
            {rest.map((c) => (
              <li>
                {c.group ? `${c.group} › ${c.name}` : c.name} <StatusBadge status={c.status} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

interface PageData {
  readonly s: ServiceDetail;
  readonly uptime: ServiceUptime;
  readonly history: ServiceHistory;
  readonly components: ComponentHistory[];
  readonly past: Incident[];
  readonly rewrites: { readonly revisions: number; readonly incidents: number };
  readonly eyes: OwnEyes;
}

/** statusd's own early warning, kept apart from the vendor's status: what it saw and since when. */
function EarlyWarningNote(props: { eyes: OwnEyes }) {
  const w = props.eyes.earlyWarning;
  if (w === null) return null;
  return (
    <p class={`notice warn early-warning ${w.phase}`} role="status" id="early-warning">
      <strong>
        {w.phase === "suspected" ? "Early warning (statusd's own observation)" : "Confirmed"}:
      </strong>{" "}
      {w.summary}
    </p>
  );
}

/** What statusd probes of the vendor, and what each target last answered. */
function ProbeTargets(props: { eyes: OwnEyes }) {
  const t = props.eyes.targets;
  if (t.length === 0) {
    return (
      <p id="probe-targets">
        statusd has nothing of this vendor to probe: its catalog entry names no domain or probe URL.
      </p>
    );
  }
  const words = { up: "answers", down: "does not answer", refused: "may not be reached" };
  return (
    <div id="probe-targets">
      <p>What statusd probes of it:</p>
      <ul>
        {t.map((x) => (
          <li>
            <code>{x.url}</code>: {x.lastAnswer === null
              ? "not probed yet"
              : `${words[x.lastAnswer]}${x.since === null ? "" : ` since ${when(x.since)}`}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The vendor's incidents that give a start earlier than statusd saw them listed. */
function Backdated(props: { eyes: OwnEyes }) {
  const b = props.eyes.backdated;
  if (b.total === 0) {
    return (
      <p id="backdated">
        No incident back-dated in {props.eyes.trackRecord.windowDays}{" "}
        days: each began, as the vendor says, after statusd's last reading of its page that did not
        list it.
      </p>
    );
  }
  return (
    <div id="backdated">
      <p>
        <strong>{b.total} {b.total === 1 ? "incident" : "incidents"} back-dated</strong> in{" "}
        {props.eyes.trackRecord.windowDays}{" "}
        days: the vendor gives a start earlier than statusd's last reading of its page, which did
        not list it.
      </p>
      <ul>
        {b.latest.map((i) => (
          <li>
            {i.title}: begun {when(i.claimedStart)} as the vendor says; first listed{" "}
            {when(i.firstListedAt)}, not listed at {when(i.priorReadAt)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The vendor's honesty record: how quickly it admits trouble statusd saw itself. */
function HonestyRecord(
  props: { eyes: OwnEyes; slug: string; signedIn: SignedIn | null; reported: boolean },
) {
  const t = props.eyes.trackRecord;
  return (
    <Section id="own-eyes" title="statusd's own eyes">
      <p class="muted">
        statusd checks the vendor's public endpoints itself about once a minute while anyone here
        monitors it, and counts members' reports. What it sees never changes the vendor's status
        above: it is shown apart, as statusd's own observation.
      </p>
      <div class="figures">
        <div class="figure">
          <span class="label">Acknowledgement grade, {t.windowDays} days</span>
          <span class={`value grade${t.grade ? ` grade-${t.grade}` : ""}`}>
            {t.grade ?? "—"}
          </span>
          <span class="muted">
            {t.grade === null
              ? t.gradeNote
              : `average delay ${t.averageDelayMinutes} min over ${t.episodes} episodes; ` +
                `${t.unacknowledged} never acknowledged, ${t.vendorFirst} told by the vendor first`}
          </span>
        </div>
      </div>
      <p class="muted">
        The delay runs from statusd's first evidence to the moment statusd first saw the vendor
        admit it (a reading of its page showing its status other than operational, or listing an
        incident; never the start the vendor writes); an episode it never acknowledges counts 4
        hours. A: under 15 min, B: 15–30 min, C: 30 min–2 h, D: 2–4 h, F: over 4 h. Only what
        statusd's own probes, or reports of several long-standing accounts, saw counts.
      </p>
      <Backdated eyes={props.eyes} />
      <ProbeTargets eyes={props.eyes} />
      {props.reported && (
        <p class="notice" role="status">
          Thanks: your report is counted. It warns your account at once, for 30 minutes. Others see
          an early warning when statusd's own probes see errors, or when several accounts that have
          monitored this vendor for a week report it too.
        </p>
      )}
      {props.signedIn
        ? (
          <form method="post" action={`${serviceHref(props.slug)}/report`} class="report">
            <input type="hidden" name="_csrf" value={props.signedIn.csrf} />
            <label>
              What do you see? (optional)
              <input type="text" name="note" maxlength={1000} autocomplete="off" />
            </label>
            <button type="submit">Not working for us</button>
          </form>
        )
        : (
          <p>
            <a href={`/sign-in?next=${encodeURIComponent(serviceHref(props.slug))}`}>Sign in</a>
            {" "}
            to report that it is not working for you.
          </p>
        )}
    </Section>
  );
}

function ServicePage(
  props: PageData & { publicUrl: string; signedIn: SignedIn | null; reported: boolean },
) {
  const { s, uptime, history, past } = props;
  const now = uptime.asOf;
  // What happened on each day: open and resolved incidents (not maintenance still to come).
  const happened = [...s.incidents, ...past].filter((i) => i.status !== "SCHEDULED");
  const days = history.entries.map((e) => e.day);
  const byDay = overlappingDays(happened, days, now);
  const noData = history.entries.filter((e) => e.worstStatus === "UNKNOWN").length;
  const notable = history.entries
    .map((e, k) => ({ e, incidents: byDay[k]! }))
    .filter(({ e }) => e.worstStatus !== "OPERATIONAL" && e.worstStatus !== "UNKNOWN")
    .reverse();
  const open = s.incidents;
  return (
    <Layout
      title={`${s.name} status`}
      description={`Current status, incidents and uptime of ${s.name}.`}
      publicUrl={props.publicUrl}
      canonicalPath={serviceHref(s.slug)}
      nav="services"
      feeds={serviceFeeds(s.slug, s.name)}
      signedIn={props.signedIn}
    >
      <h1>
        {s.name} <StatusBadge status={s.currentStatus} />
      </h1>
      <EarlyWarningNote eyes={props.eyes} />
      <p class="muted">
        Source: <a href={s.statusPageUrl} rel="nofollow">{s.statusPageUrl}</a>{" "}
        ({s.platform}) · last attempt {when(s.reading.lastAttemptAt)} · last good reading{" "}
        {when(s.reading.lastSuccessAt)} · last change {when(s.lastChangedAt)}
      </p>
      <Section
        id="reading"
        title={
          <>
            Reading <ReadingBadge reading={s.reading} />
          </>
        }
      >
        <ReadingText reading={s.reading} statusPageUrl={s.statusPageUrl} />
        {s.reading.notes.length > 0 && (
          <>
            <p>The latest reading left out:</p>
            <ul class="notes">
              {s.reading.notes.map(listItem)}
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
      </Section>
      <Section id="uptime" title="Uptime and recovery">
        <UptimeFigures uptime={uptime} />
        <p class="muted">
          Uptime counts only time statusd observed: major outage is down, partial outage counts 30 %
          down, degraded and maintenance count as up.
        </p>
        <h3>Typical time to resolve</h3>
        <p class="muted">
          How long the vendor's incidents resolved in the last {s.timeToResolve.windowDays}{" "}
          days lasted, from start to resolution as it published them (maintenance left out).
        </p>
        <TimeToResolveTable ttr={s.timeToResolve} />
      </Section>
      <Section id="open-incidents" title={`Open incidents (${open.length})`}>
        <IncidentList incidents={open} now={now} empty="No open incident." />
      </Section>
      <Section id="history" title="Last 90 days">
        <p class="muted">Worst status per UTC day.</p>
        <DayBar
          entries={history.entries}
          incidents={byDay}
          label={`${s.name}: worst status per day, last ${history.entries.length} days`}
        />
        <Legend />
        <p class="muted">
          Oldest on the left, today on the right; {noData} of {history.entries.length}{" "}
          days have no data (statusd was not reading the vendor).
        </p>
        <IncidentChart incidents={[...open, ...past]} now={now} name={s.name} />
        {notable.length > 0 && (
          <>
            <h3>Days with a disruption</h3>
            <ul class="plain notable">
              {notable.map(({ e, incidents }) => (
                <li>
                  {dayOf(e.day)} <StatusBadge status={e.worstStatus} />
                  {incidents.length > 0 && ` ${incidents.map((i) => i.title).join("; ")}`}
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>
      <HonestyRecord
        eyes={props.eyes}
        slug={s.slug}
        signedIn={props.signedIn}
        reported={props.reported}
      />
      <Section id="components" title={`Components (${props.components.length})`}>
        <Components components={props.components} incidents={happened} now={now} />
      </Section>
      <Section id="past-incidents" title={`Past incidents, last 90 days (${past.length})`}>
        <IncidentList
          incidents={past}
          now={now}
          empty="No incident resolved in the last 90 days."
        />
        <p class="muted" id="rewrites">
          {props.rewrites.revisions === 0
            ? "History rewrites in the last 90 days: none seen (statusd keeps what a vendor " +
              "edits, lowers or moves after publishing)."
            : `History rewrites in the last 90 days: ${props.rewrites.revisions} ${
              props.rewrites.revisions === 1 ? "rewrite" : "rewrites"
            } of ${props.rewrites.incidents} ${
              props.rewrites.incidents === 1 ? "incident" : "incidents"
            } (text edited, impact lowered or start moved after publishing); each is marked ` +
              "on its incident."}
        </p>
      </Section>
      <p class="muted">
        JSON: <a href={`/api/services/${encodeURIComponent(s.slug)}`}>/api/services/{s.slug}</a>
        {" "}
        · Feeds: <a href={`${serviceHref(s.slug)}/feed.atom`}>Atom</a> ·{" "}
        <a href={`${serviceHref(s.slug)}/feed.rss`}>RSS</a> · Badge:{" "}
        <a href={`/badge/${encodeURIComponent(s.slug)}.svg`}>/badge/{s.slug}.svg</a>
      </p>
    </Layout>
  );
}

/** The service page (an unknown slug is NotFound: the error page, with close matches). */
export async function servicePage(c: Context<Env>): Promise<Response> {
  const app = c.get("app");
  const slug = c.req.param("slug")!;
  return await publicPage(c, async (signedIn, who) => {
    // One snapshot of the store for the whole page.
    const data: PageData = await servicePageData(app, slug, who);
    return {
      html: (
        <ServicePage
          {...data}
          publicUrl={app.settings.publicUrl}
          signedIn={signedIn}
          reported={signedIn !== null && c.req.query("reported") === "1"}
        />
      ),
    };
  });
}

/** `POST /services/{slug}/report`: a signed-in member reports it not working for the team. */
export async function reportFromPage(c: Context<WebEnv>): Promise<Response> {
  const session = c.get("session");
  if (!session) return toSignIn(c);
  const form = await readForm(c);
  const slug = c.req.param("slug")!;
  const note = field(form, "note").trim();
  await reportTrouble(c.get("app"), session.principal, { service: slug, note });
  return c.redirect(`${serviceHref(slug)}?reported=1#own-eyes`, 303);
}
