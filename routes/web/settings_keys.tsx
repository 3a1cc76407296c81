/**
 * Settings > API Keys: list the account's keys, create one (name + scope checkboxes; none
 * checked = all nine) and see its value exactly once, revoke one after a confirmation step.
 * Only owners on Pro or above may create; everyone else is told why. Works without JavaScript
 * (the copy button is a convenience; the key is plain selectable text).
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  type CreatedKey,
  createKey,
  keyCreationBlocker,
  type KeyView,
  listKeys,
  REVOKE_KEYS,
  revokeKey,
  roleAllows,
  type WebSession,
} from "../../app/mod.ts";
import { ALL_SCOPES, InvalidRequest, PlanRequired, SCOPES, toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { pageError } from "./auth.tsx";
import { Layout } from "./layout.tsx";
import { roleWords } from "./_parts.tsx";
import { CSRF_FIELD, field, readForm, signedInOf, type WebEnv, webSession } from "./session.ts";
import { planWords, signedIn, toSignIn } from "./forms.tsx";

/** Path of the page. */
export const KEYS_PATH = "/settings/api-keys";

function when(t: number | null): string {
  return t === null ? "never" : toIso(t).replace("T", " ").slice(0, 16) + " UTC";
}

function ScopeList(props: { k: KeyView }) {
  if (props.k.legacy) {
    return (
      <span>
        all nine <span class="muted">(made before scopes existed)</span>
      </span>
    );
  }
  if (props.k.scopes.length === ALL_SCOPES.length) return <span>all nine</span>;
  return (
    <span>
      {props.k.scopes.map((s, i) => (
        <>
          {i ? ", " : ""}
          <code>{s}</code>
        </>
      ))}
    </span>
  );
}

function KeysTable(props: { keys: KeyView[]; canRevoke: boolean }) {
  if (props.keys.length === 0) return <p class="muted">No active keys.</p>;
  return (
    <table class="cards">
      <caption class="sr">Active keys</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Key</th>
          <th scope="col">Scopes</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span class="sr">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.keys.map((k) => (
          <tr>
            <td data-label="Name">{k.name}</td>
            <td data-label="Key" class="labelled">
              <code>{k.prefix}…</code>
            </td>
            <td data-label="Scopes" class="labelled">
              <ScopeList k={k} />
            </td>
            <td data-label="Created" class="labelled">{when(k.createdAt)}</td>
            <td data-label="Last used" class="labelled">{when(k.lastUsedAt)}</td>
            <td>
              {props.canRevoke && (
                <a
                  href={`${KEYS_PATH}/${encodeURIComponent(k.id)}/revoke`}
                  aria-label={`Revoke ${k.name}`}
                >
                  Revoke…
                </a>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewKeyNotice(props: { created: CreatedKey }) {
  return (
    <section class="notice" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key “{props.created.key.name}”</h2>
      <p>
        <strong>Copy it now: this is the only time it is shown.</strong>{" "}
        statusd keeps only a hash, so nobody (not even an admin) can show it again. If you lose it,
        create a new key and revoke this one.
      </p>
      <pre><code id="new-key">{props.created.secret}</code></pre>
      <button type="button" data-copy="new-key">Copy key</button>
      <p class="muted">
        Send it as <code>X-API-Key: &lt;key&gt;</code> or{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
    </section>
  );
}

function CreateForm(props: { csrf: string; name?: string }) {
  return (
    <form method="post" action={KEYS_PATH} class="stack">
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      <label>
        Name{" "}
        <input
          type="text"
          name="name"
          required
          maxlength={64}
          value={props.name ?? ""}
          placeholder="e.g. CI pipeline"
        />
      </label>
      <fieldset>
        <legend>Scopes (leave all unchecked to grant all nine)</legend>
        {ALL_SCOPES.map((s) => (
          <label class="check">
            <input type="checkbox" name="scopes" value={s} /> <code>{s}</code>{" "}
            <span class="muted">{SCOPES[s]}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  );
}

interface PageProps {
  readonly publicUrl: string;
  readonly session: WebSession;
  readonly keys: KeyView[];
  readonly created?: CreatedKey;
  readonly notice?: string;
  readonly error?: string;
  readonly name?: string;
}

function KeysPage(props: PageProps) {
  const who = props.session.principal;
  const blocker = keyCreationBlocker(who);
  const canRevoke = roleAllows(who.member.role, REVOKE_KEYS);
  return (
    <Layout
      title="API keys"
      publicUrl={props.publicUrl}
      nav="settings"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Settings › API Keys</h1>
      <p class="muted">
        Account <strong>{who.account.name}</strong> · plan <strong>{who.account.plan}</strong>{" "}
        · you are <strong>{roleWords(who.member.role)}</strong>
      </p>
      {props.created && <NewKeyNotice created={props.created} />}
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      {props.error && <p class="notice error" role="alert">{props.error}</p>}

      <h2>Active keys</h2>
      <KeysTable keys={props.keys} canRevoke={canRevoke} />

      <h2>Create a key</h2>
      {blocker
        ? (
          <p class="notice" id="cannot-create">
            {blocker instanceof PlanRequired
              ? planWords(blocker, who.member.email)
              : blocker.message}
          </p>
        )
        : <CreateForm csrf={props.session.csrfToken} name={props.name} />}

      <h2>Rotating a key</h2>
      <ol>
        <li>Create a new key with the same scopes.</li>
        <li>Update every integration that uses the old key to send the new one.</li>
        <li>
          Revoke the old key here. Revoking takes effect at once: later requests with it get 401.
        </li>
      </ol>
      <p class="muted">
        Keys do not expire; a revoked key stays revoked. “Last used” is updated at most once a
        minute.
      </p>
    </Layout>
  );
}

function ConfirmRevokePage(props: { publicUrl: string; session: WebSession; k: KeyView }) {
  return (
    <Layout
      title="Revoke key"
      publicUrl={props.publicUrl}
      nav="settings"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Revoke “{props.k.name}”?</h1>
      <p class="notice error">
        Key <code>{props.k.prefix}…</code>{" "}
        will stop working immediately: every later request with it gets 401. This cannot be undone.
      </p>
      <form
        method="post"
        action={`${KEYS_PATH}/${encodeURIComponent(props.k.id)}/revoke`}
        class="inline"
      >
        <input type="hidden" name={CSRF_FIELD} value={props.session.csrfToken} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit">Yes, revoke this key</button>
        <a href={KEYS_PATH}>Cancel</a>
      </form>
    </Layout>
  );
}

/** The Settings > API Keys routes. */
export function keysPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const publicUrl = (c: Context<WebEnv>) => c.get("app").settings.publicUrl;

  web.get(KEYS_PATH, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const revoked = c.req.query("revoked") === "1";
    return c.html(
      <KeysPage
        publicUrl={publicUrl(c)}
        session={session}
        keys={await listKeys(c.get("app"), session.principal)}
        notice={revoked ? "Key revoked. Requests using it now get 401." : undefined}
      />,
    );
  });

  web.post(KEYS_PATH, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const form = await readForm(c);
    const app = c.get("app");
    const scopes = form.scopes === undefined ? [] : [form.scopes].flat();
    const name = field(form, "name");
    try {
      const created = await createKey(app, session.principal, { name, scopes });
      return c.html(
        <KeysPage
          publicUrl={publicUrl(c)}
          session={session}
          keys={await listKeys(app, session.principal)}
          created={created}
        />,
        201,
      );
    } catch (err) {
      if (!(err instanceof InvalidRequest)) throw err;
      return c.html(
        <KeysPage
          publicUrl={publicUrl(c)}
          session={session}
          keys={await listKeys(app, session.principal)}
          error={err.issues.map((i) => `${i.parameter}: ${i.message}`).join(". ")}
          name={name}
        />,
        400,
      );
    }
  });

  web.get(`${KEYS_PATH}/:id/revoke`, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const keys = await listKeys(c.get("app"), session.principal);
    const k = keys.find((x) => x.id === c.req.param("id"));
    if (!k) return c.redirect(KEYS_PATH, 303);
    return c.html(<ConfirmRevokePage publicUrl={publicUrl(c)} session={session} k={k} />);
  });

  web.post(`${KEYS_PATH}/:id/revoke`, webSession, async (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const form = await readForm(c);
    const id = c.req.param("id");
    if (field(form, "confirm") !== "yes") {
      return c.redirect(`${KEYS_PATH}/${encodeURIComponent(id)}/revoke`, 303);
    }
    await revokeKey(c.get("app"), session.principal, id);
    return c.redirect(`${KEYS_PATH}?revoked=1`, 303);
  });

  return web;
}

/** Mounts Settings > API Keys. */
export const registerKeysPages: Register = (api) => {
  api.route("/", keysPages());
};
