/**
 * Settings › Monitors › Boards: create a board, choose and order its groups and monitors, its
 * title, description, colour and logo, make it public at `/b/{slug}`, and delete it (asked
 * first).
 * @module
 */
import type { Hono } from "hono";
import { encodeBase64 } from "@oslojs/encoding";
import {
  type BoardView,
  createBoard,
  deleteBoard,
  getBoard,
  listBoards,
  updateBoard,
  type WebSession,
} from "../../../app/mod.ts";
import { type BoardItem, imageTypeOf, InvalidRequest, NotFound } from "../../../domain/mod.ts";
import { DEFAULT_ACCENT } from "../board_page.tsx";
import { askBeforeRemoving, Csrf, ErrorNote } from "../forms.tsx";
import { field, type WebEnv, webSession } from "../session.ts";
import {
  all,
  BOARDS_PATH,
  type Change,
  done,
  type Failure,
  keepOrder,
  listOf,
  monitorName,
  MONITORS_PATH,
  MoveButtons,
  moved,
  type PageData,
} from "./shared.tsx";

/** A board item as a form value. */
const itemKey = (i: BoardItem) => `${i.kind}:${i.id}`;

/** A form value as a board item (null: not one). */
function itemOf(text: string): BoardItem | null {
  const m = /^(group|monitor):(.{1,100})$/.exec(text);
  return m ? { kind: m[1] as BoardItem["kind"], id: m[2]! } : null;
}

/** One board: its order, its page's words, colour and logo, and what is on it. */
function BoardForm(
  props: { session: WebSession; b: BoardView; data: PageData; failure?: Failure },
) {
  const { b } = props;
  const chosen = new Set(b.items.map(itemKey));
  return (
    <article class="card" aria-labelledby={`b-${b.id}`}>
      <h3 id={`b-${b.id}`}>
        {b.title}{" "}
        <span class="muted">
          {b.public ? <a href={`/b/${b.slug}`}>/b/{b.slug}</a> : <>private · /b/{b.slug}</>}
        </span>
      </h3>
      <ErrorNote failure={props.failure} at={`board:${b.id}`} />
      {b.entries.length > 0 && (
        <ol aria-label={`Order of ${b.title}`}>
          {b.entries.map((e, i) => (
            <li>
              {e.kind === "group" ? `Group ${e.name}` : e.name}{" "}
              <MoveButtons
                session={props.session}
                action={`${BOARDS_PATH}/${b.id}/move`}
                item={`${e.kind}:${e.id}`}
                name={e.name}
                i={i}
                n={b.entries.length}
              />
            </li>
          ))}
        </ol>
      )}
      <form
        method="post"
        action={`${BOARDS_PATH}/${b.id}`}
        class="stack"
        enctype="multipart/form-data"
      >
        <Csrf session={props.session} />
        <label>
          Title <input type="text" name="title" value={b.title} required maxlength={200} />
        </label>
        <label>
          Description (under the title on its page){" "}
          <textarea name="description" rows={2} maxlength={1000}>{b.description ?? ""}</textarea>
        </label>
        <label>
          Accent colour{" "}
          <input type="color" name="accentColor" value={b.accentColor ?? DEFAULT_ACCENT} />
        </label>
        <label>
          Logo (PNG, JPEG or WebP, at most 100 KB; empty keeps{" "}
          {b.logo ? "the current one" : "none"}){" "}
          <input type="file" name="files" accept="image/png,image/jpeg,image/webp" />
        </label>
        {b.logo && (
          <label class="check">
            <input type="checkbox" name="removeLogo" value="yes" /> Remove the logo
          </label>
        )}
        <label class="check">
          <input type="checkbox" name="earlyWarning" value="yes" checked={b.earlyWarning} />{" "}
          Show statusd's own early warnings of these vendors on its page (its probes and reports of
          several accounts, apart from the vendors' statuses)
        </label>
        <label class="check">
          <input type="checkbox" name="public" value="yes" checked={b.public} />{" "}
          Public: anyone can read it at /b/{b.slug}
        </label>
        <fieldset>
          <legend>On {b.title}</legend>
          {props.data.groups.map((g) => (
            <label class="check">
              <input
                type="checkbox"
                name="items"
                value={`group:${g.id}`}
                checked={chosen.has(`group:${g.id}`)}
              />{" "}
              Group {g.name}
            </label>
          ))}
          {props.data.monitors.map((m) => (
            <label class="check">
              <input
                type="checkbox"
                name="items"
                value={`monitor:${m.id}`}
                checked={chosen.has(`monitor:${m.id}`)}
              />{" "}
              {monitorName(m)}
            </label>
          ))}
        </fieldset>
        <button type="submit">Save {b.title}</button>
      </form>
      <p>
        <a class="danger" href={`${BOARDS_PATH}/${b.id}/delete`}>Delete board {b.title}</a>
      </p>
    </article>
  );
}

/** The account's boards and the form that creates one. */
export function BoardsSection(props: { session: WebSession; data: PageData; failure?: Failure }) {
  return (
    <section aria-labelledby="boards-title">
      <h2 id="boards-title">Boards</h2>
      <p class="muted">
        A board lays out groups and monitors on one page; a public one is readable by anyone at{" "}
        <code>/b/&lt;slug&gt;</code>{" "}
        with each item's level, 90 days of daily worst status and open incidents.
      </p>
      {props.data.boards.map((b) => (
        <BoardForm session={props.session} b={b} data={props.data} failure={props.failure} />
      ))}
      <h3 id="new-board-title">New board</h3>
      <form method="post" action={BOARDS_PATH} class="stack" aria-labelledby="new-board-title">
        <Csrf session={props.session} />
        <ErrorNote failure={props.failure} at="boards" />
        <label>
          Address{" "}
          <input
            type="text"
            name="slug"
            required
            maxlength={63}
            pattern="[a-z0-9][a-z0-9\-]{1,62}"
            placeholder="e.g. acme-stack"
          />
        </label>
        <label>
          Title <input type="text" name="title" required maxlength={200} />
        </label>
        <label class="check">
          <input type="checkbox" name="public" value="yes" /> Public
        </label>
        <button type="submit">Create board</button>
      </form>
    </section>
  );
}

/** Mounts creating, saving, reordering and deleting (asked first) a board. */
export function boardActions(web: Hono<WebEnv>, change: Change): void {
  askBeforeRemoving(
    web,
    BOARDS_PATH,
    { nav: "monitors", back: MONITORS_PATH },
    async (app, session, id) => {
      const b = await getBoard(app, session.principal, id);
      return {
        title: `Delete board ${b.title}?`,
        question: `Delete the board ${b.title}? Its page /b/${b.slug}, feeds, badge and email ` +
          "subscribers' updates stop; its monitors and groups stay.",
        button: "Delete board",
      };
    },
  );

  web.post(
    BOARDS_PATH,
    webSession,
    (c) =>
      change(c, "boards", async (session, { fields: form }) => {
        await createBoard(c.get("app"), session.principal, {
          slug: field(form, "slug"),
          title: field(form, "title"),
          public: field(form, "public") === "yes",
        });
        return done("board-created");
      }),
  );

  web.post(
    `${BOARDS_PATH}/:id`,
    webSession,
    (c) =>
      change(c, `board:${c.req.param("id")}`, async (session, { fields: form, files }) => {
        const app = c.get("app");
        const id = c.req.param("id");
        const b = (await listBoards(app, session.principal, all)).content.find((x) => x.id === id);
        if (!b) throw new NotFound("board", id);
        const chosen = listOf(form, "items");
        const bad = chosen.filter((t) => itemOf(t) === null);
        if (bad.length) {
          throw new InvalidRequest([{ parameter: "items", message: `cannot read "${bad[0]}"` }]);
        }
        const order = keepOrder(b.items.map(itemKey), chosen);
        const description = field(form, "description").trim();
        const color = field(form, "accentColor");
        const upload = files[0];
        const logo = upload
          ? {
            logo: `data:${imageTypeOf(upload.bytes) ?? "application/octet-stream"};base64,${
              encodeBase64(upload.bytes)
            }`,
          }
          : field(form, "removeLogo") === "yes"
          ? { logo: null }
          : {};
        await updateBoard(app, session.principal, id, {
          title: field(form, "title"),
          public: field(form, "public") === "yes",
          earlyWarning: field(form, "earlyWarning") === "yes",
          items: order.map((t) => itemOf(t)!),
          description: description === "" ? null : description,
          // The colour picker always sends a colour: the default one is "no colour chosen".
          ...(color === "" ? {} : { accentColor: color === DEFAULT_ACCENT ? null : color }),
          ...logo,
        }, null);
        return done("board-saved");
      }),
  );

  web.post(
    `${BOARDS_PATH}/:id/move`,
    webSession,
    (c) =>
      change(c, `board:${c.req.param("id")}`, async (session, { fields: form }) => {
        const app = c.get("app");
        const id = c.req.param("id");
        const b = (await listBoards(app, session.principal, all)).content.find((x) => x.id === id);
        if (!b) throw new NotFound("board", id);
        const order = moved(
          b.items.map(itemKey),
          field(form, "item"),
          field(form, "dir"),
          (a, b) => a === b,
        );
        await updateBoard(
          app,
          session.principal,
          id,
          { items: order.map((t) => itemOf(t)!) },
          null,
        );
        return done("order");
      }),
  );

  web.post(`${BOARDS_PATH}/:id/delete`, webSession, (c) =>
    change(c, "boards", async (session) => {
      await deleteBoard(c.get("app"), session.principal, c.req.param("id"), null);
      return done("board-deleted");
    }));
}
