/**
 * Settings › Monitors › Groups: create a group, choose and order its monitors, rename it and
 * delete it (asked first).
 * @module
 */
import type { Hono } from "hono";
import {
  createGroup,
  deleteGroup,
  getGroup,
  type GroupView,
  listGroups,
  type MonitorView,
  updateGroup,
  type WebSession,
} from "../../../app/mod.ts";
import { NotFound } from "../../../domain/mod.ts";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import {
  all,
  type Change,
  done,
  type Failure,
  GROUPS_PATH,
  keepOrder,
  listOf,
  monitorName,
  MONITORS_PATH,
  MoveButtons,
  moved,
  type PageData,
} from "./shared.tsx";

/** One group: its order, its name and its monitors. */
function GroupForm(
  props: { session: WebSession; g: GroupView; monitors: readonly MonitorView[]; failure?: Failure },
) {
  const { g } = props;
  const members = new Set(g.monitorIds);
  const ordered = g.monitors;
  return (
    <article class="card" aria-labelledby={`g-${g.id}`}>
      <h3 id={`g-${g.id}`}>{g.name}</h3>
      <ErrorNote failure={props.failure} at={`group:${g.id}`} />
      {ordered.length > 0 && (
        <ol aria-label={`Order of ${g.name}`}>
          {ordered.map((m, i) => (
            <li>
              {monitorName(m)}{" "}
              <MoveButtons
                session={props.session}
                action={`${GROUPS_PATH}/${g.id}/move`}
                item={m.id}
                name={monitorName(m)}
                i={i}
                n={ordered.length}
              />
            </li>
          ))}
        </ol>
      )}
      <form method="post" action={`${GROUPS_PATH}/${g.id}`} class="stack">
        <Csrf session={props.session} />
        <label>
          Name <input type="text" name="name" value={g.name} required maxlength={100} />
        </label>
        <fieldset>
          <legend>Monitors in {g.name}</legend>
          {props.monitors.map((m) => (
            <label class="check">
              <input type="checkbox" name="monitors" value={m.id} checked={members.has(m.id)} />
              {" "}
              {monitorName(m)}
            </label>
          ))}
        </fieldset>
        <button type="submit">Save {g.name}</button>
      </form>
      <p>
        <a class="danger" href={`${GROUPS_PATH}/${g.id}/delete`}>Delete group {g.name}</a>
      </p>
    </article>
  );
}

/** The account's groups and the form that creates one. */
export function GroupsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">Groups</h2>
      <p class="muted">A group reads the worst level of its monitors.</p>
      {props.data.groups.map((g) => (
        <GroupForm
          session={props.session}
          g={g}
          monitors={props.data.monitors}
          failure={props.failure}
        />
      ))}
      <h3 id="new-group-title">New group</h3>
      <form method="post" action={GROUPS_PATH} class="stack" aria-labelledby="new-group-title">
        <Csrf session={props.session} />
        <ErrorNote failure={props.failure} at="groups" />
        <label>
          New group name{" "}
          <input type="text" name="name" required maxlength={100} placeholder="e.g. Payments" />
        </label>
        <button type="submit">Create group</button>
      </form>
    </section>
  );
}

/** Mounts creating, saving, reordering and deleting (asked first) a group. */
export function groupActions(web: Hono<WebEnv>, change: Change): void {
  askBeforeRemoving(
    web,
    GROUPS_PATH,
    { nav: "monitors", back: MONITORS_PATH },
    async (app, session, id) => {
      const g = await getGroup(app, session.principal, id);
      return {
        title: `Delete group ${g.name}?`,
        question: `Delete the group ${g.name}? Its monitors stay.`,
        button: "Delete group",
      };
    },
  );

  web.post(
    GROUPS_PATH,
    webSession,
    (c) =>
      change(c, "groups", async (session, { fields: form }) => {
        await createGroup(c.get("app"), session.principal, { name: field(form, "name") });
        return done("group-created");
      }),
  );

  web.post(
    `${GROUPS_PATH}/:id`,
    webSession,
    (c) =>
      change(c, `group:${c.req.param("id")}`, async (session, { fields: form }) => {
        const app = c.get("app");
        const id = c.req.param("id");
        const current = (await listGroups(app, session.principal, all)).content.find((g) =>
          g.id === id
        );
        if (!current) throw new NotFound("group", id);
        await updateGroup(app, session.principal, id, {
          name: field(form, "name"),
          monitors: keepOrder(current.monitorIds, listOf(form, "monitors")),
        }, null);
        return done("group-saved");
      }),
  );

  web.post(
    `${GROUPS_PATH}/:id/move`,
    webSession,
    (c) =>
      change(c, `group:${c.req.param("id")}`, async (session, { fields: form }) => {
        const app = c.get("app");
        const id = c.req.param("id");
        const g = (await listGroups(app, session.principal, all)).content.find((x) => x.id === id);
        if (!g) throw new NotFound("group", id);
        const order = moved(
          g.monitorIds,
          field(form, "item"),
          field(form, "dir"),
          (a, b) => a === b,
        );
        await updateGroup(app, session.principal, id, { monitors: order }, null);
        return done("order");
      }),
  );

  web.post(`${GROUPS_PATH}/:id/delete`, webSession, (c) =>
    change(c, "groups", async (session) => {
      await deleteGroup(c.get("app"), session.principal, c.req.param("id"), null);
      return done("group-deleted");
    }));
}
