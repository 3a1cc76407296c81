/**
 * Settings › Monitors › Import: upload or paste a project's files, read the suggested monitors
 * with their reasons, and add the ticked ones.
 * @module
 */
import type { Hono } from "hono";
import {
  acceptSuggestions,
  type SuggestionReport,
  suggestMonitors,
  type WebSession,
} from "../../../app/mod.ts";
import { InvalidRequest } from "../../../domain/mod.ts";
import { Layout } from "../layout.tsx";
import { Csrf, ErrorNote } from "../forms.tsx";
import { field, signedInOf, type WebEnv, webSession } from "../session.ts";
import { type Change, done, type Failure, MONITORS_PATH } from "./shared.tsx";

/** Where the import form posts its files, and where the ticked suggestions are added. */
const IMPORT_PATH = `/settings/monitors/import`;
const ACCEPT_PATH = `/settings/monitors/import/accept`;

/** The files the import reads, as the suggestions API does. */
const IMPORT_KINDS = "package.json, package-lock.json, yarn.lock, pnpm-lock.yaml, " +
  "requirements.txt, pyproject.toml, poetry.lock, go.mod, .terraform.lock.hcl, *.tf";

/** The import form on Settings › Monitors. */
export function ImportSection(props: { session: WebSession; failure?: Failure }) {
  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import from your project's files</h2>
      <p class="muted">
        statusd reads the services your code depends on from{" "}
        {IMPORT_KINDS}, and suggests monitors with its reasons; you tick the ones to add. Nothing is
        added before that.
      </p>
      <ErrorNote failure={props.failure} at="import" />
      <form method="post" action={IMPORT_PATH} enctype="multipart/form-data" class="stack">
        <Csrf session={props.session} />
        <label>
          Upload files <input type="file" name="files" multiple />
        </label>
        <label>
          Or paste a file's text{" "}
          <textarea name="pasted" rows={5} cols={60} spellcheck={false}></textarea>
        </label>
        <label>
          Its name (how to read it){" "}
          <input type="text" name="pastedName" value="package.json" maxlength={255} />
        </label>
        <button type="submit">Suggest monitors</button>
      </form>
    </section>
  );
}

/** The suggestions read from the files, to tick and add. */
function ImportPage(
  props: { publicUrl: string; session: WebSession; report: SuggestionReport },
) {
  const { report } = props;
  const fresh = report.suggestions.filter((s) => s.monitorId === null).length;
  return (
    <Layout
      title="Import monitors"
      publicUrl={props.publicUrl}
      nav="monitors"
      signedIn={signedInOf(props.session)}
      noindex
    >
      <h1>Suggested monitors</h1>
      <p>
        <a href={MONITORS_PATH}>← Settings › Monitors</a>
      </p>
      <p class="muted">
        Read: {report.files.map((f) =>
          `${f.name} (${f.packages} ${f.packages === 1 ? "package" : "packages"}, ${f.services} ${
            f.services === 1 ? "service" : "services"
          })`
        ).join("; ")}
      </p>
      {report.suggestions.length === 0
        ? <p class="notice">These files name no service of the catalog.</p>
        : (
          <form method="post" action={ACCEPT_PATH} class="stack">
            <Csrf session={props.session} />
            <fieldset>
              <legend>
                {fresh === 1 ? "1 service" : `${fresh} services`} to monitor (untick to leave out)
              </legend>
              <ul class="plain suggestions">
                {report.suggestions.map((s) => (
                  <li key={s.service}>
                    <label class="check">
                      <input
                        type="checkbox"
                        name="pick"
                        value={JSON.stringify({ service: s.service, components: s.components })}
                        checked={s.monitorId === null}
                        disabled={s.monitorId !== null}
                      />{" "}
                      <strong>{s.serviceName}</strong>
                      {s.components.length > 0 && ` (${s.components.join(", ")})`}
                      {s.monitorId !== null && " · already monitored"}
                    </label>
                    <span class="muted">: {s.reasons.join("; ")}</span>
                  </li>
                ))}
              </ul>
            </fieldset>
            {fresh > 0 && <button type="submit">Add the ticked services</button>}
          </form>
        )}
    </Layout>
  );
}

/** Mounts the import's two forms: the files read, and the ticked suggestions added. */
export function importActions(web: Hono<WebEnv>, change: Change): void {
  web.post(
    IMPORT_PATH,
    webSession,
    (c) =>
      change(c, "import", async (session, { fields, files }) => {
        const pasted = field(fields, "pasted");
        const uploaded = files.map((f) => ({ name: f.name, content: f.content }));
        const all = pasted.trim() === "" ? uploaded : [...uploaded, {
          name: field(fields, "pastedName").trim() || "package.json",
          content: pasted,
        }];
        if (all.length === 0) {
          throw new InvalidRequest([{ parameter: "files", message: "upload or paste a file" }]);
        }
        const report = await suggestMonitors(c.get("app"), session.principal, { files: all });
        return c.html(
          <ImportPage
            publicUrl={c.get("app").settings.publicUrl}
            session={session}
            report={report}
          />,
        );
      }),
  );

  web.post(
    ACCEPT_PATH,
    webSession,
    (c) =>
      change(c, "import", async (session, { fields: form }) => {
        const picks = [form.pick ?? []].flat().slice(0, 100).map((p) => {
          try {
            return JSON.parse(p) as unknown;
          } catch {
            throw new InvalidRequest([{ parameter: "pick", message: "not a suggestion" }]);
          }
        });
        if (picks.length === 0) {
          throw new InvalidRequest([{ parameter: "pick", message: "tick at least one service" }]);
        }
        await acceptSuggestions(c.get("app"), session.principal, { monitors: picks });
        return done("imported");
      }),
  );
}
