/**
 * What the Settings › Alerts handlers share: the path, the confirmations a redirect back names,
 * where a refusal shows, and the page's data.
 * @module
 */
import type { Context } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import {
  type CreatedRoute,
  type DeliveryView,
  listBoards,
  listDeliveries,
  listEscalations,
  listGroups,
  listMonitors,
  listRoutes,
  listRules,
  type RouteView,
  type WebSession,
} from "../../../app/mod.ts";
import { type EscalationRecord, type RuleRecord, toIso } from "../../../domain/mod.ts";
import type { Failure as FormFailure, SentForm } from "../forms.tsx";
import type { WebEnv } from "../session.ts";

/** Path of the page. */
export const ALERTS_PATH = "/settings/alerts";

/** What a redirect back says happened (a code in `?done=`, never text from the request). */
export const DONE = {
  "route-created": "Route added.",
  "route-deleted": "Route removed.",
  "route-resumed": "Route resumed: its waiting alerts go now.",
  "test-queued": "Test alert queued: see it under Recent alerts.",
  "rule-created": "Rule added.",
  "rule-saved": "Rule saved.",
  "rule-deleted": "Rule removed.",
  "escalation-created": "Escalation policy added.",
  "escalation-deleted": "Escalation policy removed.",
} as const;
/** The page with the confirmation `code`. */
export const done = (code: keyof typeof DONE) => `${ALERTS_PATH}?done=${code}`;

/** Which form an error belongs to, so it is shown next to it. */
export type Place = "routes" | "rules" | "escalations";
/** A refusal and the form it belongs to. */
export type Failure = FormFailure<Place>;

/** Runs a form's change the one way (`formAction`), showing the page again on a refusal. */
export type Change = (
  c: Context<WebEnv>,
  place: Place,
  run: (session: WebSession, form: SentForm) => Promise<string | Response>,
) => Promise<Response>;

/** What the page shows besides its data: a confirmation, a refusal, a route just created. */
export interface PageExtras {
  readonly notice?: string;
  readonly failure?: Failure;
  readonly created?: CreatedRoute;
}

/** The whole page for `session`, with `extras`. */
export type ShowPage = (
  c: Context<WebEnv>,
  session: WebSession,
  extras: PageExtras,
) => Promise<HtmlEscapedString | Promise<HtmlEscapedString>>;

/** Every document of a kind the page lists. */
export const all = { page: 0, limit: 200 };

/** What the page shows: routes, rules, escalations, the latest deliveries, what rules target. */
export interface PageData {
  readonly escalations: readonly EscalationRecord[];
  readonly routes: readonly RouteView[];
  readonly rules: readonly RuleRecord[];
  readonly events: readonly DeliveryView[];
  readonly targets: readonly { value: string; label: string }[];
}

export async function pageData(c: Context<WebEnv>, session: WebSession): Promise<PageData> {
  const app = c.get("app");
  const who = session.principal;
  const [routes, rules, events, monitors, groups, boards, escalations] = await Promise.all([
    listRoutes(app, who, all),
    listRules(app, who, all),
    listDeliveries(app, who, {}, { page: 0, limit: 20 }),
    listMonitors(app, who, { page: 0, limit: 500 }),
    listGroups(app, who, all),
    listBoards(app, who, all),
    listEscalations(app, who, all),
  ]);
  return {
    escalations: escalations.content,
    routes: routes.content,
    rules: rules.content,
    events: events.content,
    targets: [
      { value: "all:", label: "All my monitors" },
      ...monitors.content.map((m) => ({
        value: `monitor:${m.id}`,
        label: `Monitor ${m.label ?? m.serviceName ?? m.serviceSlug}`,
      })),
      ...groups.content.map((g) => ({ value: `group:${g.id}`, label: `Group ${g.name}` })),
      ...boards.content.map((b) => ({ value: `board:${b.id}`, label: `Board ${b.title}` })),
    ],
  };
}

/** A time as the page writes it (minutes, UTC). */
export function when(t: number): string {
  return toIso(t)!.replace("T", " ").slice(0, 16) + " UTC";
}

/** What a rule targets, in words. */
export function targetLabel(r: RuleRecord, data: PageData): string {
  if (r.target.kind === "all") return "All my monitors";
  const value = `${r.target.kind}:${r.target.id}`;
  return data.targets.find((t) => t.value === value)?.label ?? `${r.target.kind} (deleted)`;
}
