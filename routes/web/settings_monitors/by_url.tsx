/**
 * Settings › Monitors › Add a status page by URL (#47): statusd reads the page once, adds it to
 * the account and watches it (then the monitor's page, to choose its components); the account's
 * added pages, each removable (asked first).
 * @module
 */
import type { Hono } from "hono";
import {
  addVendorByUrl,
  createMonitor,
  listAddedVendors,
  listMonitors,
  removeAddedVendor,
  type WebSession,
} from "../../../app/mod.ts";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { levelWords } from "../_parts.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import { all, type Change, done, type Failure, MONITORS_PATH, type PageData } from "./shared.tsx";

/** Where the form posts, and where an added page is removed. */
const BY_URL_PATH = `${MONITORS_PATH}/by-url`;
const VENDORS_PATH = "/settings/vendors";

/** The form, and the pages the account added. */
export function ByUrlSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const { added } = props.data;
  return (
    <section aria-labelledby="by-url-title">
      <h2 id="by-url-title">Add a status page by URL</h2>
      <p class="muted">
        A vendor statusd does not list: give its status page's address. statusd reads it once
        (Statuspage, incident.io, Instatus, Better Stack, status.io, Cachet or a feed), adds it to
        your account and watches it.
      </p>
      <ErrorNote failure={props.failure} at="by-url" />
      <form method="post" action={BY_URL_PATH} class="inline">
        <Csrf session={props.session} />
        <label>
          Status page URL{" "}
          <input
            type="url"
            name="statusPageUrl"
            required
            maxlength={2048}
            placeholder="https://status.example.com"
          />
        </label>{" "}
        <button type="submit">Add and watch</button>
      </form>
      {added.length > 0 && (
        <ul class="plain" aria-label="Status pages you added">
          {added.map((v) => (
            <li>
              <a href={`/services/${v.slug}`}>{v.name}</a>{" "}
              <span class="muted">
                {levelWords(v.currentStatus)} · {v.platform} · {v.statusPageUrl}
                {v.origin === "promoted" ? " · listed for everyone" : ""}
              </span>{" "}
              <a class="danger" href={`${VENDORS_PATH}/${v.slug}/delete`}>Remove</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Mounts adding a page by URL (and watching it) and removing an added page (asked first). */
export function byUrlActions(web: Hono<WebEnv>, change: Change): void {
  web.post(BY_URL_PATH, webSession, (c) =>
    change(c, "by-url", async (session, { fields }) => {
      const app = c.get("app");
      const { vendor } = await addVendorByUrl(app, session.principal, {
        statusPageUrl: field(fields, "statusPageUrl"),
      });
      // Watched at once, unless a monitor of the whole service is there already.
      const monitors = (await listMonitors(app, session.principal, all)).content;
      const existing = monitors.find((m) =>
        m.serviceSlug === vendor.slug && m.components.length === 0
      );
      const m = existing ?? await createMonitor(app, session.principal, { service: vendor.slug });
      return `${MONITORS_PATH}/${m.id}?added=1`;
    }));

  askBeforeRemoving(
    web,
    VENDORS_PATH,
    { nav: "monitors", back: MONITORS_PATH },
    async (app, session, slug) => {
      const v = (await listAddedVendors(app, session.principal)).find((x) => x.slug === slug);
      const name = v?.name ?? slug;
      return {
        title: `Remove ${name}?`,
        question:
          `Remove the status page of ${name} from your account? Your monitors of it stay; ` +
          "statusd stops reading it once no account has it.",
        button: "Remove status page",
      };
    },
  );

  web.post(`${VENDORS_PATH}/:id/delete`, webSession, (c) =>
    change(c, "by-url", async (session) => {
      await removeAddedVendor(c.get("app"), session.principal, c.req.param("id"));
      return done("page-removed");
    }));
}
