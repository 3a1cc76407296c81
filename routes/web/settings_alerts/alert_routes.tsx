/**
 * Settings › Alerts › Routes, where alerts go: add one (its signing secret shown once), send it
 * a test, resume it when statusd paused it, remove it (asked first).
 * @module
 */
import type { Hono } from "hono";
import {
  type CreatedRoute,
  createRoute,
  deleteRoute,
  getRoute,
  sendTest,
  updateRoute,
  type WebSession,
} from "../../../app/mod.ts";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import {
  ALERTS_PATH,
  type Change,
  DONE,
  done,
  type Failure,
  type PageData,
  type ShowPage,
} from "./shared.ts";

/** The kinds of route a person can add, in the form's order. */
const ROUTE_KINDS = [
  { value: "slack", label: "Slack incoming webhook" },
  { value: "discord", label: "Discord webhook" },
  { value: "teams", label: "Microsoft Teams workflow" },
  { value: "webhook", label: "Webhook (signed JSON)" },
  { value: "pagerduty", label: "PagerDuty (Events API v2)" },
  { value: "email", label: "Email" },
] as const;

/** The account's routes, their health and the form that adds one. */
export function RoutesSection(
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

/** A route's settings from the form, by its kind. */
function settingsOf(form: Record<string, string | string[]>): Record<string, unknown> {
  const kind = field(form, "kind");
  if (kind === "email") {
    return { kind, to: field(form, "to").split(",").map((s) => s.trim()).filter(Boolean) };
  }
  if (kind === "pagerduty") return { kind, routingKey: field(form, "routingKey").trim() };
  return { kind, url: field(form, "url").trim() };
}

/** Mounts adding, testing, resuming and removing (asked first) a route. */
export function routeActions(web: Hono<WebEnv>, change: Change, show: ShowPage): void {
  web.post(
    `${ALERTS_PATH}/routes`,
    webSession,
    (c) =>
      change(c, "routes", async (session, { fields: form }) => {
        const created = await createRoute(c.get("app"), session.principal, {
          name: field(form, "name"),
          settings: settingsOf(form),
        });
        if (!created.secret) return done("route-created");
        // The secret is shown in this answer only (never in a redirect URL).
        return c.html(await show(c, session, { notice: DONE["route-created"], created }), 201);
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
  askBeforeRemoving(
    web,
    `${ALERTS_PATH}/routes`,
    { nav: "alerts", back: ALERTS_PATH },
    async (app, session, id) => {
      const { name } = await getRoute(app, session.principal, id);
      return {
        title: `Remove route ${name}?`,
        question: `Remove the route ${name}? Nothing more is sent to it.`,
        button: "Remove route",
      };
    },
  );
  web.post(
    `${ALERTS_PATH}/routes/:id/delete`,
    webSession,
    (c) =>
      change(c, "routes", async (session) => {
        await deleteRoute(c.get("app"), session.principal, c.req.param("id"), null);
        return done("route-deleted");
      }),
  );
}
