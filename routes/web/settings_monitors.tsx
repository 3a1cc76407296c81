/**
 * Settings > Monitors: find a service by name and watch it, choose which of its
 * components count, group monitors, order groups and boards, and publish a board at `/b/{slug}`.
 * Plain forms (each POST carries the session's CSRF token and answers with a redirect back, or
 * the page again with the error next to the form that caused it): everything works without
 * JavaScript. The page calls the same app verbs as `/api/user/monitors|groups|boards`.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  acceptSuggestions,
  type BoardView,
  createBoard,
  createGroup,
  createMonitor,
  deleteBoard,
  deleteGroup,
  deleteMonitor,
  FREE_BOARD_LIMIT,
  FREE_MONITOR_LIMIT,
  getBoard,
  getGroup,
  getMonitor,
  getService,
  type GroupView,
  listBoards,
  listGroups,
  listMonitors,
  listServices,
  type MonitorView,
  type SuggestionReport,
  suggestMonitors,
  updateBoard,
  updateGroup,
  updateMonitor,
  type WebSession,
} from "../../app/mod.ts";
import { encodeBase64 } from "@oslojs/encoding";
import {
  AppError,
  type BoardItem,
  imageTypeOf,
  InvalidRequest,
  NotFound,
  type Service,
} from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { errorBody } from "../error_body.ts";
import { pageError } from "./auth.tsx";
import { Layout } from "./layout.tsx";
import { levelWords, UptimeFigure } from "./_parts.tsx";
import { DEFAULT_ACCENT } from "./board_page.tsx";
import {
  field,
  readForm,
  readFormWithFiles,
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
  signedIn,
  toSignIn,
} from "./forms.tsx";

/** Path of the page. */
export const MONITORS_PATH = "/settings/monitors";
const GROUPS_PATH = "/settings/groups";
const BOARDS_PATH = "/settings/boards";

/** What a redirect back says happened (a code in `?done=`, never text from the request). */
const DONE = {
  saved: "Monitor saved.",
  removed: "Monitor removed.",
  "group-created": "Group created.",
  "group-saved": "Group saved.",
  "group-deleted": "Group deleted.",
  "board-created": "Board created.",
  "board-saved": "Board saved.",
  "board-deleted": "Board deleted.",
  order: "Order saved.",
  imported: "The ticked services are monitored now.",
} as const;

/** Where the import form posts its files, and where the ticked suggestions are added. */
const IMPORT_PATH = `/settings/monitors/import`;
const ACCEPT_PATH = `/settings/monitors/import/accept`;

/** The files the import reads, as the suggestions API does. */
const IMPORT_KINDS = "package.json, package-lock.json, yarn.lock, pnpm-lock.yaml, " +
  "requirements.txt, pyproject.toml, poetry.lock, go.mod, .terraform.lock.hcl, *.tf";

function ImportSection(props: { session: WebSession; failure?: Failure }) {
  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import from your project's files</h2>
      <p class="muted">
        statusd reads the services your code depends on from{" "}
        {IMPORT_KINDS}, and suggests monitors with its reasons; you tick the ones to add. Nothing is
        added before that.
      </p>
      <ErrorNote failure={props.failure} at="import" />
      <form method="post" action={IMPORT_PATH} enctype="multipart/form-data" class="stack">
        <Csrf session={props.session} />
        <label>
          Upload files <input type="file" name="files" multiple />
        </label>
        <label>
          Or paste a file's text{" "}
          <textarea name="pasted" rows={5} cols={60} spellcheck={false}></textarea>
        </label>
        <label>
          Its name (how to read it){" "}
          <input type="text" name="pastedName" value="package.json" maxlength={255} />
        </label>
        <button type="submit">Suggest monitors</button>
      </form>
    </section>
  );
}

function ImportPage(
  props: { publicUrl: string; session: WebSession; report: SuggestionReport },
) {
  const { report } = props;
  const fresh = report.suggestions.filter((s) => s.monitorId === null).length;
  return (
    <Layout
      title="Import monitors"
      publicUrl={props.publicUrl}
      nav="monitors"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Suggested monitors</h1>
      <p>
        <a href={MONITORS_PATH}>← Settings › Monitors</a>
      </p>
      <p class="muted">
        Read: {report.files.map((f) =>
          `${f.name} (${f.packages} ${f.packages === 1 ? "package" : "packages"}, ${f.services} ${
            f.services === 1 ? "service" : "services"
          })`
        ).join("; ")}
      </p>
      {report.suggestions.length === 0
        ? <p class="notice">These files name no service of the catalog.</p>
        : (
          <form method="post" action={ACCEPT_PATH} class="stack">
            <Csrf session={props.session} />
            <fieldset>
              <legend>
                {fresh === 1 ? "1 service" : `${fresh} services`} to monitor (untick to leave out)
              </legend>
              <ul class="plain suggestions">
                {report.suggestions.map((s) => (
                  <li key={s.service}>
                    <label class="check">
                      <input
                        type="checkbox"
                        name="pick"
                        value={JSON.stringify({ service: s.service, components: s.components })}
                        checked={s.monitorId === null}
                        disabled={s.monitorId !== null}
                      />{" "}
                      <strong>{s.serviceName}</strong>
                      {s.components.length > 0 && ` (${s.components.join(", ")})`}
                      {s.monitorId !== null && " · already monitored"}
                    </label>
                    <span class="muted">: {s.reasons.join("; ")}</span>
                  </li>
                ))}
              </ul>
            </fieldset>
            {fresh > 0 && <button type="submit">Add the ticked services</button>}
          </form>
        )}
    </Layout>
  );
}

const done = (code: keyof typeof DONE) => `${MONITORS_PATH}?done=${code}`;

/** Which form an error belongs to, so it is shown next to it. */
type Place =
  | "add"
  | "import"
  | "monitors"
  | "groups"
  | "boards"
  | `group:${string}`
  | `board:${string}`;

type Failure = FormFailure<Place>;

interface PageData {
  readonly monitors: readonly MonitorView[];
  readonly groups: readonly GroupView[];
  readonly boards: readonly BoardView[];
  readonly results: readonly Service[] | null;
  readonly q: string;
}

const all = { page: 0, limit: 500 };

async function pageData(c: Context<WebEnv>, session: WebSession, q: string): Promise<PageData> {
  const app = c.get("app");
  const who = session.principal;
  const [monitors, groups, boards] = await Promise.all([
    listMonitors(app, who, all),
    listGroups(app, who, all),
    listBoards(app, who, all),
  ]);
  const results = q.trim() === ""
    ? null
    : (await listServices(app, { q: q.slice(0, 100) }, { page: 0, limit: 10 })).content;
  return {
    monitors: monitors.content,
    groups: groups.content,
    boards: boards.content,
    results,
    q,
  };
}

function monitorName(m: MonitorView): string {
  return m.label ?? m.serviceName ?? m.serviceSlug;
}

function watching(m: MonitorView): string {
  return m.components.length ? m.components.join(", ") : "the whole service";
}

function MoveButtons(
  props: { session: WebSession; action: string; item: string; name: string; i: number; n: number },
) {
  return (
    <span class="row-actions">
      {props.i > 0 && (
        <form method="post" action={props.action} class="inline">
          <Csrf session={props.session} />
          <input type="hidden" name="item" value={props.item} />
          <input type="hidden" name="dir" value="up" />
          <button type="submit" aria-label={`Move ${props.name} up`}>↑</button>
        </form>
      )}
      {props.i < props.n - 1 && (
        <form method="post" action={props.action} class="inline">
          <Csrf session={props.session} />
          <input type="hidden" name="item" value={props.item} />
          <input type="hidden" name="dir" value="down" />
          <button type="submit" aria-label={`Move ${props.name} down`}>↓</button>
        </form>
      )}
    </span>
  );
}

function AddSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
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
          ? <p class="muted">No service matches “{props.data.q}”.</p>
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

function MonitorsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
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

function GroupForm(
  props: { session: WebSession; g: GroupView; monitors: readonly MonitorView[]; failure?: Failure },
) {
  const { g } = props;
  const members = new Set(g.monitorIds);
  const ordered = g.monitors;
  return (
    <article class="card" aria-labelledby={`g-${g.id}`}>
      <h3 id={`g-${g.id}`}>{g.name}</h3>
      <ErrorNote failure={props.failure} at={`group:${g.id}`} />
      {ordered.length > 0 && (
        <ol aria-label={`Order of ${g.name}`}>
          {ordered.map((m, i) => (
            <li>
              {monitorName(m)}{" "}
              <MoveButtons
                session={props.session}
                action={`${GROUPS_PATH}/${g.id}/move`}
                item={m.id}
                name={monitorName(m)}
                i={i}
                n={ordered.length}
              />
            </li>
          ))}
        </ol>
      )}
      <form method="post" action={`${GROUPS_PATH}/${g.id}`} class="stack">
        <Csrf session={props.session} />
        <label>
          Name <input type="text" name="name" value={g.name} required maxlength={100} />
        </label>
        <fieldset>
          <legend>Monitors in {g.name}</legend>
          {props.monitors.map((m) => (
            <label class="check">
              <input type="checkbox" name="monitors" value={m.id} checked={members.has(m.id)} />
              {" "}
              {monitorName(m)}
            </label>
          ))}
        </fieldset>
        <button type="submit">Save {g.name}</button>
      </form>
      <p>
        <a class="danger" href={`${GROUPS_PATH}/${g.id}/delete`}>Delete group {g.name}</a>
      </p>
    </article>
  );
}

function GroupsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">Groups</h2>
      <p class="muted">A group reads the worst level of its monitors.</p>
      {props.data.groups.map((g) => (
        <GroupForm
          session={props.session}
          g={g}
          monitors={props.data.monitors}
          failure={props.failure}
        />
      ))}
      <h3 id="new-group-title">New group</h3>
      <form method="post" action={GROUPS_PATH} class="stack" aria-labelledby="new-group-title">
        <Csrf session={props.session} />
        <ErrorNote failure={props.failure} at="groups" />
        <label>
          New group name{" "}
          <input type="text" name="name" required maxlength={100} placeholder="e.g. Payments" />
        </label>
        <button type="submit">Create group</button>
      </form>
    </section>
  );
}

const itemKey = (i: BoardItem) => `${i.kind}:${i.id}`;

function BoardForm(
  props: { session: WebSession; b: BoardView; data: PageData; failure?: Failure },
) {
  const { b } = props;
  const chosen = new Set(b.items.map(itemKey));
  return (
    <article class="card" aria-labelledby={`b-${b.id}`}>
      <h3 id={`b-${b.id}`}>
        {b.title}{" "}
        <span class="muted">
          {b.public ? <a href={`/b/${b.slug}`}>/b/{b.slug}</a> : <>private · /b/{b.slug}</>}
        </span>
      </h3>
      <ErrorNote failure={props.failure} at={`board:${b.id}`} />
      {b.entries.length > 0 && (
        <ol aria-label={`Order of ${b.title}`}>
          {b.entries.map((e, i) => (
            <li>
              {e.kind === "group" ? `Group ${e.name}` : e.name}{" "}
              <MoveButtons
                session={props.session}
                action={`${BOARDS_PATH}/${b.id}/move`}
                item={`${e.kind}:${e.id}`}
                name={e.name}
                i={i}
                n={b.entries.length}
              />
            </li>
          ))}
        </ol>
      )}
      <form
        method="post"
        action={`${BOARDS_PATH}/${b.id}`}
        class="stack"
        enctype="multipart/form-data"
      >
        <Csrf session={props.session} />
        <label>
          Title <input type="text" name="title" value={b.title} required maxlength={200} />
        </label>
        <label>
          Description (under the title on its page){" "}
          <textarea name="description" rows={2} maxlength={1000}>{b.description ?? ""}</textarea>
        </label>
        <label>
          Accent colour{" "}
          <input type="color" name="accentColor" value={b.accentColor ?? DEFAULT_ACCENT} />
        </label>
        <label>
          Logo (PNG, JPEG or WebP, at most 100 KB; empty keeps{" "}
          {b.logo ? "the current one" : "none"}){" "}
          <input type="file" name="files" accept="image/png,image/jpeg,image/webp" />
        </label>
        {b.logo && (
          <label class="check">
            <input type="checkbox" name="removeLogo" value="yes" /> Remove the logo
          </label>
        )}
        <label class="check">
          <input type="checkbox" name="earlyWarning" value="yes" checked={b.earlyWarning} />{" "}
          Show statusd's own early warnings of these vendors on its page (its probes and reports of
          several accounts, apart from the vendors' statuses)
        </label>
        <label class="check">
          <input type="checkbox" name="public" value="yes" checked={b.public} />{" "}
          Public: anyone can read it at /b/{b.slug}
        </label>
        <fieldset>
          <legend>On {b.title}</legend>
          {props.data.groups.map((g) => (
            <label class="check">
              <input
                type="checkbox"
                name="items"
                value={`group:${g.id}`}
                checked={chosen.has(`group:${g.id}`)}
              />{" "}
              Group {g.name}
            </label>
          ))}
          {props.data.monitors.map((m) => (
            <label class="check">
              <input
                type="checkbox"
                name="items"
                value={`monitor:${m.id}`}
                checked={chosen.has(`monitor:${m.id}`)}
              />{" "}
              {monitorName(m)}
            </label>
          ))}
        </fieldset>
        <button type="submit">Save {b.title}</button>
      </form>
      <p>
        <a class="danger" href={`${BOARDS_PATH}/${b.id}/delete`}>Delete board {b.title}</a>
      </p>
    </article>
  );
}

function BoardsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  return (
    <section aria-labelledby="boards-title">
      <h2 id="boards-title">Boards</h2>
      <p class="muted">
        A board lays out groups and monitors on one page; a public one is readable by anyone at{" "}
        <code>/b/&lt;slug&gt;</code>{" "}
        with each item's level, 90 days of daily worst status and open incidents.
      </p>
      {props.data.boards.map((b) => (
        <BoardForm session={props.session} b={b} data={props.data} failure={props.failure} />
      ))}
      <h3 id="new-board-title">New board</h3>
      <form method="post" action={BOARDS_PATH} class="stack" aria-labelledby="new-board-title">
        <Csrf session={props.session} />
        <ErrorNote failure={props.failure} at="boards" />
        <label>
          Address{" "}
          <input
            type="text"
            name="slug"
            required
            maxlength={63}
            pattern="[a-z0-9][a-z0-9\-]{1,62}"
            placeholder="e.g. acme-stack"
          />
        </label>
        <label>
          Title <input type="text" name="title" required maxlength={200} />
        </label>
        <label class="check">
          <input type="checkbox" name="public" value="yes" /> Public
        </label>
        <button type="submit">Create board</button>
      </form>
    </section>
  );
}

function MonitorsPage(
  props: {
    publicUrl: string;
    session: WebSession;
    data: PageData;
    notice?: string;
    failure?: Failure;
  },
) {
  const who = props.session.principal;
  return (
    <Layout
      title="Monitors"
      publicUrl={props.publicUrl}
      nav="monitors"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Settings › Monitors</h1>
      <p class="muted">
        Account <strong>{who.account.name}</strong> · plan <strong>{who.account.plan}</strong>
        {who.account.plan === "FREE" &&
          ` · FREE accounts keep up to ${FREE_MONITOR_LIMIT} monitors and ${FREE_BOARD_LIMIT} board`}
      </p>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <AddSection session={props.session} data={props.data} failure={props.failure} />
      <ImportSection session={props.session} failure={props.failure} />
      <MonitorsSection session={props.session} data={props.data} failure={props.failure} />
      <GroupsSection session={props.session} data={props.data} failure={props.failure} />
      <BoardsSection session={props.session} data={props.data} failure={props.failure} />
    </Layout>
  );
}

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

/** `list` with `item` moved one place `dir`. */
function moved<T>(list: readonly T[], item: T, dir: string, same: (a: T, b: T) => boolean): T[] {
  const out = [...list];
  const i = out.findIndex((x) => same(x, item));
  const j = dir === "up" ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** `chosen` in the order `current` has them, new ones after. */
function keepOrder(current: readonly string[], chosen: readonly string[]): string[] {
  const want = new Set(chosen);
  return [...current.filter((x) => want.has(x)), ...chosen.filter((x) => !current.includes(x))];
}

function listOf(form: Record<string, string | string[]>, name: string): string[] {
  const v = form[name];
  return v === undefined ? [] : [v].flat();
}

function itemOf(text: string): BoardItem | null {
  const m = /^(group|monitor):(.{1,100})$/.exec(text);
  return m ? { kind: m[1] as BoardItem["kind"], id: m[2]! } : null;
}

/** The Settings > Monitors routes. */
export function monitorsPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const publicUrl = (c: Context<WebEnv>) => c.get("app").settings.publicUrl;

  /** Runs a change; on a refusal the page again (400/403) with the message at `place`. */
  const change = async (
    c: Context<WebEnv>,
    place: Place,
    run: (session: WebSession) => Promise<string>,
  ): Promise<Response> => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    try {
      return c.redirect(await run(session), 303);
    } catch (err) {
      const message = messageOf(err);
      if (message === null) throw err;
      const status = errorBody(err as AppError).status;
      return c.html(
        <MonitorsPage
          publicUrl={publicUrl(c)}
          session={session}
          data={await pageData(c, session, "")}
          failure={{ place, message }}
        />,
        status as 400 | 403 | 409 | 412,
      );
    }
  };

  web.get(MONITORS_PATH, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const code = c.req.query("done") ?? "";
    const notice = Object.hasOwn(DONE, code) ? DONE[code as keyof typeof DONE] : undefined;
    return c.html(
      <MonitorsPage
        publicUrl={publicUrl(c)}
        session={session}
        data={await pageData(c, session, c.req.query("q") ?? "")}
        notice={notice}
      />,
    );
  });

  web.post(MONITORS_PATH, webSession, (c) =>
    change(c, "add", async (session) => {
      const form = await readForm(c);
      const m = await createMonitor(c.get("app"), session.principal, {
        service: field(form, "service"),
      });
      return `${MONITORS_PATH}/${m.id}?added=1`;
    }));

  web.post(IMPORT_PATH, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const app = c.get("app");
    try {
      const { fields, files } = await readFormWithFiles(c);
      const pasted = field(fields, "pasted");
      const uploaded = files.map((f) => ({ name: f.name, content: f.content }));
      const all = pasted.trim() === "" ? uploaded : [...uploaded, {
        name: field(fields, "pastedName").trim() || "package.json",
        content: pasted,
      }];
      if (all.length === 0) {
        throw new InvalidRequest([{ parameter: "files", message: "upload or paste a file" }]);
      }
      const report = await suggestMonitors(app, session.principal, { files: all });
      return c.html(
        <ImportPage publicUrl={publicUrl(c)} session={session} report={report} />,
      );
    } catch (err) {
      const message = messageOf(err);
      if (message === null) throw err;
      return c.html(
        <MonitorsPage
          publicUrl={publicUrl(c)}
          session={session}
          data={await pageData(c, session, "")}
          failure={{ place: "import", message }}
        />,
        errorBody(err as AppError).status as 400,
      );
    }
  });

  web.post(ACCEPT_PATH, webSession, (c) =>
    change(c, "import", async (session) => {
      const form = await readForm(c);
      const picks = [form.pick ?? []].flat().slice(0, 100).map((p) => {
        try {
          return JSON.parse(p) as unknown;
        } catch {
          throw new InvalidRequest([{ parameter: "pick", message: "not a suggestion" }]);
        }
      });
      if (picks.length === 0) {
        throw new InvalidRequest([{ parameter: "pick", message: "tick at least one service" }]);
      }
      await acceptSuggestions(c.get("app"), session.principal, { monitors: picks });
      return done("imported");
    }));

  web.get(`${MONITORS_PATH}/:id`, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const app = c.get("app");
    const m = await getMonitor(app, session.principal, c.req.param("id"));
    const components = m.serviceName === null
      ? []
      : (await getService(app, m.serviceSlug)).components.map((x) => x.name);
    return c.html(
      <EditMonitorPage
        publicUrl={publicUrl(c)}
        session={session}
        m={m}
        components={components}
      />,
    );
  });

  web.post(`${MONITORS_PATH}/:id`, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const app = c.get("app");
    const id = c.req.param("id");
    const form = await readForm(c);
    const label = field(form, "label").trim();
    try {
      await updateMonitor(app, session.principal, id, {
        label: label === "" ? null : label,
        components: listOf(form, "components"),
        paused: field(form, "paused") === "yes",
      }, null);
      return c.redirect(done("saved"), 303);
    } catch (err) {
      const message = messageOf(err);
      if (message === null) throw err;
      const m = await getMonitor(app, session.principal, id);
      const components = m.serviceName === null
        ? []
        : (await getService(app, m.serviceSlug)).components.map((x) => x.name);
      return c.html(
        <EditMonitorPage
          publicUrl={publicUrl(c)}
          session={session}
          m={m}
          components={components}
          error={message}
        />,
        400,
      );
    }
  });

  // Destructive actions ask first, on a page of their own (no script needed).
  const here = { nav: "monitors", back: MONITORS_PATH } as const;
  askBeforeRemoving(web, MONITORS_PATH, here, async (app, session, id) => {
    const name = monitorName(await getMonitor(app, session.principal, id));
    return {
      title: `Remove ${name}?`,
      question: `Stop watching ${name}? Its alert rules and boards lose it.`,
      button: "Remove monitor",
    };
  });
  askBeforeRemoving(web, GROUPS_PATH, here, async (app, session, id) => {
    const g = await getGroup(app, session.principal, id);
    return {
      title: `Delete group ${g.name}?`,
      question: `Delete the group ${g.name}? Its monitors stay.`,
      button: "Delete group",
    };
  });
  askBeforeRemoving(web, BOARDS_PATH, here, async (app, session, id) => {
    const b = await getBoard(app, session.principal, id);
    return {
      title: `Delete board ${b.title}?`,
      question: `Delete the board ${b.title}? Its page /b/${b.slug}, feeds, badge and email ` +
        "subscribers' updates stop; its monitors and groups stay.",
      button: "Delete board",
    };
  });

  web.post(
    `${MONITORS_PATH}/:id/delete`,
    webSession,
    (c) =>
      change(c, "monitors", async (session) => {
        await readForm(c);
        await deleteMonitor(c.get("app"), session.principal, c.req.param("id"), null);
        return done("removed");
      }),
  );

  web.post(GROUPS_PATH, webSession, (c) =>
    change(c, "groups", async (session) => {
      const form = await readForm(c);
      await createGroup(c.get("app"), session.principal, { name: field(form, "name") });
      return done("group-created");
    }));

  web.post(
    `${GROUPS_PATH}/:id`,
    webSession,
    (c) =>
      change(c, `group:${c.req.param("id")}`, async (session) => {
        const form = await readForm(c);
        const app = c.get("app");
        const id = c.req.param("id");
        const current = (await listGroups(app, session.principal, all)).content.find((g) =>
          g.id === id
        );
        if (!current) throw new NotFound("group", id);
        await updateGroup(app, session.principal, id, {
          name: field(form, "name"),
          monitors: keepOrder(current.monitorIds, listOf(form, "monitors")),
        }, null);
        return done("group-saved");
      }),
  );

  web.post(
    `${GROUPS_PATH}/:id/move`,
    webSession,
    (c) =>
      change(c, `group:${c.req.param("id")}`, async (session) => {
        const form = await readForm(c);
        const app = c.get("app");
        const id = c.req.param("id");
        const g = (await listGroups(app, session.principal, all)).content.find((x) => x.id === id);
        if (!g) throw new NotFound("group", id);
        const order = moved(
          g.monitorIds,
          field(form, "item"),
          field(form, "dir"),
          (a, b) => a === b,
        );
        await updateGroup(app, session.principal, id, { monitors: order }, null);
        return done("order");
      }),
  );

  web.post(`${GROUPS_PATH}/:id/delete`, webSession, (c) =>
    change(c, "groups", async (session) => {
      await readForm(c);
      await deleteGroup(c.get("app"), session.principal, c.req.param("id"), null);
      return done("group-deleted");
    }));

  web.post(BOARDS_PATH, webSession, (c) =>
    change(c, "boards", async (session) => {
      const form = await readForm(c);
      await createBoard(c.get("app"), session.principal, {
        slug: field(form, "slug"),
        title: field(form, "title"),
        public: field(form, "public") === "yes",
      });
      return done("board-created");
    }));

  web.post(
    `${BOARDS_PATH}/:id`,
    webSession,
    (c) =>
      change(c, `board:${c.req.param("id")}`, async (session) => {
        const { fields: form, files } = await readFormWithFiles(c);
        const app = c.get("app");
        const id = c.req.param("id");
        const b = (await listBoards(app, session.principal, all)).content.find((x) => x.id === id);
        if (!b) throw new NotFound("board", id);
        const chosen = listOf(form, "items");
        const bad = chosen.filter((t) => itemOf(t) === null);
        if (bad.length) {
          throw new InvalidRequest([{ parameter: "items", message: `cannot read "${bad[0]}"` }]);
        }
        const order = keepOrder(b.items.map(itemKey), chosen);
        const description = field(form, "description").trim();
        const color = field(form, "accentColor");
        const upload = files[0];
        const logo = upload
          ? {
            logo: `data:${imageTypeOf(upload.bytes) ?? "application/octet-stream"};base64,${
              encodeBase64(upload.bytes)
            }`,
          }
          : field(form, "removeLogo") === "yes"
          ? { logo: null }
          : {};
        await updateBoard(app, session.principal, id, {
          title: field(form, "title"),
          public: field(form, "public") === "yes",
          earlyWarning: field(form, "earlyWarning") === "yes",
          items: order.map((t) => itemOf(t)!),
          description: description === "" ? null : description,
          // The colour picker always sends a colour: the default one is "no colour chosen".
          ...(color === "" ? {} : { accentColor: color === DEFAULT_ACCENT ? null : color }),
          ...logo,
        }, null);
        return done("board-saved");
      }),
  );

  web.post(
    `${BOARDS_PATH}/:id/move`,
    webSession,
    (c) =>
      change(c, `board:${c.req.param("id")}`, async (session) => {
        const form = await readForm(c);
        const app = c.get("app");
        const id = c.req.param("id");
        const b = (await listBoards(app, session.principal, all)).content.find((x) => x.id === id);
        if (!b) throw new NotFound("board", id);
        const order = moved(
          b.items.map(itemKey),
          field(form, "item"),
          field(form, "dir"),
          (a, b) => a === b,
        );
        await updateBoard(
          app,
          session.principal,
          id,
          { items: order.map((t) => itemOf(t)!) },
          null,
        );
        return done("order");
      }),
  );

  web.post(`${BOARDS_PATH}/:id/delete`, webSession, (c) =>
    change(c, "boards", async (session) => {
      await readForm(c);
      await deleteBoard(c.get("app"), session.principal, c.req.param("id"), null);
      return done("board-deleted");
    }));

  return web;
}

/** Mounts Settings > Monitors. */
export const registerMonitorsPages: Register = (api) => {
  api.route("/", monitorsPages());
};
