/**
 * Settings > Alerts: add the destinations alerts go to (webhook, Slack, Discord,
 * Teams, email, PagerDuty) and send each a test, write rules (what to watch, from which level,
 * for how long, with or without recovery, to which routes), resume a route statusd paused, and
 * read the latest delivered alerts with their outcome. Plain forms with the session's CSRF token,
 * as Settings > Monitors; the page calls the same verbs as `/api/user/alert-*`.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  acknowledgeByLink,
  confirmByLink,
  confirmMailByLink,
  type CreatedRoute,
  createEscalation,
  createRoute,
  createRule,
  deleteEscalation,
  deleteRoute,
  deleteRule,
  type DeliveryView,
  getDelivery,
  getEscalation,
  getRoute,
  getRule,
  listBoards,
  listDeliveries,
  listEscalations,
  listGroups,
  listMonitors,
  listRoutes,
  listRules,
  resubscribeByLink,
  type RouteView,
  sendTest,
  unsubscribeByLink,
  updateRoute,
  updateRule,
  type WebSession,
} from "../../app/mod.ts";
import {
  AppError,
  type EscalationRecord,
  NotFound,
  type RuleRecord,
  STATUS_LEVELS,
  toIso,
} from "../../domain/mod.ts";
import { errorBody } from "../error_body.ts";
import type { Register } from "../register.ts";
import { pageError } from "./auth.tsx";
import { Layout } from "./layout.tsx";
import { levelWords } from "./_parts.tsx";
import {
  CSRF_FIELD,
  field,
  formToken,
  readForm,
  signedInOf,
  type WebEnv,
  webSession,
} from "./session.ts";
import {
  askBeforeRemoving,
  Csrf,
  ErrorNote,
  type Failure as FormFailure,
  messageOf,
  toSignIn,
} from "./forms.tsx";

/** Path of the page. */
export const ALERTS_PATH = "/settings/alerts";

const DONE = {
  "route-created": "Route added.",
  "route-deleted": "Route removed.",
  "route-resumed": "Route resumed: its waiting alerts go now.",
  "test-queued": "Test alert queued: see it under Recent alerts.",
  "rule-created": "Rule added.",
  "rule-saved": "Rule saved.",
  "rule-deleted": "Rule removed.",
  "escalation-created": "Escalation policy added.",
  "escalation-deleted": "Escalation policy removed.",
} as const;
const done = (code: keyof typeof DONE) => `${ALERTS_PATH}?done=${code}`;

type Place = "routes" | "rules" | "escalations";
type Failure = FormFailure<Place>;

const all = { page: 0, limit: 200 };

interface PageData {
  readonly escalations: readonly EscalationRecord[];
  readonly routes: readonly RouteView[];
  readonly rules: readonly RuleRecord[];
  readonly events: readonly DeliveryView[];
  readonly targets: readonly { value: string; label: string }[];
}

async function pageData(c: Context<WebEnv>, session: WebSession): Promise<PageData> {
  const app = c.get("app");
  const who = session.principal;
  const [routes, rules, events, monitors, groups, boards, escalations] = await Promise.all([
    listRoutes(app, who, all),
    listRules(app, who, all),
    listDeliveries(app, who, {}, { page: 0, limit: 20 }),
    listMonitors(app, who, { page: 0, limit: 500 }),
    listGroups(app, who, all),
    listBoards(app, who, all),
    listEscalations(app, who, all),
  ]);
  return {
    escalations: escalations.content,
    routes: routes.content,
    rules: rules.content,
    events: events.content,
    targets: [
      { value: "all:", label: "All my monitors" },
      ...monitors.content.map((m) => ({
        value: `monitor:${m.id}`,
        label: `Monitor ${m.label ?? m.serviceName ?? m.serviceSlug}`,
      })),
      ...groups.content.map((g) => ({ value: `group:${g.id}`, label: `Group ${g.name}` })),
      ...boards.content.map((b) => ({ value: `board:${b.id}`, label: `Board ${b.title}` })),
    ],
  };
}

function when(t: number): string {
  return toIso(t)!.replace("T", " ").slice(0, 16) + " UTC";
}

function targetLabel(r: RuleRecord, data: PageData): string {
  if (r.target.kind === "all") return "All my monitors";
  const value = `${r.target.kind}:${r.target.id}`;
  return data.targets.find((t) => t.value === value)?.label ?? `${r.target.kind} (deleted)`;
}

/** The kinds of route a person can add, in the form's order. */
const ROUTE_KINDS = [
  { value: "slack", label: "Slack incoming webhook" },
  { value: "discord", label: "Discord webhook" },
  { value: "teams", label: "Microsoft Teams workflow" },
  { value: "webhook", label: "Webhook (signed JSON)" },
  { value: "pagerduty", label: "PagerDuty (Events API v2)" },
  { value: "email", label: "Email" },
] as const;

function RoutesSection(
  props: { session: WebSession; data: PageData; failure?: Failure; created?: CreatedRoute },
) {
  const { routes } = props.data;
  return (
    <section aria-labelledby="routes-title">
      <h2 id="routes-title">Routes: where alerts go</h2>
      {props.created?.secret && (
        <section class="notice" aria-labelledby="secret-title">
          <h3 id="secret-title">Signing secret of “{props.created.route.name}”</h3>
          <p>
            <strong>Copy it now: this is the only time it is shown.</strong>{" "}
            Verify each webhook with it (Standard Webhooks).
          </p>
          <pre><code id="route-secret">{props.created.secret}</code></pre>
          <button type="button" data-copy="route-secret">Copy secret</button>
        </section>
      )}
      <ErrorNote failure={props.failure} at="routes" />
      {routes.length === 0 ? <p class="muted">No routes yet.</p> : (
        <table class="cards">
          <caption class="sr">Alert routes</caption>
          <thead>
            <tr>
              <th scope="col">Route</th>
              <th scope="col">Destination</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {routes.map((r) => (
              <tr>
                <td data-label="Route">
                  {r.name} <span class="muted">({r.kind})</span>
                </td>
                <td data-label="Destination" class="labelled">
                  <code>{r.destination}</code>
                  {r.recipients?.map((x) => (
                    <div class="muted">
                      {x.address}: {x.state === "confirmed"
                        ? "confirmed"
                        : x.state === "pending"
                        ? "asked to confirm (gets nothing else until then)"
                        : "gets no mail (unsubscribed or bounced)"}
                    </div>
                  ))}
                </td>
                <td data-label="State" class="labelled">
                  {r.paused ? `paused: ${r.paused.reason}` : "active"}
                </td>
                <td class="row-actions">
                  <form method="post" action={`${ALERTS_PATH}/routes/${r.id}/test`} class="inline">
                    <Csrf session={props.session} />
                    <button type="submit" aria-label={`Send test to ${r.name}`}>Send test</button>
                  </form>
                  {r.paused && (
                    <form
                      method="post"
                      action={`${ALERTS_PATH}/routes/${r.id}/resume`}
                      class="inline"
                    >
                      <Csrf session={props.session} />
                      <button type="submit" aria-label={`Resume ${r.name}`}>Resume</button>
                    </form>
                  )}
                  <a
                    class="danger"
                    href={`${ALERTS_PATH}/routes/${r.id}/delete`}
                    aria-label={`Remove route ${r.name}`}
                  >
                    Remove
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {/* Only the chosen kind's field shows (CSS :has, no script; all show without it). */}
      <h3 id="new-route-title">Add a route</h3>
      <form
        method="post"
        action={`${ALERTS_PATH}/routes`}
        class="stack route-form"
        aria-labelledby="new-route-title"
      >
        <Csrf session={props.session} />
        <label>
          Route name <input type="text" name="name" required maxlength={100} />
        </label>
        <fieldset>
          <legend>Kind</legend>
          {ROUTE_KINDS.map((k, i) => (
            <label key={k.value} class="check">
              <input type="radio" name="kind" value={k.value} checked={i === 0} /> {k.label}
            </label>
          ))}
        </fieldset>
        <label class="f-url">
          Webhook URL <input type="url" name="url" maxlength={2048} />
        </label>
        <label class="f-to">
          Email addresses, comma-separated <input type="text" name="to" maxlength={2000} />
        </label>
        <label class="f-key">
          PagerDuty routing key <input type="text" name="routingKey" maxlength={64} />
        </label>
        <button type="submit">Add route</button>
      </form>
    </section>
  );
}

function RulesSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const { rules, routes } = props.data;
  const routeName = (id: string) => routes.find((r) => r.id === id)?.name ?? "(deleted)";
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Rules: what to watch</h2>
      <ErrorNote failure={props.failure} at="rules" />
      {rules.length === 0 ? <p class="muted">No rules yet.</p> : (
        <table class="cards">
          <caption class="sr">Alert rules</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Watches</th>
              <th scope="col">Fires</th>
              <th scope="col">Sends to</th>
              <th scope="col">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr>
                <td data-label="Rule">
                  {r.name} {!r.enabled && <span class="muted">(off)</span>}
                </td>
                <td data-label="Watches" class="labelled">{targetLabel(r, props.data)}</td>
                <td data-label="Fires" class="labelled">
                  {r.level
                    ? `${levelWords(r.level)} or worse${
                      r.forMinutes === 0 ? ", at once" : ` for ${r.forMinutes} min`
                    }`
                    : "no level"}
                  {r.incidents ? " · incidents" : ""}
                  {r.maintenance ? " · maintenance" : ""}
                  {r.recovery ? " · recovery" : ""}
                </td>
                <td data-label="Sends to" class="labelled">{r.routes.map(routeName).join(", ")}</td>
                <td class="row-actions">
                  <form method="post" action={`${ALERTS_PATH}/rules/${r.id}/toggle`} class="inline">
                    <Csrf session={props.session} />
                    <button
                      type="submit"
                      aria-label={`${r.enabled ? "Turn off" : "Turn on"} ${r.name}`}
                    >
                      {r.enabled ? "Turn off" : "Turn on"}
                    </button>
                  </form>
                  <a
                    class="danger"
                    href={`${ALERTS_PATH}/rules/${r.id}/delete`}
                    aria-label={`Remove rule ${r.name}`}
                  >
                    Remove
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {routes.length === 0 ? <p class="muted">Add a route first: a rule sends to routes.</p> : (
        <>
          <h3 id="new-rule-title">Add a rule</h3>
          <form
            method="post"
            action={`${ALERTS_PATH}/rules`}
            class="stack"
            aria-labelledby="new-rule-title"
          >
            <Csrf session={props.session} />
            <label>
              Rule name <input type="text" name="name" required maxlength={100} />
            </label>
            <label>
              Watch{" "}
              <select name="target">
                {props.data.targets.map((t) => (
                  <option key={t.value} value={t.value}>{t.label}</option>
                ))}
              </select>
            </label>
            <label>
              Fire at{" "}
              <select name="level">
                {STATUS_LEVELS.filter((l) => l !== "OPERATIONAL").map((l) => (
                  <option value={l} selected={l === "PARTIAL_OUTAGE"}>
                    {levelWords(l)} or worse
                  </option>
                ))}
                <option value="">no level (incidents or maintenance only)</option>
              </select>
            </label>
            <label>
              Lasting at least (minutes){" "}
              <input type="number" name="forMinutes" min={0} max={1440} value="0" />
            </label>
            <label>
              Also when statusd cannot read it for (minutes, empty: never){" "}
              <input type="number" name="failingMinutes" min={1} max={1440} />
            </label>
            <label class="check">
              <input type="checkbox" name="earlyWarning" value="yes" />{" "}
              Also when statusd's own checks suspect trouble before the vendor admits it
            </label>
            <label class="check">
              <input type="checkbox" name="recovery" value="yes" checked /> Tell me when it recovers
            </label>
            <label class="check">
              <input type="checkbox" name="incidents" value="yes" /> Also tell of incidents
            </label>
            <label class="check">
              <input type="checkbox" name="maintenance" value="yes" /> Also tell of maintenance
            </label>
            <fieldset>
              <legend>Send to</legend>
              {routes.map((r) => (
                <label class="check">
                  <input type="checkbox" name="routes" value={r.id} /> {r.name}
                </label>
              ))}
            </fieldset>
            <label>
              And escalate with{" "}
              <select name="escalation">
                <option value="">no escalation</option>
                {props.data.escalations.map((e) => <option key={e.id} value={e.id}>{e.name}
                </option>)}
              </select>
            </label>
            <button type="submit">Add rule</button>
          </form>
        </>
      )}
    </section>
  );
}

function EscalationsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const { escalations, routes } = props.data;
  const routeName = (id: string) => routes.find((r) => r.id === id)?.name ?? "(deleted)";
  if (routes.length === 0) return null;
  return (
    <section aria-labelledby="escalations-title">
      <h2 id="escalations-title">Escalation policies</h2>
      <p class="muted">
        Steps told one after the other until someone acknowledges (the link in the message) or it
        recovers.
      </p>
      <ErrorNote failure={props.failure} at="escalations" />
      {escalations.map((e) => (
        <article class="card" aria-labelledby={`e-${e.id}`}>
          <h3 id={`e-${e.id}`}>{e.name}</h3>
          <ol>
            {e.steps.map((step) => (
              <li>
                after {step.afterMinutes} min: {step.routes.map(routeName).join(", ")}
              </li>
            ))}
          </ol>
          {e.repeat > 0 && <p class="muted">repeated {e.repeat} more times</p>}
          <p>
            <a class="danger" href={`${ALERTS_PATH}/escalations/${e.id}/delete`}>
              Remove escalation {e.name}
            </a>
          </p>
        </article>
      ))}
      <h3 id="new-escalation-title">Add an escalation policy</h3>
      <form
        method="post"
        action={`${ALERTS_PATH}/escalations`}
        class="stack"
        aria-labelledby="new-escalation-title"
      >
        <Csrf session={props.session} />
        <label>
          Policy name <input type="text" name="name" required maxlength={100} />
        </label>
        {[1, 2, 3].map((n) => (
          <fieldset>
            <legend>Step {n}{n > 1 ? " (optional)" : ""}</legend>
            <label>
              Minutes after the step before{" "}
              <input
                type="number"
                name={`after${n}`}
                min={0}
                max={1440}
                value={n === 1 ? "0" : ""}
              />
            </label>
            {routes.map((r) => (
              <label class="check">
                <input type="checkbox" name={`step${n}`} value={r.id} /> {r.name}
              </label>
            ))}
          </fieldset>
        ))}
        <label>
          Repeat the steps (times) <input type="number" name="repeat" min={0} max={5} value="0" />
        </label>
        <button type="submit">Add escalation policy</button>
      </form>
    </section>
  );
}

function EventsSection(props: { data: PageData }) {
  const { events, routes } = props.data;
  const routeName = (id: string) => routes.find((r) => r.id === id)?.name ?? "(deleted)";
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Recent alerts</h2>
      {events.length === 0 ? <p class="muted">Nothing sent yet.</p> : (
        <table class="cards">
          <caption class="sr">Recent alerts</caption>
          <thead>
            <tr>
              <th scope="col">Alert</th>
              <th scope="col">Route</th>
              <th scope="col">State</th>
              <th scope="col">Queued</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr>
                <td data-label="Alert">
                  <a href={`${ALERTS_PATH}/events/${encodeURIComponent(e.id)}`}>{e.summary}</a>
                </td>
                <td data-label="Route" class="labelled">{routeName(e.routeId)}</td>
                <td data-label="State" class="labelled">
                  {e.state}
                  {e.lastError ? ` — ${e.lastError}` : ""}
                </td>
                <td data-label="Queued" class="labelled">{when(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One delivery: what it said, where it went, its state and every attempt. */
function EventPage(
  props: { publicUrl: string; session: WebSession; event: DeliveryView; routeName: string },
) {
  const e = props.event;
  return (
    <Layout
      title={`Alert: ${e.summary}`}
      publicUrl={props.publicUrl}
      nav="alerts"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <p>
        <a href={ALERTS_PATH}>Settings › Alerts</a>
      </p>
      <h1>{e.summary}</h1>
      <dl>
        <dt>What</dt>
        <dd>{e.recovery ? `${e.trigger} (the end of the alert)` : e.trigger}</dd>
        <dt>Route</dt>
        <dd>{props.routeName}</dd>
        <dt>State</dt>
        <dd>{e.lastError ? `${e.state} — ${e.lastError}` : e.state}</dd>
        <dt>Queued</dt>
        <dd>{when(e.createdAt)}</dd>
        <dt>Due</dt>
        <dd>{when(e.notBefore)}</dd>
        {e.step > 0 && (
          <>
            <dt>Escalation step</dt>
            <dd>{e.step}</dd>
          </>
        )}
        <dt>Notification</dt>
        <dd>
          <code>{e.notificationId}</code>
        </dd>
      </dl>
      <h2>Attempts</h2>
      {e.attempts.length === 0 ? <p class="muted">None yet.</p> : (
        <table>
          <caption class="sr">Attempts</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">When</th>
              <th scope="col">Outcome</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {e.attempts.map((a) => (
              <tr>
                <td>{a.n}</td>
                <td>{when(a.at)}</td>
                <td>
                  {a.ok ? "delivered" : "failed"}
                  {a.status !== null ? ` (${a.status})` : ""}
                  {a.error ? ` — ${a.error}` : ""}
                </td>
                <td>{a.latencyMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

function AlertsPage(
  props: {
    publicUrl: string;
    session: WebSession;
    data: PageData;
    notice?: string;
    failure?: Failure;
    created?: CreatedRoute;
  },
) {
  return (
    <Layout
      title="Alerts"
      publicUrl={props.publicUrl}
      nav="alerts"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Settings › Alerts</h1>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <RoutesSection
        session={props.session}
        data={props.data}
        failure={props.failure}
        created={props.created}
      />
      <RulesSection session={props.session} data={props.data} failure={props.failure} />
      <EscalationsSection session={props.session} data={props.data} failure={props.failure} />
      <EventsSection data={props.data} />
    </Layout>
  );
}

function settingsOf(form: Record<string, string | string[]>): Record<string, unknown> {
  const kind = field(form, "kind");
  if (kind === "email") {
    return { kind, to: field(form, "to").split(",").map((s) => s.trim()).filter(Boolean) };
  }
  if (kind === "pagerduty") return { kind, routingKey: field(form, "routingKey").trim() };
  return { kind, url: field(form, "url").trim() };
}

/** The pages a subscription's confirm and unsubscribe links open. */
function SubscriptionLinkPage(
  props: {
    publicUrl: string;
    csrf: string;
    action: string;
    what: "confirm" | "unsubscribe" | "resubscribe";
    /** After an unsubscribe: the link, to offer undoing it. */
    link?: string;
    result?: boolean | "full";
  },
) {
  const title = props.what === "confirm"
    ? "Confirm your subscription"
    : props.what === "unsubscribe"
    ? "Unsubscribe"
    : "Subscribe again";
  return (
    <Layout title={title} publicUrl={props.publicUrl} noindex>
      <h1>{title}</h1>
      {props.result === undefined
        ? (
          <form method="post" action={props.action}>
            <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
            <p>
              {props.what === "confirm"
                ? "Confirm to receive the status changes this subscription follows."
                : props.what === "unsubscribe"
                ? "Stop receiving messages of this subscription. statusd then mails this " +
                  "address nothing at all, for any account, until you subscribe again here."
                : "Receive this subscription's messages again."}
            </p>
            <button type="submit">
              {props.what === "confirm"
                ? "Confirm"
                : props.what === "unsubscribe"
                ? "Unsubscribe"
                : "Subscribe again"}
            </button>
          </form>
        )
        : (
          <>
            <p class="notice" role="status">
              {props.result === "full"
                ? "This page takes no more subscribers for now; nothing was changed."
                : props.result
                ? props.what === "unsubscribe"
                  ? "Unsubscribed: nothing more will be sent. statusd mails this address " +
                    "nothing at all, for any account, until you subscribe again."
                  : "Confirmed: status changes will reach this address."
                : "This link is not valid (or was already used)."}
            </p>
            {props.result === true && props.what === "unsubscribe" && props.link
              ? (
                <p>
                  Changed your mind?{" "}
                  <a href={`/subscriptions/resubscribe/${encodeURIComponent(props.link)}`}>
                    Subscribe again
                  </a>
                </p>
              )
              : null}
          </>
        )}
    </Layout>
  );
}

/** The page a request to confirm an address opens: one button, so link previews confirm nothing. */
function MailConfirmPage(
  props: { publicUrl: string; csrf: string; action: string; result?: boolean },
) {
  return (
    <Layout title="Confirm alert mail" publicUrl={props.publicUrl} noindex>
      <h1>Confirm alert mail</h1>
      {props.result === undefined
        ? (
          <form method="post" action={props.action}>
            <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
            <p>Confirm to receive the alerts a statusd account asked to send to this address.</p>
            <button type="submit">Confirm</button>
          </form>
        )
        : (
          <p class="notice" role="status">
            {props.result
              ? "Confirmed: this account's alerts will reach this address."
              : "This link is not valid (or was already used)."}
          </p>
        )}
    </Layout>
  );
}

/** The page an acknowledge link opens: one button, so link previews acknowledge nothing. */
function AcknowledgePage(
  props: { publicUrl: string; csrf: string; id: string; stopped?: number },
) {
  return (
    <Layout title="Acknowledge alert" publicUrl={props.publicUrl} noindex>
      <h1>Acknowledge this alert</h1>
      {props.stopped === undefined
        ? (
          <>
            <p>
              Acknowledging tells statusd someone is on it: the escalation steps still waiting are
              not sent. The recovery is still sent.
            </p>
            <form method="post" action={`/alerts/acknowledge/${encodeURIComponent(props.id)}`}>
              <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
              <button type="submit">Acknowledge</button>
            </form>
          </>
        )
        : (
          <p class="notice" role="status">
            Acknowledged. {props.stopped === 0
              ? "Nothing was waiting: it was already acknowledged, recovered or fully sent."
              : `${props.stopped} waiting step${props.stopped === 1 ? "" : "s"} will not be sent.`}
          </p>
        )}
    </Layout>
  );
}

/** The Settings > Alerts routes. */
export function alertsPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const publicUrl = (c: Context<WebEnv>) => c.get("app").settings.publicUrl;

  const change = async (
    c: Context<WebEnv>,
    place: Place,
    run: (
      session: WebSession,
      form: Record<string, string | string[]>,
    ) => Promise<string | Response>,
  ): Promise<Response> => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const form = await readForm(c);
    try {
      const out = await run(session, form);
      return typeof out === "string" ? c.redirect(out, 303) : out;
    } catch (err) {
      const message = messageOf(err);
      if (message === null) throw err;
      return c.html(
        <AlertsPage
          publicUrl={publicUrl(c)}
          session={session}
          data={await pageData(c, session)}
          failure={{ place, message }}
        />,
        errorBody(err as AppError).status as 400,
      );
    }
  };

  web.get(ALERTS_PATH, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const code = c.req.query("done") ?? "";
    return c.html(
      <AlertsPage
        publicUrl={publicUrl(c)}
        session={session}
        data={await pageData(c, session)}
        notice={Object.hasOwn(DONE, code) ? DONE[code as keyof typeof DONE] : undefined}
      />,
    );
  });

  web.get(`${ALERTS_PATH}/events/:id`, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const app = c.get("app");
    const event = await getDelivery(app, session.principal, c.req.param("id") ?? "");
    const route = await getRoute(app, session.principal, event.routeId).catch(() => null);
    return c.html(
      <EventPage
        publicUrl={publicUrl(c)}
        session={session}
        event={event}
        routeName={route?.name ??
          (event.source.kind === "subscription" ? "subscription" : "(deleted)")}
      />,
    );
  });

  web.post(
    `${ALERTS_PATH}/routes`,
    webSession,
    (c) =>
      change(c, "routes", async (session, form) => {
        const created = await createRoute(c.get("app"), session.principal, {
          name: field(form, "name"),
          settings: settingsOf(form),
        });
        if (!created.secret) return done("route-created");
        // The secret is shown in this answer only (never in a redirect URL).
        return c.html(
          <AlertsPage
            publicUrl={publicUrl(c)}
            session={session}
            data={await pageData(c, session)}
            notice={DONE["route-created"]}
            created={created}
          />,
          201,
        );
      }),
  );
  web.post(
    `${ALERTS_PATH}/routes/:id/test`,
    webSession,
    (c) =>
      change(c, "routes", async (session) => {
        await sendTest(c.get("app"), session.principal, c.req.param("id"));
        return done("test-queued");
      }),
  );
  web.post(
    `${ALERTS_PATH}/routes/:id/resume`,
    webSession,
    (c) =>
      change(c, "routes", async (session) => {
        await updateRoute(
          c.get("app"),
          session.principal,
          c.req.param("id"),
          { paused: false },
          null,
        );
        return done("route-resumed");
      }),
  );
  // Removing asks first, on a page of its own (no script needed).
  for (
    const [noun, what, get, question] of [
      ["routes", "route", getRoute, "Nothing more is sent to it."],
      ["rules", "rule", getRule, "It queues nothing more; what it already queued still goes."],
      [
        "escalations",
        "escalation",
        getEscalation,
        "Rules that name it no longer escalate through it.",
      ],
    ] as const
  ) {
    const place = { nav: "alerts", back: ALERTS_PATH } as const;
    askBeforeRemoving(web, `${ALERTS_PATH}/${noun}`, place, async (app, session, id) => {
      const { name } = await get(app, session.principal, id);
      return {
        title: `Remove ${what} ${name}?`,
        question: `Remove the ${what} ${name}? ${question}`,
        button: `Remove ${what}`,
      };
    });
  }
  web.post(
    `${ALERTS_PATH}/routes/:id/delete`,
    webSession,
    (c) =>
      change(c, "routes", async (session) => {
        await deleteRoute(c.get("app"), session.principal, c.req.param("id"), null);
        return done("route-deleted");
      }),
  );
  web.post(`${ALERTS_PATH}/rules`, webSession, (c) =>
    change(c, "rules", async (session, form) => {
      const [kind, id] = field(form, "target").split(":");
      const level = field(form, "level");
      const minutes = field(form, "forMinutes").trim();
      await createRule(c.get("app"), session.principal, {
        name: field(form, "name"),
        target: kind === "all" ? { kind: "all" } : { kind, id },
        level: level === "" ? null : level,
        forMinutes: minutes === "" ? 0 : Number(minutes),
        failingMinutes: field(form, "failingMinutes").trim() === ""
          ? null
          : Number(field(form, "failingMinutes")),
        escalation: field(form, "escalation") === "" ? null : field(form, "escalation"),
        earlyWarning: field(form, "earlyWarning") === "yes",
        recovery: field(form, "recovery") === "yes",
        incidents: field(form, "incidents") === "yes",
        maintenance: field(form, "maintenance") === "yes",
        routes: form.routes === undefined ? [] : [form.routes].flat(),
      });
      return done("rule-created");
    }));
  web.post(
    `${ALERTS_PATH}/escalations`,
    webSession,
    (c) =>
      change(c, "escalations", async (session, form) => {
        const steps = [1, 2, 3].flatMap((n) => {
          const routes = form[`step${n}`] === undefined ? [] : [form[`step${n}`]!].flat();
          if (routes.length === 0) return [];
          const after = field(form, `after${n}`).trim();
          return [{ routes, afterMinutes: after === "" ? 0 : Number(after) }];
        });
        await createEscalation(c.get("app"), session.principal, {
          name: field(form, "name"),
          steps,
          repeat: Number(field(form, "repeat") || "0"),
        });
        return done("escalation-created");
      }),
  );
  web.post(
    `${ALERTS_PATH}/escalations/:id/delete`,
    webSession,
    (c) =>
      change(c, "escalations", async (session) => {
        await deleteEscalation(c.get("app"), session.principal, c.req.param("id"), null);
        return done("escalation-deleted");
      }),
  );
  web.post(
    `${ALERTS_PATH}/rules/:id/toggle`,
    webSession,
    (c) =>
      change(c, "rules", async (session) => {
        const app = c.get("app");
        const rule = (await listRules(app, session.principal, all)).content.find((r) =>
          r.id === c.req.param("id")
        );
        if (!rule) throw new NotFound("alert rule", c.req.param("id"));
        await updateRule(app, session.principal, rule.id, { enabled: !rule.enabled }, null);
        return done("rule-saved");
      }),
  );
  web.post(
    `${ALERTS_PATH}/rules/:id/delete`,
    webSession,
    (c) =>
      change(c, "rules", async (session) => {
        await deleteRule(c.get("app"), session.principal, c.req.param("id"), null);
        return done("rule-deleted");
      }),
  );
  for (const what of ["confirm", "unsubscribe", "resubscribe"] as const) {
    const path = `/subscriptions/${what}/:link`;
    web.get(path, webSession, (c) =>
      c.html(
        <SubscriptionLinkPage
          publicUrl={publicUrl(c)}
          csrf={formToken(c)}
          action={`/subscriptions/${what}/${encodeURIComponent(c.req.param("link") ?? "")}`}
          what={what}
        />,
      ));
    web.post(path, webSession, async (c) => {
      // One-click unsubscribe (RFC 8058) comes from mail providers without our form's token;
      // the link itself is the capability. Confirming needs the page's token.
      if (what === "unsubscribe") await c.req.text();
      else await readForm(c);
      const app = c.get("app");
      const link = c.req.param("link") ?? "";
      const result = what === "confirm"
        ? await confirmByLink(app, link)
        : what === "unsubscribe"
        ? await unsubscribeByLink(app, link)
        : await resubscribeByLink(app, link);
      return c.html(
        <SubscriptionLinkPage
          publicUrl={publicUrl(c)}
          csrf=""
          action=""
          what={what}
          result={result}
          link={link}
        />,
        result === true ? 200 : result === "full" ? 409 : 404,
      );
    });
  }
  web.get("/mail/confirm/:token", webSession, (c) =>
    c.html(
      <MailConfirmPage
        publicUrl={publicUrl(c)}
        csrf={formToken(c)}
        action={`/mail/confirm/${encodeURIComponent(c.req.param("token") ?? "")}`}
      />,
    ));
  web.post("/mail/confirm/:token", webSession, async (c) => {
    await readForm(c);
    const result = await confirmMailByLink(c.get("app"), c.req.param("token") ?? "");
    return c.html(
      <MailConfirmPage publicUrl={publicUrl(c)} csrf="" action="" result={result} />,
      result ? 200 : 404,
    );
  });
  web.get("/alerts/acknowledge/:id", webSession, (c) =>
    c.html(
      <AcknowledgePage publicUrl={publicUrl(c)} csrf={formToken(c)} id={c.req.param("id")} />,
    ));
  web.post("/alerts/acknowledge/:id", webSession, async (c) => {
    await readForm(c);
    const stopped = await acknowledgeByLink(c.get("app"), c.req.param("id"));
    return c.html(
      <AcknowledgePage publicUrl={publicUrl(c)} csrf="" id={c.req.param("id")} stopped={stopped} />,
    );
  });
  return web;
}

/** Mounts Settings > Alerts. */
export const registerAlertsPages: Register = (api) => {
  api.route("/", alertsPages());
};
