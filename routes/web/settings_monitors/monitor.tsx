/**
 * Settings › Monitors, the monitors themselves: find a service and watch it, list what is
 * watched, edit a monitor (its label, the components that count, paused) and remove one.
 * @module
 */
import type { Hono } from "hono";
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  getService,
  type MonitorView,
  updateMonitor,
  type WebSession,
} from "../../../app/mod.ts";
import { Layout } from "../layout.tsx";
import { levelWords, UptimeFigure } from "../_parts.tsx";
import { askBeforeRemoving, Csrf, ErrorNote, formAction, toSignIn } from "../forms.tsx";
import { field, signedInOf, type WebEnv, webSession } from "../session.ts";
import {
  type Change,
  done,
  type Failure,
  listOf,
  monitorName,
  MONITORS_PATH,
  type PageData,
} from "./shared.tsx";

/** What a monitor watches, in words. */
function watching(m: MonitorView): string {
  return m.components.length ? m.components.join(", ") : "the whole service";
}

/** The search that finds a service to watch, and its results with an Add button each. */
export function AddSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const watched = new Set(props.data.monitors.map((m) => m.serviceSlug));
  return (
    <section aria-labelledby="add-title">
      <h2 id="add-title">Add a monitor</h2>
      <form method="get" action={MONITORS_PATH} class="inline" role="search">
        <label>
          Find a service{" "}
          <input type="search" name="q" value={props.data.q} maxlength={100} required />
        </label>{" "}
        <button type="submit">Search</button>
      </form>
      <ErrorNote failure={props.failure} at="add" />
      {props.data.results !== null && (
        props.data.results.length === 0
          ? (
            <p class="muted">
              No service matches “{props.data.q}”. {props.data.closest.length > 0 && (
                <>
                  Closest: {props.data.closest.map((slug, i) => (
                    <>
                      {i > 0 && ", "}
                      <a href={`${MONITORS_PATH}?q=${encodeURIComponent(slug)}`}>{slug}</a>
                    </>
                  ))}.{" "}
                </>
              )}
              Not in the catalog? <a href="#by-url-title">Add its status page by URL</a>.
            </p>
          )
          : (
            <ul class="results" aria-label="Services found">
              {props.data.results.map((s) => (
                <li>
                  <a href={`/services/${s.slug}`}>{s.name}</a>{" "}
                  <span class="muted">{s.currentStatus}</span> {watched.has(s.slug)
                    ? <span class="muted">(monitored)</span>
                    : (
                      <form method="post" action={MONITORS_PATH} class="inline">
                        <Csrf session={props.session} />
                        <input type="hidden" name="service" value={s.slug} />
                        <button type="submit" aria-label={`Add ${s.name}`}>Add</button>
                      </form>
                    )}
                </li>
              ))}
            </ul>
          )
      )}
    </section>
  );
}

/** The account's monitors with their level and uptime. */
export function MonitorsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const { monitors } = props.data;
  return (
    <section aria-labelledby="monitors-title">
      <h2 id="monitors-title">Your monitors ({monitors.length})</h2>
      <ErrorNote failure={props.failure} at="monitors" />
      {monitors.length === 0
        ? <p class="muted">None yet: find a service above and add it.</p>
        : (
          <table class="cards">
            <caption class="sr">Your monitors</caption>
            <thead>
              <tr>
                <th scope="col">Monitor</th>
                <th scope="col">Watching</th>
                <th scope="col">Status</th>
                <th scope="col">Uptime 30 d</th>
                <th scope="col">
                  <span class="sr">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {monitors.map((m) => (
                <tr>
                  <td data-label="Monitor">
                    <a href={`/services/${m.serviceSlug}`}>{monitorName(m)}</a>
                    {m.paused && <span class="muted">(paused)</span>}
                  </td>
                  <td data-label="Watching" class="labelled">{watching(m)}</td>
                  <td data-label="Status" class="labelled">{levelWords(m.currentStatus)}</td>
                  <td data-label="Uptime 30 d" class="labelled">
                    <UptimeFigure percent={m.uptime30d} observedMs={m.uptimeObservedMs} />
                  </td>
                  <td class="row-actions">
                    <a href={`${MONITORS_PATH}/${m.id}`} aria-label={`Edit ${monitorName(m)}`}>
                      Edit
                    </a>
                    <a
                      class="danger"
                      href={`${MONITORS_PATH}/${m.id}/delete`}
                      aria-label={`Remove ${monitorName(m)}`}
                    >
                      Remove
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}

/** One monitor's page: its label, the components that count, paused. */
function EditMonitorPage(
  props: {
    publicUrl: string;
    session: WebSession;
    m: MonitorView;
    components: readonly string[];
    error?: string;
  },
) {
  const { m } = props;
  const chosen = new Set(m.components);
  const name = monitorName(m);
  return (
    <Layout
      title={`Edit ${name}`}
      publicUrl={props.publicUrl}
      nav="monitors"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Edit monitor “{name}”</h1>
      <p>
        <a href={MONITORS_PATH}>← Settings › Monitors</a>
      </p>
      {props.error && <p class="notice error" role="alert">{props.error}</p>}
      <form method="post" action={`${MONITORS_PATH}/${m.id}`} class="stack">
        <Csrf session={props.session} />
        <label>
          Label{" "}
          <input
            type="text"
            name="label"
            value={m.label ?? ""}
            maxlength={100}
            placeholder={m.serviceName ?? m.serviceSlug}
          />
        </label>
        <fieldset id="component-list">
          <legend>Components to watch (none checked: the whole service)</legend>
          {props.components.length === 0 && (
            <p class="muted">statusd has not read any component of this service yet.</p>
          )}
          {props.components.length > 1 && (
            // A filter and select all/none, shown by the site script (the list works without).
            <div class="picker" data-picker="component-list" hidden>
              <label>
                Filter components <input type="search" data-filter autocomplete="off" />
              </label>{" "}
              <button type="button" class="secondary" data-all="1">Select all shown</button>{" "}
              <button type="button" class="secondary" data-all="0">Select none</button>
            </div>
          )}
          {props.components.map((c) => (
            <label class="check" key={c}>
              <input type="checkbox" name="components" value={c} checked={chosen.has(c)} /> {c}
            </label>
          ))}
        </fieldset>
        <label class="check">
          <input type="checkbox" name="paused" value="yes" checked={m.paused} /> Paused
        </label>
        <button type="submit">Save monitor</button>
      </form>
    </Layout>
  );
}

/** The monitor's page again, saying why its change was refused. */
async function editAgain(
  app: Parameters<typeof getMonitor>[0],
  session: WebSession,
  id: string,
  error: string,
) {
  const m = await getMonitor(app, session.principal, id);
  const components = m.serviceName === null
    ? []
    : (await getService(app, m.serviceSlug)).components.map((x) => x.name);
  return (
    <EditMonitorPage
      publicUrl={app.settings.publicUrl}
      session={session}
      m={m}
      components={components}
      error={error}
    />
  );
}

/** Mounts adding a monitor, its page and its edit, and removing one (asked first). */
export function monitorActions(web: Hono<WebEnv>, change: Change): void {
  web.post(MONITORS_PATH, webSession, (c) =>
    change(c, "add", async (session, { fields: form }) => {
      const m = await createMonitor(c.get("app"), session.principal, {
        service: field(form, "service"),
      });
      return `${MONITORS_PATH}/${m.id}?added=1`;
    }));

  web.get(`${MONITORS_PATH}/:id`, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const app = c.get("app");
    const m = await getMonitor(app, session.principal, c.req.param("id"));
    const components = m.serviceName === null
      ? []
      : (await getService(app, m.serviceSlug)).components.map((x) => x.name);
    return c.html(
      <EditMonitorPage
        publicUrl={app.settings.publicUrl}
        session={session}
        m={m}
        components={components}
      />,
    );
  });

  web.post(`${MONITORS_PATH}/:id`, webSession, (c) =>
    formAction(
      c,
      "monitors",
      (c, session, failure) =>
        editAgain(c.get("app"), session, c.req.param("id")!, failure.message),
      async (session, { fields: form }) => {
        const label = field(form, "label").trim();
        await updateMonitor(c.get("app"), session.principal, c.req.param("id"), {
          label: label === "" ? null : label,
          components: listOf(form, "components"),
          paused: field(form, "paused") === "yes",
        }, null);
        return done("saved");
      },
    ));

  // Removing asks first, on a page of its own (no script needed).
  askBeforeRemoving(
    web,
    MONITORS_PATH,
    { nav: "monitors", back: MONITORS_PATH },
    async (app, session, id) => {
      const name = monitorName(await getMonitor(app, session.principal, id));
      return {
        title: `Remove ${name}?`,
        question: `Stop watching ${name}? Its alert rules and boards lose it.`,
        button: "Remove monitor",
      };
    },
  );

  web.post(
    `${MONITORS_PATH}/:id/delete`,
    webSession,
    (c) =>
      change(c, "monitors", async (session) => {
        await deleteMonitor(c.get("app"), session.principal, c.req.param("id"), null);
        return done("removed");
      }),
  );
}
