/**
 * Sign-up, sign-in and sign-out pages (server-rendered, no client-side JavaScript needed).
 * Every form carries a CSRF token; the session lives in an HttpOnly, SameSite=Lax cookie.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import {
  endSession,
  type Membership,
  MIN_PASSWORD_LENGTH,
  signIn,
  signUp,
  startSession,
} from "../../app/mod.ts";
import { AppError, InvalidRequest, Unauthorized } from "../../domain/mod.ts";
import type { Register } from "../mod.ts";
import { errorBody } from "../errors.ts";
import { Layout } from "./layout.tsx";
import {
  clearSessionCookie,
  CSRF_FIELD,
  field,
  formToken,
  readForm,
  safeNext,
  SESSION_COOKIE,
  setSessionCookie,
  type WebEnv,
  webSession,
} from "./session.ts";

/** Where people land after signing in. */
export const HOME_AFTER_SIGN_IN = "/settings/api-keys";

/** A page showing one error (the pages' error handler). */
export function ErrorPage(props: { publicUrl: string; status: number; message: string }) {
  return (
    <Layout title="Something went wrong" publicUrl={props.publicUrl} noindex>
      <h1>{props.status === 403 ? "Not allowed" : "Something went wrong"}</h1>
      <p class="notice error" role="alert">{props.message}</p>
      <p>
        <a href="/settings/api-keys">Back to Settings</a>
      </p>
    </Layout>
  );
}

/** `onError` for page routers: typed errors become an HTML page with their status. */
export function pageError(err: Error, c: Context<WebEnv>): Response | Promise<Response> {
  if (!(err instanceof AppError)) throw err;
  const { status } = errorBody(err);
  c.header("Cache-Control", "no-store");
  return c.html(
    <ErrorPage publicUrl={c.get("app").settings.publicUrl} status={status} message={err.message} />,
    status as 400,
  );
}

function messageOf(err: unknown): string | null {
  if (err instanceof InvalidRequest) {
    return err.issues.map((i) =>
      `${i.parameter[0]!.toUpperCase()}${i.parameter.slice(1)}: ${i.message}`
    )
      .join(". ");
  }
  if (err instanceof Unauthorized) return err.message;
  return null;
}

interface FormProps {
  readonly publicUrl: string;
  readonly csrf: string;
  readonly next: string;
  readonly email?: string;
  readonly error?: string | null;
}

/** The email input both forms share (autocomplete as the account's user name). */
function EmailField(props: { value: string | undefined }) {
  return (
    <label>
      Email{" "}
      <input type="email" name="email" autocomplete="username" required value={props.value ?? ""} />
    </label>
  );
}

function SignInPage(props: FormProps) {
  return (
    <Layout title="Sign in" publicUrl={props.publicUrl} nav="settings" noindex>
      <h1>Sign in</h1>
      {props.error && <p class="notice error" role="alert">{props.error}</p>}
      <form method="post" action="/sign-in" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <EmailField value={props.email} />
        <label>
          Password{" "}
          <input type="password" name="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">
        No account yet? <a href="/sign-up">Create one</a>. Self-hosters can also run{" "}
        <code>statusd admin create-account</code>.
      </p>
    </Layout>
  );
}

function SignUpPage(props: FormProps) {
  return (
    <Layout title="Create an account" publicUrl={props.publicUrl} nav="settings" noindex>
      <h1>Create an account</h1>
      {props.error && <p class="notice error" role="alert">{props.error}</p>}
      <form method="post" action="/sign-up" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <EmailField value={props.email} />
        <label>
          Password{" "}
          <input
            type="password"
            name="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD_LENGTH}
            required
          />
        </label>
        <p class="muted">At least {MIN_PASSWORD_LENGTH} characters.</p>
        <button type="submit">Create account</button>
      </form>
      <p class="muted">
        New accounts start on the Free plan. API keys and MCP need Pro or above. Already have an
        account? <a href="/sign-in">Sign in</a>.
      </p>
    </Layout>
  );
}

function beginSession(c: Context<WebEnv>, who: Membership, next: string): Response {
  const { sessionId, expiresAt } = startSession(c.get("app"), who);
  setSessionCookie(c, sessionId, expiresAt);
  return c.redirect(next, 303);
}

/** The sign-up, sign-in and sign-out routes. */
export function authPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const publicUrl = (c: Context<WebEnv>) => c.get("app").settings.publicUrl;

  web.get("/sign-in", webSession, (c) => {
    const next = safeNext(c.req.query("next"), HOME_AFTER_SIGN_IN);
    if (c.get("session")) return c.redirect(next, 303);
    return c.html(<SignInPage publicUrl={publicUrl(c)} csrf={formToken(c)} next={next} />);
  });

  web.post("/sign-in", webSession, async (c) => {
    const form = await readForm(c);
    const next = safeNext(field(form, "next"), HOME_AFTER_SIGN_IN);
    const email = field(form, "email");
    try {
      return beginSession(c, await signIn(c.get("app"), email, field(form, "password")), next);
    } catch (err) {
      const error = messageOf(err);
      if (error === null) throw err;
      return c.html(
        <SignInPage
          publicUrl={publicUrl(c)}
          csrf={formToken(c)}
          next={next}
          email={email}
          error={error}
        />,
        401,
      );
    }
  });

  web.get("/sign-up", webSession, (c) => {
    if (c.get("session")) return c.redirect(HOME_AFTER_SIGN_IN, 303);
    return c.html(<SignUpPage publicUrl={publicUrl(c)} csrf={formToken(c)} next="" />);
  });

  web.post("/sign-up", webSession, async (c) => {
    const form = await readForm(c);
    const email = field(form, "email");
    try {
      return beginSession(
        c,
        await signUp(c.get("app"), email, field(form, "password")),
        HOME_AFTER_SIGN_IN,
      );
    } catch (err) {
      const error = messageOf(err);
      if (error === null) throw err;
      return c.html(
        <SignUpPage
          publicUrl={publicUrl(c)}
          csrf={formToken(c)}
          next=""
          email={email}
          error={error}
        />,
        400,
      );
    }
  });

  web.post("/sign-out", webSession, async (c) => {
    if (c.get("session")) await readForm(c);
    endSession(c.get("app"), getCookie(c, SESSION_COOKIE));
    clearSessionCookie(c);
    return c.redirect("/sign-in", 303);
  });

  return web;
}

/** Mounts the sign-in pages. */
export const registerAuthPages: Register = (api) => {
  api.route("/", authPages());
};
