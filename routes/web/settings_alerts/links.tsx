/**
 * The pages links in messages open, each one button so a link preview changes nothing: a
 * subscription's confirm, unsubscribe (RFC 8058 one-click too) and subscribe-again links, an
 * address's confirmation, and an alert's acknowledgement.
 * @module
 */
import type { Context, Hono } from "hono";
import {
  acknowledgeByLink,
  confirmByLink,
  confirmMailByLink,
  resubscribeByLink,
  unsubscribeByLink,
} from "../../../app/mod.ts";
import { Layout } from "../layout.tsx";
import { CSRF_FIELD, formToken, readForm, type WebEnv, webSession } from "../session.ts";

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

/** Mounts the pages of subscription links, address confirmations and acknowledgements. */
export function linkPages(web: Hono<WebEnv>): void {
  const publicUrl = (c: Context<WebEnv>) => c.get("app").settings.publicUrl;
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
}
