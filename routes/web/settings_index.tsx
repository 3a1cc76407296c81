/**
 * `/settings`: the index of the settings pages, with what each one is for (it was a 404). Signed
 * out, it leads to sign-in and back.
 * @module
 */
import { Hono } from "hono";
import type { Register } from "../register.ts";
import { pageError } from "./auth.tsx";
import { signedIn, toSignIn } from "./forms.tsx";
import { Layout } from "./layout.tsx";
import { roleWords } from "./_parts.tsx";
import { signedInOf, type WebEnv, webSession } from "./session.ts";

/** The settings pages, in the order the index lists them. */
export const SETTINGS_PAGES = [
  {
    href: "/settings/monitors",
    title: "Monitors",
    what: "The services your account watches, their groups, and the boards (status pages) you " +
      "publish; import them from your project's files.",
  },
  {
    href: "/settings/alerts",
    title: "Alerts",
    what: "Where statusd tells you when something breaks (Slack, Discord, Teams, webhooks, " +
      "PagerDuty, email), the rules that decide when, and the log of every delivery.",
  },
  {
    href: "/settings/api-keys",
    title: "API Keys",
    what: "Keys for scripts, CI and the status command line, each with the scopes it needs.",
  },
  {
    href: "/settings/mcp",
    title: "MCP",
    what: "Connecting AI agents: the MCP server's address and the applications you allowed.",
  },
] as const;

/** Mounts `/settings`. */
export const registerSettingsIndex: Register = (api) => {
  const web = new Hono<WebEnv>();
  web.onError(pageError);
  web.get("/settings", webSession, (c) => {
    const session = signedIn(c);
    if (!session) return toSignIn(c);
    const who = session.principal;
    return c.html(
      <Layout
        title="Settings"
        publicUrl={c.get("app").settings.publicUrl}
        signedIn={signedInOf(session)}
        noindex
      >
        <h1>Settings</h1>
        <p class="muted">
          Account <strong>{who.account.name}</strong> · plan <strong>{who.account.plan}</strong>
          {" "}
          · you are <strong>{roleWords(who.member.role)}</strong>
        </p>
        <ul class="settings-index">
          {SETTINGS_PAGES.map((p) => (
            <li key={p.href}>
              <a href={p.href}>{p.title}</a>
              <p class="muted">{p.what}</p>
            </li>
          ))}
        </ul>
      </Layout>,
    );
  });
  api.route("/", web);
};
