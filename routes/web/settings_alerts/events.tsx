/**
 * Settings › Alerts › Recent alerts: the latest deliveries with their state, and one delivery's
 * page (what it said, where it went, every attempt).
 * @module
 */
import type { Hono } from "hono";
import { type DeliveryView, getDelivery, getRoute, type WebSession } from "../../../app/mod.ts";
import { Layout } from "../layout.tsx";
import { toSignIn } from "../forms.tsx";
import { signedInOf, type WebEnv, webSession } from "../session.ts";
import { ALERTS_PATH, type PageData, when } from "./shared.ts";

/** The latest deliveries, each linking to its page. */
export function EventsSection(props: { data: PageData }) {
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

/** Mounts a delivery's page. */
export function eventPages(web: Hono<WebEnv>): void {
  web.get(`${ALERTS_PATH}/events/:id`, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const app = c.get("app");
    const event = await getDelivery(app, session.principal, c.req.param("id") ?? "");
    const route = await getRoute(app, session.principal, event.routeId).catch(() => null);
    return c.html(
      <EventPage
        publicUrl={app.settings.publicUrl}
        session={session}
        event={event}
        routeName={route?.name ??
          (event.source.kind === "subscription" ? "subscription" : "(deleted)")}
      />,
    );
  });
}
