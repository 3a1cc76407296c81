/**
 * `/b/{slug}`: a public board for people — "the status of everything our product depends on",
 * shareable with customers and support. Each entry (a group or a monitor) with its level now,
 * a 90-day bar of its worst level per UTC day, and its open incidents; a group lists its
 * monitors. A private board, or none, is the HTML 404.
 * @module
 */
import type { Context } from "hono";
import { boardBySlug, type BoardEntry, type BoardView } from "../../app/mod.ts";
import { ANONYMOUS, overlappingDays } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import type { Register } from "../register.ts";
import { Layout, type SignedIn, StatusBadge } from "./layout.tsx";
import { publicPage } from "./page_cache.ts";
import { DayBar, IncidentList, Legend, levelWords, Section, serviceHref } from "./_parts.tsx";

function Entry(props: { key?: string; e: BoardEntry; now: number }) {
  const { e, now } = props;
  const id = `entry-${e.id}`;
  return (
    <section class="board-entry" aria-labelledby={id}>
      <h2 id={id}>
        {e.name} <StatusBadge status={e.currentStatus} />
      </h2>
      <DayBar
        entries={e.history}
        incidents={overlappingDays(e.openIncidents, e.history.map((d) => d.day), now)}
        label={`${e.name}: worst level per day, last ${e.history.length} days`}
      />
      {e.kind === "group" && e.monitors.length > 0 && (
        <ul class="group-members">
          {e.monitors.map((m) => (
            <li>
              <a href={serviceHref(m.serviceSlug)}>{m.label ?? m.serviceName ?? m.serviceSlug}</a>
              {m.components.length > 0 && ` (${m.components.join(", ")})`}:{" "}
              {levelWords(m.currentStatus)}
            </li>
          ))}
        </ul>
      )}
      {e.openIncidents.length > 0 && (
        <IncidentList
          incidents={e.openIncidents}
          now={now}
          empty=""
        />
      )}
    </section>
  );
}

function BoardPage(
  props: { b: BoardView; now: number; publicUrl: string; signedIn: SignedIn | null },
) {
  const { b } = props;
  const broken = b.entries.filter((e) => e.currentStatus !== "OPERATIONAL").length;
  return (
    <Layout
      title={b.title}
      description={`${b.title}: the status of ${b.entries.length} services and groups`}
      publicUrl={props.publicUrl}
      canonicalPath={`/b/${b.slug}`}
      signedIn={props.signedIn}
    >
      <h1>{b.title}</h1>
      <p class="lead">
        <StatusBadge status={b.currentStatus} /> {b.entries.length === 0
          ? "Nothing on this board yet."
          : broken === 0
          ? "Everything on this board is operational."
          : `${broken} of ${b.entries.length} not fully operational.`}
      </p>
      <Legend />
      {b.entries.map((e) => <Entry key={e.id} e={e} now={props.now} />)}
      <Section id="board-json" title="For machines">
        <p class="muted">
          JSON: <a href={`/api/boards/${encodeURIComponent(b.slug)}`}>/api/boards/{b.slug}</a>
        </p>
      </Section>
    </Layout>
  );
}

/** The board page (private or unknown: the HTML 404). */
export async function boardPage(c: Context<Env>): Promise<Response> {
  const app = c.get("app");
  const slug = c.req.param("slug")!;
  return await publicPage(c, async (signedIn) => {
    const b = await boardBySlug(app, ANONYMOUS, slug);
    return {
      html: (
        <BoardPage
          b={b}
          now={app.clock.now()}
          publicUrl={app.settings.publicUrl}
          signedIn={signedIn}
        />
      ),
    };
  });
}

/** Mounts `/b/{slug}`. */
export const registerBoardPages: Register = (api) => {
  api.get("/b/:slug", boardPage);
};
