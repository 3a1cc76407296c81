/**
 * Settings > Alerts: add the destinations alerts go to (webhook, Slack, Discord,
 * Teams, email, PagerDuty) and send each a test, write rules (what to watch, from which level,
 * for how long, with or without recovery, to which routes), resume a route statusd paused, and
 * read the latest delivered alerts with their outcome. Plain forms with the session's CSRF token,
 * as Settings > Monitors; the page calls the same verbs as `/api/user/alert-*`.
 *
 * A file per part of the page, each with its forms' handlers, over one form-action helper
 * (`formAction` in `../forms.tsx`): `alert_routes.tsx`, `rules.tsx`, `escalations.tsx`,
 * `events.tsx`; `links.tsx` serves the pages links in messages open.
 * @module
 */
import { Hono } from "hono";
import type { CreatedRoute, WebSession } from "../../../app/mod.ts";
import type { Register } from "../../register.ts";
import { pageError } from "../auth.tsx";
import { Layout } from "../layout.tsx";
import { doneNotice, formAction, toSignIn } from "../forms.tsx";
import { signedInOf, type WebEnv, webSession } from "../session.ts";
import { routeActions, RoutesSection } from "./alert_routes.tsx";
import { escalationActions, EscalationsSection } from "./escalations.tsx";
import { eventPages, EventsSection } from "./events.tsx";
import { linkPages } from "./links.tsx";
import { ruleActions, RulesSection } from "./rules.tsx";
import {
  ALERTS_PATH,
  type Change,
  DONE,
  type Failure,
  type PageData,
  pageData,
  type ShowPage,
} from "./shared.ts";

export { ALERTS_PATH } from "./shared.ts";

/** The whole page: routes, rules, escalations and recent alerts. */
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

/** The page for `session` with its confirmation, refusal or new route. */
const show: ShowPage = async (c, session, extras) => (
  <AlertsPage
    publicUrl={c.get("app").settings.publicUrl}
    session={session}
    data={await pageData(c, session)}
    {...extras}
  />
);

/** The Settings > Alerts routes. */
export function alertsPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const change: Change = (c, place, run) =>
    formAction(c, place, (c, session, failure) => show(c, session, { failure }), run);

  web.get(ALERTS_PATH, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    return c.html(await show(c, session, { notice: doneNotice(c, DONE) }));
  });
  eventPages(web);
  routeActions(web, change, show);
  ruleActions(web, change);
  escalationActions(web, change);
  linkPages(web);
  return web;
}

/** Mounts Settings > Alerts. */
export const registerAlertsPages: Register = (api) => {
  api.route("/", alertsPages());
};
