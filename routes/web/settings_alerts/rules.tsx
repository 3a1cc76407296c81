/**
 * Settings › Alerts › Rules: what to watch, from which level, for how long, with or without
 * recovery, incidents, maintenance, early warnings and failing readings, to which routes;
 * turn a rule off and on, remove it (asked first).
 * @module
 */
import type { Hono } from "hono";
import {
  createRule,
  deleteRule,
  getRule,
  listRules,
  updateRule,
  type WebSession,
} from "../../../app/mod.ts";
import { NotFound, STATUS_LEVELS } from "../../../domain/mod.ts";
import { levelWords } from "../_parts.tsx";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import {
  ALERTS_PATH,
  all,
  type Change,
  done,
  type Failure,
  type PageData,
  targetLabel,
} from "./shared.ts";

/** The account's rules and the form that writes one. */
export function RulesSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  const { rules, routes } = props.data;
  const routeName = (id: string) => routes.find((r) => r.id === id)?.name ?? "(deleted)";
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Rules: what to watch</h2>
      <ErrorNote failure={props.failure} at="rules" />
      {rules.length === 0 ? <p class="muted">No rules yet.</p> : (
        <table class="cards">
          <caption class="sr">Alert rules</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Watches</th>
              <th scope="col">Fires</th>
              <th scope="col">Sends to</th>
              <th scope="col">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr>
                <td data-label="Rule">
                  {r.name} {!r.enabled && <span class="muted">(off)</span>}
                </td>
                <td data-label="Watches" class="labelled">{targetLabel(r, props.data)}</td>
                <td data-label="Fires" class="labelled">
                  {r.level
                    ? `${levelWords(r.level)} or worse${
                      r.forMinutes === 0 ? ", at once" : ` for ${r.forMinutes} min`
                    }`
                    : "no level"}
                  {r.incidents ? " · incidents" : ""}
                  {r.maintenance ? " · maintenance" : ""}
                  {r.recovery ? " · recovery" : ""}
                </td>
                <td data-label="Sends to" class="labelled">{r.routes.map(routeName).join(", ")}</td>
                <td class="row-actions">
                  <form method="post" action={`${ALERTS_PATH}/rules/${r.id}/toggle`} class="inline">
                    <Csrf session={props.session} />
                    <button
                      type="submit"
                      aria-label={`${r.enabled ? "Turn off" : "Turn on"} ${r.name}`}
                    >
                      {r.enabled ? "Turn off" : "Turn on"}
                    </button>
                  </form>
                  <a
                    class="danger"
                    href={`${ALERTS_PATH}/rules/${r.id}/delete`}
                    aria-label={`Remove rule ${r.name}`}
                  >
                    Remove
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {routes.length === 0 ? <p class="muted">Add a route first: a rule sends to routes.</p> : (
        <>
          <h3 id="new-rule-title">Add a rule</h3>
          <form
            method="post"
            action={`${ALERTS_PATH}/rules`}
            class="stack"
            aria-labelledby="new-rule-title"
          >
            <Csrf session={props.session} />
            <label>
              Rule name <input type="text" name="name" required maxlength={100} />
            </label>
            <label>
              Watch{" "}
              <select name="target">
                {props.data.targets.map((t) => (
                  <option key={t.value} value={t.value}>{t.label}</option>
                ))}
              </select>
            </label>
            <label>
              Fire at{" "}
              <select name="level">
                {STATUS_LEVELS.filter((l) => l !== "OPERATIONAL").map((l) => (
                  <option value={l} selected={l === "PARTIAL_OUTAGE"}>
                    {levelWords(l)} or worse
                  </option>
                ))}
                <option value="">no level (incidents or maintenance only)</option>
              </select>
            </label>
            <label>
              Lasting at least (minutes){" "}
              <input type="number" name="forMinutes" min={0} max={1440} value="0" />
            </label>
            <label>
              Also when statusd cannot read it for (minutes, empty: never){" "}
              <input type="number" name="failingMinutes" min={1} max={1440} />
            </label>
            <label class="check">
              <input type="checkbox" name="earlyWarning" value="yes" />{" "}
              Also when statusd's own checks suspect trouble before the vendor admits it
            </label>
            <label class="check">
              <input type="checkbox" name="recovery" value="yes" checked /> Tell me when it recovers
            </label>
            <label class="check">
              <input type="checkbox" name="incidents" value="yes" /> Also tell of incidents
            </label>
            <label class="check">
              <input type="checkbox" name="maintenance" value="yes" /> Also tell of maintenance
            </label>
            <fieldset>
              <legend>Send to</legend>
              {routes.map((r) => (
                <label class="check">
                  <input type="checkbox" name="routes" value={r.id} /> {r.name}
                </label>
              ))}
            </fieldset>
            <label>
              And escalate with{" "}
              <select name="escalation">
                <option value="">no escalation</option>
                {props.data.escalations.map((e) => <option key={e.id} value={e.id}>{e.name}
                </option>)}
              </select>
            </label>
            <button type="submit">Add rule</button>
          </form>
        </>
      )}
    </section>
  );
}

/** Mounts writing, turning off and on, and removing (asked first) a rule. */
export function ruleActions(web: Hono<WebEnv>, change: Change): void {
  web.post(
    `${ALERTS_PATH}/rules`,
    webSession,
    (c) =>
      change(c, "rules", async (session, { fields: form }) => {
        const [kind, id] = field(form, "target").split(":");
        const level = field(form, "level");
        const minutes = field(form, "forMinutes").trim();
        await createRule(c.get("app"), session.principal, {
          name: field(form, "name"),
          target: kind === "all" ? { kind: "all" } : { kind, id },
          level: level === "" ? null : level,
          forMinutes: minutes === "" ? 0 : Number(minutes),
          failingMinutes: field(form, "failingMinutes").trim() === ""
            ? null
            : Number(field(form, "failingMinutes")),
          escalation: field(form, "escalation") === "" ? null : field(form, "escalation"),
          earlyWarning: field(form, "earlyWarning") === "yes",
          recovery: field(form, "recovery") === "yes",
          incidents: field(form, "incidents") === "yes",
          maintenance: field(form, "maintenance") === "yes",
          routes: form.routes === undefined ? [] : [form.routes].flat(),
        });
        return done("rule-created");
      }),
  );
  web.post(
    `${ALERTS_PATH}/rules/:id/toggle`,
    webSession,
    (c) =>
      change(c, "rules", async (session) => {
        const app = c.get("app");
        const rule = (await listRules(app, session.principal, all)).content.find((r) =>
          r.id === c.req.param("id")
        );
        if (!rule) throw new NotFound("alert rule", c.req.param("id"));
        await updateRule(app, session.principal, rule.id, { enabled: !rule.enabled }, null);
        return done("rule-saved");
      }),
  );
  askBeforeRemoving(
    web,
    `${ALERTS_PATH}/rules`,
    { nav: "alerts", back: ALERTS_PATH },
    async (app, session, id) => {
      const { name } = await getRule(app, session.principal, id);
      return {
        title: `Remove rule ${name}?`,
        question:
          `Remove the rule ${name}? It queues nothing more; what it already queued still goes.`,
        button: "Remove rule",
      };
    },
  );
  web.post(
    `${ALERTS_PATH}/rules/:id/delete`,
    webSession,
    (c) =>
      change(c, "rules", async (session) => {
        await deleteRule(c.get("app"), session.principal, c.req.param("id"), null);
        return done("rule-deleted");
      }),
  );
}
