/**
 * Settings › Alerts › Escalations: policies of up to three steps (routes, after how many
 * minutes, repeated), which rules name; add one, remove one (asked first).
 * @module
 */
import type { Hono } from "hono";
import {
  createEscalation,
  deleteEscalation,
  getEscalation,
  type WebSession,
} from "../../../app/mod.ts";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import { ALERTS_PATH, type Change, done, type Failure, type PageData } from "./shared.ts";

/** The account's escalation policies and the form that adds one. */
export function EscalationsSection(
  props: { session: WebSession; data: PageData; failure?: Failure },
) {
  const { escalations, routes } = props.data;
  const routeName = (id: string) => routes.find((r) => r.id === id)?.name ?? "(deleted)";
  if (routes.length === 0) return null;
  return (
    <section aria-labelledby="escalations-title">
      <h2 id="escalations-title">Escalation policies</h2>
      <p class="muted">
        Steps told one after the other until someone acknowledges (the link in the message) or it
        recovers.
      </p>
      <ErrorNote failure={props.failure} at="escalations" />
      {escalations.map((e) => (
        <article class="card" aria-labelledby={`e-${e.id}`}>
          <h3 id={`e-${e.id}`}>{e.name}</h3>
          <ol>
            {e.steps.map((step) => (
              <li>
                after {step.afterMinutes} min: {step.routes.map(routeName).join(", ")}
              </li>
            ))}
          </ol>
          {e.repeat > 0 && <p class="muted">repeated {e.repeat} more times</p>}
          <p>
            <a class="danger" href={`${ALERTS_PATH}/escalations/${e.id}/delete`}>
              Remove escalation {e.name}
            </a>
          </p>
        </article>
      ))}
      <h3 id="new-escalation-title">Add an escalation policy</h3>
      <form
        method="post"
        action={`${ALERTS_PATH}/escalations`}
        class="stack"
        aria-labelledby="new-escalation-title"
      >
        <Csrf session={props.session} />
        <label>
          Policy name <input type="text" name="name" required maxlength={100} />
        </label>
        {[1, 2, 3].map((n) => (
          <fieldset>
            <legend>Step {n}{n > 1 ? " (optional)" : ""}</legend>
            <label>
              Minutes after the step before{" "}
              <input
                type="number"
                name={`after${n}`}
                min={0}
                max={1440}
                value={n === 1 ? "0" : ""}
              />
            </label>
            {routes.map((r) => (
              <label class="check">
                <input type="checkbox" name={`step${n}`} value={r.id} /> {r.name}
              </label>
            ))}
          </fieldset>
        ))}
        <label>
          Repeat the steps (times) <input type="number" name="repeat" min={0} max={5} value="0" />
        </label>
        <button type="submit">Add escalation policy</button>
      </form>
    </section>
  );
}

/** Mounts adding and removing (asked first) an escalation policy. */
export function escalationActions(web: Hono<WebEnv>, change: Change): void {
  web.post(
    `${ALERTS_PATH}/escalations`,
    webSession,
    (c) =>
      change(c, "escalations", async (session, { fields: form }) => {
        const steps = [1, 2, 3].flatMap((n) => {
          const routes = form[`step${n}`] === undefined ? [] : [form[`step${n}`]!].flat();
          if (routes.length === 0) return [];
          const after = field(form, `after${n}`).trim();
          return [{ routes, afterMinutes: after === "" ? 0 : Number(after) }];
        });
        await createEscalation(c.get("app"), session.principal, {
          name: field(form, "name"),
          steps,
          repeat: Number(field(form, "repeat") || "0"),
        });
        return done("escalation-created");
      }),
  );
  askBeforeRemoving(
    web,
    `${ALERTS_PATH}/escalations`,
    { nav: "alerts", back: ALERTS_PATH },
    async (app, session, id) => {
      const { name } = await getEscalation(app, session.principal, id);
      return {
        title: `Remove escalation ${name}?`,
        question:
          `Remove the escalation ${name}? Rules that name it no longer escalate through it.`,
        button: "Remove escalation",
      };
    },
  );
  web.post(
    `${ALERTS_PATH}/escalations/:id/delete`,
    webSession,
    (c) =>
      change(c, "escalations", async (session) => {
        await deleteEscalation(c.get("app"), session.principal, c.req.param("id"), null);
        return done("escalation-deleted");
      }),
  );
}
