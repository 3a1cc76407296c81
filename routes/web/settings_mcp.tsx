/**
 * Settings > MCP: the server URL and how to connect, the OAuth applications connected to the
 * account (each can be disconnected, which ends its tokens at once), and a one-step form that
 * mints an API key scoped for headless MCP callers (through the same `createKey` verb as
 * Settings > API Keys). Works without JavaScript.
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  type ConnectedClient,
  type CreatedKey,
  createKey,
  keyCreationBlocker,
  listConnectedClients,
  MCP_PLAN,
  mcpResource,
  revokeClient,
  type WebSession,
} from "../../app/mod.ts";
import { InvalidRequest, planAtLeast, type Scope, toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { pageError } from "./auth.tsx";
import { Layout } from "./layout.tsx";
import { CSRF_FIELD, field, readForm, signedInOf, type WebEnv, webSession } from "./session.ts";

/** Path of the page. */
export const MCP_SETTINGS_PATH = "/settings/mcp";

/** Scopes of a key minted here: the MCP gate and the reads every tool needs. */
export const MCP_KEY_SCOPES: readonly Scope[] = [
  "mcp:invoke",
  "status:read",
  "incidents:read",
  "sla:read",
];

function when(t: number | null): string {
  return t === null ? "never" : toIso(t).replace("T", " ").slice(0, 16) + " UTC";
}

function ClientsTable(props: { clients: ConnectedClient[]; csrf: string }) {
  if (props.clients.length === 0) {
    return <p class="muted" id="no-clients">No application is connected.</p>;
  }
  return (
    <table id="clients" class="cards">
      <caption class="sr">Connected applications</caption>
      <thead>
        <tr>
          <th scope="col">Application</th>
          <th scope="col">Returns to</th>
          <th scope="col">Scopes</th>
          <th scope="col">Connected</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span class="sr">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.clients.map((cl) => (
          <tr>
            <td data-label="Application">{cl.name}</td>
            <td data-label="Returns to" class="labelled">{cl.redirectHosts.join(", ")}</td>
            <td data-label="Scopes" class="labelled">{cl.scopes.join(" ")}</td>
            <td data-label="Connected" class="labelled">{when(cl.connectedAt)}</td>
            <td data-label="Last used" class="labelled">{when(cl.lastUsedAt)}</td>
            <td>
              <form
                method="post"
                action={`${MCP_SETTINGS_PATH}/clients/${encodeURIComponent(cl.clientId)}/revoke`}
                class="inline"
              >
                <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
                <button type="submit">Disconnect</button>
              </form>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface PageProps {
  readonly publicUrl: string;
  readonly mcpUrl: string;
  readonly session: WebSession;
  readonly clients: ConnectedClient[];
  readonly created?: CreatedKey;
  readonly notice?: string;
  readonly error?: string;
}

function McpPage(props: PageProps) {
  const who = props.session.principal;
  const planOk = planAtLeast(who.account.plan, MCP_PLAN);
  const blocker = keyCreationBlocker(who);
  const csrf = props.session.csrfToken;
  return (
    <Layout
      title="MCP"
      publicUrl={props.publicUrl}
      nav="mcp"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Settings › MCP</h1>
      <p class="muted">
        Account <strong>{who.account.name}</strong> · plan <strong>{who.account.plan}</strong> ·
        {" "}
        <a href="/settings/api-keys">API keys</a>
      </p>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      {props.error && <p class="notice error" role="alert">{props.error}</p>}
      {!planOk && (
        <p class="notice error" id="plan">
          MCP access needs the {MCP_PLAN}{" "}
          plan or above. Connected applications and keys are refused until the account is upgraded.
        </p>
      )}

      <h2>Server URL</h2>
      <pre><code id="mcp-url">{props.mcpUrl}</code></pre>
      <button type="button" data-copy="mcp-url">Copy URL</button>
      <p>
        Streamable HTTP, protocol 2025-06-18. Add this URL to an MCP client (Claude, Cursor, VS
        Code, the MCP Inspector...): it discovers statusd's sign-in on its own, registers, and asks
        you to approve it in the browser. Manifest:{" "}
        <a href="/.well-known/mcp.json">/.well-known/mcp.json</a>.
      </p>

      <h2>Connected applications</h2>
      <ClientsTable clients={props.clients} csrf={csrf} />

      <h2>API key for headless callers</h2>
      <p>
        Scripts and agents that cannot open a browser send a key instead, as{" "}
        <code>X-API-Key: &lt;key&gt;</code> or{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>. A key made here holds{" "}
        <code>{MCP_KEY_SCOPES.join(" ")}</code> only.
      </p>
      {props.created && (
        <section class="notice" id="created">
          <p>
            <strong>Copy it now: this is the only time it is shown.</strong>
          </p>
          <pre><code id="new-key">{props.created.secret}</code></pre>
          <button type="button" data-copy="new-key">Copy key</button>
        </section>
      )}
      {blocker
        ? <p class="notice" id="cannot-create">{blocker.message}</p>
        : (
          <form method="post" action={`${MCP_SETTINGS_PATH}/keys`} class="stack">
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <label>
              Name <input type="text" name="name" required maxlength={64} value="MCP agent" />
            </label>
            <button type="submit">Create MCP key</button>
          </form>
        )}
    </Layout>
  );
}

function toSignIn(c: Context<WebEnv>): Response {
  return c.redirect(`/sign-in?next=${encodeURIComponent(MCP_SETTINGS_PATH)}`, 303);
}

/** The Settings > MCP routes. */
export function mcpSettingsPages(): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  const page = async (
    c: Context<WebEnv>,
    session: WebSession,
    extra: Partial<PageProps> = {},
  ) => {
    const ctx = c.get("app");
    return (
      <McpPage
        publicUrl={ctx.settings.publicUrl}
        mcpUrl={mcpResource(ctx)}
        session={session}
        clients={await listConnectedClients(ctx, session.principal)}
        {...extra}
      />
    );
  };

  web.get(MCP_SETTINGS_PATH, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const done = c.req.query("disconnected") === "1";
    return c.html(await page(c, session, done ? { notice: "Application disconnected." } : {}));
  });

  web.post(`${MCP_SETTINGS_PATH}/keys`, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    const form = await readForm(c);
    try {
      const created = await createKey(c.get("app"), session.principal, {
        name: field(form, "name"),
        scopes: MCP_KEY_SCOPES,
      });
      return c.html(await page(c, session, { created }), 201);
    } catch (err) {
      if (!(err instanceof InvalidRequest)) throw err;
      const error = err.issues.map((i) => `${i.parameter}: ${i.message}`).join(". ");
      return c.html(await page(c, session, { error }), 400);
    }
  });

  web.post(`${MCP_SETTINGS_PATH}/clients/:id/revoke`, webSession, async (c) => {
    const session = c.get("session");
    if (!session) return toSignIn(c);
    await readForm(c);
    await revokeClient(c.get("app"), session.principal, c.req.param("id"));
    return c.redirect(`${MCP_SETTINGS_PATH}?disconnected=1`, 303);
  });

  return web;
}

/** Mounts Settings > MCP. */
export const registerMcpSettings: Register = (api) => {
  api.route("/", mcpSettingsPages());
};
