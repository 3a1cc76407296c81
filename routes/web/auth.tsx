/**
 * Sign-up, sign-in and sign-out pages (server-rendered, no client-side JavaScript needed).
 * Every form carries a CSRF token; the session lives in an HttpOnly, SameSite=Lax cookie.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import {
  deviceToken,
  endSession,
  type Membership,
  MIN_PASSWORD_LENGTH,
  signIn,
  signUp,
  signUpTerms,
  startSession,
} from "../../app/mod.ts";
import {
  Busy,
  InvalidRequest,
  type Plan,
  planAtLeast,
  RateLimited,
  Unauthorized,
} from "../../domain/mod.ts";
import { retryHeaders } from "../error_body.ts";
import type { Register } from "../register.ts";
import { Layout } from "./layout.tsx";
import {
  clearSessionCookie,
  CSRF_FIELD,
  DEVICE_COOKIE,
  field,
  formToken,
  readForm,
  safeNext,
  SESSION_COOKIE,
  setDeviceCookie,
  setSessionCookie,
  type WebEnv,
  webSession,
} from "./session.ts";

/** Where people land after signing in. */
export const HOME_AFTER_SIGN_IN = "/settings/api-keys";
/** Where a new account lands: pick the vendors it depends on (search, import, add by URL). */
export const HOME_AFTER_SIGN_UP = "/settings/monitors?welcome=1";

import { pageError } from "./error_page.tsx";

export { ErrorPage, pageError } from "./error_page.tsx";

/** What a form shows for a typed error, with the status and headers of the page. */
interface FormFailure {
  readonly status: number;
  readonly message: string;
  readonly headers: Record<string, string>;
}

function failureOf(err: unknown): FormFailure | null {
  if (err instanceof InvalidRequest) {
    const message = err.issues
      .map((i) => `${i.parameter[0]!.toUpperCase()}${i.parameter.slice(1)}: ${i.message}`)
      .join(". ");
    return { status: 400, message, headers: {} };
  }
  if (err instanceof Unauthorized) return { status: 401, message: err.message, headers: {} };
  if (err instanceof RateLimited) {
    const minutes = Math.max(1, Math.ceil(err.retryAfterSeconds / 60));
    return {
      status: 429,
      message: `Too many failed sign-ins for this email. Try again in ${minutes} min.`,
      headers: retryHeaders(err),
    };
  }
  if (err instanceof Busy) {
    return {
      status: 503,
      message: "statusd is busy checking other passwords. Try again in a few seconds.",
      headers: retryHeaders(err),
    };
  }
  return null;
}

/** `path` with `?next=…` when `next` is not where people land anyway. */
function withNext(path: string, next: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (next !== HOME_AFTER_SIGN_IN && next !== HOME_AFTER_SIGN_UP) query.set("next", next);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

interface FormProps {
  readonly publicUrl: string;
  readonly csrf: string;
  readonly next: string;
  readonly email?: string;
  readonly error?: string | null;
  readonly notice?: string | null;
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
    <Layout title="Sign in" publicUrl={props.publicUrl} noindex>
      <h1>Sign in</h1>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
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
        No account yet?{" "}
        <a href={withNext("/sign-up", props.next)}>Create one</a>. Self-hosters can also run{" "}
        <code>deno task admin create-account --email you@example.com --password-stdin</code>{" "}
        (<code>statusd admin create-account …</code> with the compiled binary).
      </p>
    </Layout>
  );
}

/** What the sign-up page says a new account gets, in words (the plan the sign-up really gets). */
function planNote(plan: Plan, first: boolean): string {
  const name = plan.charAt(0) + plan.slice(1).toLowerCase();
  if (first) {
    return `This is the first account of this statusd: it becomes its operator's, on the ${name} ` +
      "plan (every feature).";
  }
  return `New accounts start on the ${name} plan.` +
    (planAtLeast(plan, "PRO") ? "" : " API keys and MCP need Pro or above.");
}

function SignUpPage(props: FormProps & { plan: Plan; first: boolean }) {
  return (
    <Layout title="Create an account" publicUrl={props.publicUrl} noindex>
      <h1>Create an account</h1>
      {props.error && <p class="notice error" role="alert">{props.error}</p>}
      <form method="post" action="/sign-up" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
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
        {planNote(props.plan, props.first)} Already have an account?{" "}
        <a href={withNext("/sign-in", props.next)}>Sign in</a>.
      </p>
    </Layout>
  );
}

/** Shown on the sign-in page after a sign-up, whether or not the email was new. */
export const AFTER_SIGN_UP_NOTICE =
  "If this email was new, its account is ready: sign in with the password you chose.";

async function beginSession(
  c: Context<WebEnv>,
  who: Membership,
  next: string,
): Promise<Response> {
  const { sessionId, expiresAt } = await startSession(c.get("app"), who);
  setSessionCookie(c, sessionId, expiresAt);
  setDeviceCookie(c, await deviceToken(c.get("app"), who.member.id));
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
    const notice = c.req.query("created") === "1" ? AFTER_SIGN_UP_NOTICE : null;
    return c.html(
      <SignInPage publicUrl={publicUrl(c)} csrf={formToken(c)} next={next} notice={notice} />,
    );
  });

  web.post("/sign-in", webSession, async (c) => {
    const form = await readForm(c);
    const next = safeNext(field(form, "next"), HOME_AFTER_SIGN_IN);
    const email = field(form, "email");
    try {
      return await beginSession(
        c,
        await signIn(c.get("app"), email, field(form, "password"), {
          device: getCookie(c, DEVICE_COOKIE)?.slice(0, 200),
        }),
        next,
      );
    } catch (err) {
      const failure = failureOf(err);
      if (failure === null) throw err;
      return c.html(
        <SignInPage
          publicUrl={publicUrl(c)}
          csrf={formToken(c)}
          next={next}
          email={email}
          error={failure.message}
        />,
        failure.status as 401,
        failure.headers,
      );
    }
  });

  web.get("/sign-up", webSession, async (c) => {
    const next = safeNext(c.req.query("next"), HOME_AFTER_SIGN_UP);
    if (c.get("session")) return c.redirect(next, 303);
    const terms = await signUpTerms(c.get("app"));
    return c.html(
      <SignUpPage publicUrl={publicUrl(c)} csrf={formToken(c)} next={next} {...terms} />,
    );
  });

  // A new account is signed in at once; a taken email is sent to sign in (see `signUp`).
  web.post("/sign-up", webSession, async (c) => {
    const form = await readForm(c);
    const next = safeNext(field(form, "next"), HOME_AFTER_SIGN_UP);
    const email = field(form, "email");
    try {
      const made = await signUp(c.get("app"), email, field(form, "password"));
      if (made !== null) return await beginSession(c, made, next);
      return c.redirect(withNext("/sign-in", next, { created: "1" }), 303);
    } catch (err) {
      const failure = failureOf(err);
      if (failure === null) throw err;
      return c.html(
        <SignUpPage
          publicUrl={publicUrl(c)}
          csrf={formToken(c)}
          next={next}
          email={email}
          error={failure.message}
          {...await signUpTerms(c.get("app"))}
        />,
        failure.status as 400,
        failure.headers,
      );
    }
  });

  web.post("/sign-out", webSession, async (c) => {
    if (c.get("session")) await readForm(c);
    await endSession(c.get("app"), getCookie(c, SESSION_COOKIE));
    clearSessionCookie(c);
    return c.redirect("/sign-in", 303);
  });

  return web;
}

/** Mounts the sign-in pages. */
export const registerAuthPages: Register = (api) => {
  api.route("/", authPages());
};
