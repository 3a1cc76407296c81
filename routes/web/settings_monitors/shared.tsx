/**
 * What the Settings › Monitors handlers share: the paths, the confirmations a redirect back
 * names, where a refusal shows, the page's data, and how a list's order changes (its buttons
 * and its rule).
 * @module
 */
import type { Context } from "hono";
import {
  type BoardView,
  type GroupView,
  listAddedVendors,
  listBoards,
  listGroups,
  listMonitors,
  listServices,
  type MonitorView,
  suggestSlugs,
  type WebSession,
} from "../../../app/mod.ts";
import type { AddedVendor, Service } from "../../../domain/mod.ts";
import { Csrf, type Failure as FormFailure, type PageAgain, type SentForm } from "../forms.tsx";
import type { WebEnv } from "../session.ts";

/** Path of the page. */
export const MONITORS_PATH = "/settings/monitors";
/** Where groups are created, saved, reordered and deleted. */
export const GROUPS_PATH = "/settings/groups";
/** Where boards are created, saved, reordered and deleted. */
export const BOARDS_PATH = "/settings/boards";

/** What a redirect back says happened (a code in `?done=`, never text from the request). */
export const DONE = {
  saved: "Monitor saved.",
  removed: "Monitor removed.",
  "group-created": "Group created.",
  "group-saved": "Group saved.",
  "group-deleted": "Group deleted.",
  "board-created": "Board created.",
  "board-saved": "Board saved.",
  "board-deleted": "Board deleted.",
  order: "Order saved.",
  imported: "The ticked services are monitored now.",
  "page-removed": "Status page removed from your account.",
} as const;

/** The page with the confirmation `code`. */
export const done = (code: keyof typeof DONE) => `${MONITORS_PATH}?done=${code}`;

/** Which form an error belongs to, so it is shown next to it. */
export type Place =
  | "add"
  | "by-url"
  | "import"
  | "monitors"
  | "groups"
  | "boards"
  | `group:${string}`
  | `board:${string}`;

/** A refusal and the form it belongs to. */
export type Failure = FormFailure<Place>;

/** Runs a form's change the one way ({@link formAction}), showing the page again on a refusal. */
export type Change = (
  c: Context<WebEnv>,
  place: Place,
  run: (session: WebSession, form: SentForm) => Promise<string | Response>,
) => Promise<Response>;

/** The page shown again with a refusal. */
export type Again = PageAgain<Place>;

/** What the page shows: the account's monitors, groups and boards, and a search's results. */
export interface PageData {
  readonly monitors: readonly MonitorView[];
  readonly groups: readonly GroupView[];
  readonly boards: readonly BoardView[];
  readonly results: readonly Service[] | null;
  readonly q: string;
  /** When a search found nothing: the slugs closest to what was typed. */
  readonly closest: readonly string[];
  /** The status pages the account added by URL. */
  readonly added: readonly AddedVendor[];
}

/** Every document of a kind the page lists. */
export const all = { page: 0, limit: 500 };

/** The page's data for `session`, with the services matching `q` (none for ""). */
export async function pageData(
  c: Context<WebEnv>,
  session: WebSession,
  q: string,
): Promise<PageData> {
  const app = c.get("app");
  const who = session.principal;
  const [monitors, groups, boards, added] = await Promise.all([
    listMonitors(app, who, all),
    listGroups(app, who, all),
    listBoards(app, who, all),
    listAddedVendors(app, who),
  ]);
  const results = q.trim() === ""
    ? null
    : (await listServices(app, { q: q.slice(0, 100), account: who.account.id }, {
      page: 0,
      limit: 10,
    })).content;
  return {
    monitors: monitors.content,
    groups: groups.content,
    boards: boards.content,
    results,
    q,
    closest: results !== null && results.length === 0
      ? await suggestSlugs(app, q.slice(0, 100))
      : [],
    added,
  };
}

/** How a monitor is called on the page. */
export function monitorName(m: MonitorView): string {
  return m.label ?? m.serviceName ?? m.serviceSlug;
}

/** `list` with `item` moved one place `dir`. */
export function moved<T>(
  list: readonly T[],
  item: T,
  dir: string,
  same: (a: T, b: T) => boolean,
): T[] {
  const out = [...list];
  const i = out.findIndex((x) => same(x, item));
  const j = dir === "up" ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** `chosen` in the order `current` has them, new ones after. */
export function keepOrder(current: readonly string[], chosen: readonly string[]): string[] {
  const want = new Set(chosen);
  return [...current.filter((x) => want.has(x)), ...chosen.filter((x) => !current.includes(x))];
}

/** The values of a repeated field. */
export function listOf(form: Record<string, string | string[]>, name: string): string[] {
  const v = form[name];
  return v === undefined ? [] : [v].flat();
}

/** The ↑ and ↓ buttons that move `item` one place in its list. */
export function MoveButtons(
  props: { session: WebSession; action: string; item: string; name: string; i: number; n: number },
) {
  return (
    <span class="row-actions">
      {props.i > 0 && (
        <form method="post" action={props.action} class="inline">
          <Csrf session={props.session} />
          <input type="hidden" name="item" value={props.item} />
          <input type="hidden" name="dir" value="up" />
          <button type="submit" aria-label={`Move ${props.name} up`}>↑</button>
        </form>
      )}
      {props.i < props.n - 1 && (
        <form method="post" action={props.action} class="inline">
          <Csrf session={props.session} />
          <input type="hidden" name="item" value={props.item} />
          <input type="hidden" name="dir" value="down" />
          <button type="submit" aria-label={`Move ${props.name} down`}>↓</button>
        </form>
      )}
    </span>
  );
}
