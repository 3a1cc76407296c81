/**
 * The authorization endpoint (PROTOCOLS §3.6): GET checks the request and shows a consent
 * page to the signed-in person (sending them to sign in first, then back here with every
 * parameter kept); POST records Approve or Deny (CSRF-checked) and redirects to the client.
 * Unknown clients and unregistered redirect URIs get an error page, never a redirect.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  approveAuthorization,
  type AuthorizationRequest,
  checkAuthorizationRequest,
  MCP_PLAN,
  OAuthError,
  redirectWith,
  scopesFor,
} from "../../app/mod.ts";
import { planAtLeast, type Role, SCOPES } from "../../domain/mod.ts";
import { roleWords } from "../web/_parts.tsx";
import { ErrorPage, pageError } from "../web/auth.tsx";
import { Layout } from "../web/layout.tsx";
import { CSRF_FIELD, field, formToken, readForm, type WebEnv, webSession } from "../web/session.ts";

/** The request fields the consent form carries back unchanged. */
const ECHOED = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
  "resource",
] as const;

function hostOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || uri;
  } catch {
    return uri;
  }
}

interface ConsentProps {
  readonly publicUrl: string;
  readonly req: AuthorizationRequest;
  readonly fields: Readonly<Record<string, string>>;
  readonly csrf: string;
  readonly email: string;
  readonly accountName: string;
  readonly planOk: boolean;
  /** The signed-in person's role: what it may grant (app ROLE_SCOPES). */
  readonly role: Role;
}

/** One echoed request field (called as a function: hono/jsx would render a `key` attribute). */
function Hidden(props: { name: string; value: string }) {
  return <input type="hidden" name={props.name} value={props.value} />;
}

function ConsentPage(props: ConsentProps) {
  const { req } = props;
  const grantable = scopesFor(props.role, req.scopes);
  return (
    <Layout
      title="Connect an application"
      publicUrl={props.publicUrl}
      signedIn={{ email: props.email, csrf: props.csrf }}
      noindex
    >
      <h1>
        Allow <q>{req.client.name}</q> to use statusd?
      </h1>
      <p>
        Signed in as <strong>{props.email}</strong> (account {props.accountName}).
      </p>
      <p class="notice">
        The application names itself{" "}
        <q>{req.client.name}</q>; statusd cannot verify that. It will receive access at{" "}
        <strong>{hostOf(req.redirectUri)}</strong> (<code>{req.redirectUri}</code>).
      </p>
      <h2>It asks to</h2>
      <ul>
        {req.scopes.map((s) => (
          <li>
            <code>{s}</code>: {SCOPES[s]}
            {!grantable.includes(s) && (
              <strong class="not-granted">
                {` — not granted: as ${roleWords(props.role)} you cannot give it this`}
              </strong>
            )}
          </li>
        ))}
      </ul>
      {grantable.length === 0 && (
        <p class="notice error" role="alert">
          As{" "}
          {roleWords(props.role)}, you cannot grant any of what it asks for. An owner or admin of
          the account can.
        </p>
      )}
      <p class="muted">
        Access is for the MCP server at <code>{req.resource}</code>{" "}
        only. You can disconnect it any time in Settings &gt; MCP.
      </p>
      {!props.planOk && (
        <p class="notice error" role="alert">
          MCP access needs the {MCP_PLAN} plan or above; this account cannot approve it.
        </p>
      )}
      <form method="post" action="/oauth/authorize" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        {Object.entries(props.fields).map(([name, value]) => Hidden({ name, value }))}
        <p>
          {props.planOk && grantable.length > 0 && (
            <button type="submit" name="decision" value="approve">Approve</button>
          )} <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </p>
      </form>
    </Layout>
  );
}

function errorPage(c: Context<WebEnv>, message: string): Response | Promise<Response> {
  c.header("Cache-Control", "no-store");
  return c.html(
    <ErrorPage publicUrl={c.get("app").settings.publicUrl} status={400} message={message} />,
    400,
  );
}

/** The GET/POST authorization endpoint as a page router. */
export function authorizePages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);

  web.get("/oauth/authorize", webSession, async (c) => {
    const ctx = c.get("app");
    const query = c.req.query();
    const check = await checkAuthorizationRequest(ctx, query);
    if (check.kind === "page_error") return errorPage(c, check.message);
    if (check.kind === "redirect_error") {
      return c.redirect(
        redirectWith(ctx, check.redirectUri, {
          error: check.error,
          error_description: check.description,
          state: check.state,
        }),
        302,
      );
    }
    const session = c.get("session");
    if (!session) {
      const here = new URL(c.req.url);
      return c.redirect(`/sign-in?next=${encodeURIComponent(here.pathname + here.search)}`, 303);
    }
    const req = check.request;
    const fields: Record<string, string> = {};
    for (const k of ECHOED) {
      const v = k === "scope"
        ? req.scopes.join(" ")
        : k === "redirect_uri"
        ? req.redirectUri
        : query[k];
      if (v !== undefined) fields[k] = v;
    }
    // Framing is forbidden on every page (middleware/security_headers.ts): no clickjacking.
    return c.html(
      <ConsentPage
        publicUrl={ctx.settings.publicUrl}
        req={req}
        fields={fields}
        csrf={formToken(c)}
        email={session.principal.member.email}
        accountName={session.principal.account.name}
        planOk={planAtLeast(session.principal.account.plan, MCP_PLAN)}
        role={session.principal.member.role}
      />,
    );
  });

  web.post("/oauth/authorize", webSession, async (c) => {
    const ctx = c.get("app");
    const session = c.get("session");
    if (!session) return c.redirect("/sign-in", 303);
    const form = await readForm(c);
    const params: Record<string, string> = {};
    for (const k of ECHOED) {
      const v = field(form, k);
      if (v !== "") params[k] = v;
    }
    const check = await checkAuthorizationRequest(ctx, params);
    if (check.kind === "page_error") return errorPage(c, check.message);
    const back = (values: Record<string, string | null>) =>
      c.redirect(
        redirectWith(ctx, check.kind === "ok" ? check.request.redirectUri : check.redirectUri, {
          ...values,
          state: check.kind === "ok" ? check.request.state : check.state,
        }),
        302,
      );
    if (check.kind === "redirect_error") {
      return back({ error: check.error, error_description: check.description });
    }
    if (field(form, "decision") !== "approve") {
      return back({ error: "access_denied", error_description: "The user denied access" });
    }
    try {
      return back({ code: await approveAuthorization(ctx, session.principal, check.request) });
    } catch (err) {
      if (err instanceof OAuthError) {
        return back({ error: err.code, error_description: err.description });
      }
      throw err;
    }
  });

  return web;
}
