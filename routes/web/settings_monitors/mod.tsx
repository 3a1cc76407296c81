/**
 * Settings > Monitors: find a service by name and watch it, choose which of its
 * components count, group monitors, order groups and boards, and publish a board at `/b/{slug}`.
 * Plain forms (each POST carries the session's CSRF token and answers with a redirect back, or
 * the page again with the error next to the form that caused it): everything works without
 * JavaScript. The page calls the same app verbs as `/api/user/monitors|groups|boards`.
 *
 * A file per part of the page, each with its forms' handlers, over one form-action helper
 * (`formAction` in `../forms.tsx`): `monitor.tsx`, `import.tsx`, `groups.tsx`, `boards.tsx`.
 * @module
 */
import { Hono } from "hono";
import { FREE_BOARD_LIMIT, FREE_MONITOR_LIMIT, type WebSession } from "../../../app/mod.ts";
import type { Register } from "../../register.ts";
import { pageError } from "../auth.tsx";
import { Layout } from "../layout.tsx";
import { doneNotice, formAction, toSignIn } from "../forms.tsx";
import { signedInOf, type WebEnv, webSession } from "../session.ts";
import { boardActions, BoardsSection } from "./boards.tsx";
import { groupActions, GroupsSection } from "./groups.tsx";
import { importActions, ImportSection } from "./import.tsx";
import { byUrlActions, ByUrlSection } from "./by_url.tsx";
import { AddSection, monitorActions, MonitorsSection } from "./monitor.tsx";
import {
  type Again,
  type Change,
  DONE,
  type Failure,
  MONITORS_PATH,
  type PageData,
  pageData,
} from "./shared.tsx";

export { MONITORS_PATH } from "./shared.tsx";

/** The whole page: adding, importing, the monitors, the groups and the boards. */
function MonitorsPage(
  props: {
    publicUrl: string;
    session: WebSession;
    data: PageData;
    notice?: string;
    failure?: Failure;
    /** A new account's first visit: the page asks it to pick the vendors it depends on. */
    welcome?: boolean;
  },
) {
  const who = props.session.principal;
  return (
    <Layout
      title={props.welcome ? "Pick the vendors you depend on" : "Monitors"}
      publicUrl={props.publicUrl}
      nav="monitors"
      signedIn={signedInOf(props.session)}
      noindex
    >
      {props.welcome
        ? (
          <>
            <h1>Pick the vendors you depend on</h1>
            <p>
              Welcome to statusd. Find each vendor your stack depends on and add it; import them
              from your project's files; or add a status page statusd does not list by its URL.
              statusd then watches them and tells you when one breaks (Settings › Alerts).
            </p>
          </>
        )
        : <h1>Settings › Monitors</h1>}
      <p class="muted">
        Account <strong>{who.account.name}</strong> · plan <strong>{who.account.plan}</strong>
        {who.account.plan === "FREE" &&
          ` · FREE accounts keep up to ${FREE_MONITOR_LIMIT} monitors and ${FREE_BOARD_LIMIT} board`}
      </p>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <AddSection session={props.session} data={props.data} failure={props.failure} />
      <ByUrlSection session={props.session} data={props.data} failure={props.failure} />
      <ImportSection session={props.session} failure={props.failure} />
      <MonitorsSection session={props.session} data={props.data} failure={props.failure} />
      <GroupsSection session={props.session} data={props.data} failure={props.failure} />
      <BoardsSection session={props.session} data={props.data} failure={props.failure} />
    </Layout>
  );
}

/** The page again with a refusal next to its form. */
const again: Again = async (c, session, failure) => (
  <MonitorsPage
    publicUrl={c.get("app").settings.publicUrl}
    session={session}
    data={await pageData(c, session, "")}
    failure={failure}
  />
);

/** The Settings > Monitors routes. */
export function monitorsPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const change: Change = (c, place, run) => formAction(c, place, again, run);

  web.get(MONITORS_PATH, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    return c.html(
      <MonitorsPage
        publicUrl={c.get("app").settings.publicUrl}
        session={session}
        data={await pageData(c, session, c.req.query("q") ?? "")}
        notice={doneNotice(c, DONE)}
        welcome={c.req.query("welcome") === "1"}
      />,
    );
  });
  // The import's and by-url's static paths before a monitor's `/:id`.
  importActions(web, change);
  byUrlActions(web, change);
  monitorActions(web, change);
  groupActions(web, change);
  boardActions(web, change);
  return web;
}

/** Mounts Settings > Monitors. */
export const registerMonitorsPages: Register = (api) => {
  api.route("/", monitorsPages());
};
