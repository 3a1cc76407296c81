/**
 * What every settings page's forms share: the CSRF field, the error note next to the form that
 * failed, the redirect to sign in, the words a refused change shows, the one way a form's
 * action runs ({@link formAction}: parse, check, redirect with a confirmation) and the page a
 * destructive action asks from first.
 * @module
 */
import type { Context, Hono } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import type { AppContext, WebSession } from "../../app/mod.ts";
import { AppError, InvalidRequest, NotFound, PlanRequired } from "../../domain/mod.ts";
import { Layout, type NavKey } from "./layout.tsx";
import { errorBody } from "../error_body.ts";
import {
  CSRF_FIELD,
  type FormFile,
  readFormWithFiles,
  signedInOf,
  type WebEnv,
  webSession,
} from "./session.ts";

/** The hidden field carrying the session's CSRF token. */
export function Csrf(props: { session: WebSession }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.session.csrfToken} />;
}

/** A form's failure: which form (`place`) and what to say. */
export interface Failure<P extends string = string> {
  readonly place: P;
  readonly message: string;
}

/** The failure's message, shown only next to the form it belongs to. */
export function ErrorNote<P extends string>(props: { failure?: Failure<P>; at: P }) {
  if (!props.failure || props.failure.place !== props.at) return null;
  return <p class="notice error" role="alert">{props.failure.message}</p>;
}

/** The signed-in person of the request, or null. */
export function signedIn(c: Context<WebEnv>): WebSession | null {
  return c.get("session");
}

/** To the sign-in page, coming back here afterwards. */
export function toSignIn(c: Context<WebEnv>): Response {
  return c.redirect(`/sign-in?next=${encodeURIComponent(new URL(c.req.url).pathname)}`, 303);
}

/** A plan refusal, and how the operator of this statusd grants the plan it needs. */
export function planWords(err: PlanRequired, email: string): string {
  return `${err.message}. The operator of this statusd grants plans with: ` +
    `deno task admin set-plan --email ${email} --plan ${err.requiredPlan}`;
}

/**
 * What a refused change says on the page (each field's issue for a 400); null for what the page
 * does not handle itself (a 404, an unexpected error: the error page shows those).
 */
export function messageOf(err: unknown): string | null {
  if (err instanceof InvalidRequest) {
    return err.issues.map((i) => `${i.parameter}: ${i.message}`).join(". ");
  }
  if (err instanceof NotFound) return null;
  if (err instanceof PlanRequired) return planWords(err, "<your email>");
  if (err instanceof AppError) return err.message;
  return null;
}

/** What a form sent: its fields (CSRF token checked) and its files. */
export interface SentForm {
  readonly fields: Record<string, string | string[]>;
  readonly files: readonly FormFile[];
}

/** A rendered page. */
type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/** How a settings page shows itself again with a refusal next to the form at its place. */
export type PageAgain<P extends string> = (
  c: Context<WebEnv>,
  session: WebSession,
  failure: Failure<P>,
) => Markup | Promise<Markup>;

/**
 * Serves a settings form's POST, the one way every settings page does: signed out, to sign in;
 * else it reads the form (its CSRF token and origin checked), runs the change and redirects (303)
 * to the path `run` resolves with — a page whose `?done=` names the confirmation — or answers
 * with the response `run` made. A refusal the page can word ({@link messageOf}: a bad field, a
 * plan, a conflict, a forged form) shows the page again (`again`) with the refusal's status and
 * the message next to the form at `place`; anything else is the error page's.
 */
export async function formAction<P extends string>(
  c: Context<WebEnv>,
  place: P,
  again: PageAgain<P>,
  run: (session: WebSession, form: SentForm) => Promise<string | Response>,
): Promise<Response> {
  const session = signedIn(c);
  if (!session) return toSignIn(c);
  try {
    const form = await readFormWithFiles(c);
    const out = await run(session, form);
    return typeof out === "string" ? c.redirect(out, 303) : out;
  } catch (err) {
    const message = messageOf(err);
    if (message === null) throw err;
    const status = errorBody(err as AppError).status as 400 | 403 | 409 | 412;
    return c.html(await again(c, session, { place, message }), status);
  }
}

/** The confirmation `?done=<code>` names, if `words` has it (a page never shows request text). */
export function doneNotice<W extends Record<string, string>>(
  c: Context<WebEnv>,
  words: W,
): string | undefined {
  const code = c.req.query("done") ?? "";
  return Object.hasOwn(words, code) ? words[code as keyof W] : undefined;
}

/**
 * The page a destructive action asks from first (no script needed): what will go, a red button
 * that does it (a POST with the session's token) and a way back that changes nothing.
 */
export function ConfirmPage(
  props: {
    publicUrl: string;
    session: WebSession;
    nav?: NavKey;
    title: string;
    question: string;
    detail?: string;
    action: string;
    button: string;
    back: string;
  },
) {
  return (
    <Layout
      title={props.title}
      publicUrl={props.publicUrl}
      nav={props.nav}
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>{props.title}</h1>
      <p>{props.question}</p>
      {props.detail && <p class="muted">{props.detail}</p>}
      <form method="post" action={props.action} class="inline">
        <Csrf session={props.session} />
        <button type="submit" class="danger">{props.button}</button> <a href={props.back}>Cancel</a>
      </form>
    </Layout>
  );
}

/** What a removal's page says: its heading, its question and its red button. */
export interface Removal {
  readonly title: string;
  readonly question: string;
  readonly button: string;
}

/**
 * Mounts `GET <prefix>/:id/delete`: the page a removal asks from first, whose form posts to the
 * same path. `ask` reads the document (another account's is the 404 it throws) and says what
 * goes; `nav` and `back` place the page among the settings.
 */
export function askBeforeRemoving(
  web: Hono<WebEnv>,
  prefix: string,
  place: { readonly nav: NavKey; readonly back: string },
  ask: (app: AppContext, session: WebSession, id: string) => Promise<Removal>,
): void {
  web.get(`${prefix}/:id/delete`, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const id = c.req.param("id")!;
    const removal = await ask(c.get("app"), session, id);
    return c.html(
      <ConfirmPage
        publicUrl={c.get("app").settings.publicUrl}
        session={session}
        nav={place.nav}
        title={removal.title}
        question={removal.question}
        action={`${prefix}/${encodeURIComponent(id)}/delete`}
        button={removal.button}
        back={place.back}
      />,
    );
  });
}
