/**
 * The alert evaluator: it turns committed changes and failing readings into
 * deliveries in the outbox.
 *
 * It works from what changed. A round reads the changes after its stored cursor. It asks the
 * store who watches the changed services (`monitors.watching`, on the `monitors_service` index)
 * and reads the rules and subscriptions of those accounts only. It reads each changed service's
 * current levels once. Its cost grows with the changes and their watchers, not with every rule
 * of every account, and a round with no change reads two rows.
 *
 * It writes what must be sent in the same transaction that moves the cursor. A crash between
 * reading and writing loses nothing. Ids derived from (rule, subject, change, route) make a
 * replay — or two instances racing on PostgreSQL (the cursor is compare-and-set) — send nothing
 * twice. Timed conditions are due-time rows, not scans: a debounce (`forMinutes`), an
 * escalation step and a reading failing for `failingMinutes` are deliveries with a `notBefore`,
 * cancelled when what caused them ends first.
 *
 * This file drives the change round and the subscriptions; each other pass has its file over
 * a small shared core (`alert_round.ts`: what a round reads; `alert_outbox.ts`: what it writes;
 * `alert_message.ts`: what a change's alert says): `alert_status.ts`, `alert_incidents.ts`,
 * `alert_readings.ts` (failing readings) and `alert_warnings.ts` (early warnings).
 * @module
 */
import {
  type AlertTrigger,
  type Change,
  componentKey,
  type MonitorRecord,
  type SubscriptionRecord,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { incidentTrigger, messageFor } from "./alert_message.ts";
import { endings, hash, Outbox } from "./alert_outbox.ts";
import { Round, watchersOf } from "./alert_round.ts";
import { evaluateIncident } from "./alert_incidents.ts";
import { type AlertState, evaluateStatus } from "./alert_status.ts";
import { unsubscribeLink } from "./subscriptions.ts";

/** The evaluator's cursor over the change log. */
export const EVALUATOR_CURSOR = "evaluator";

/** Changes read per evaluation round. */
export const BATCH = 500;

/** True when `change` concerns what `m` watches. */
function concerns(change: Change, m: MonitorRecord): boolean {
  // statusd's own early warnings are the warnings pass's (app/alert_warnings.ts), not a change
  // of the vendor's: rules opt in to them, subscriptions never hear of them.
  if (change.kind === "early_warning") return false;
  if (change.slug !== m.serviceSlug || m.paused) return false;
  if (change.kind === "incident") {
    // A monitor narrowed to components hears of an incident only when the vendor names one of
    // them, or names none (then the alert says so).
    const named = change.components ?? [];
    if (m.components.length === 0 || named.length === 0) return true;
    const watched = new Set(m.components.map(componentKey));
    return named.some((c) => watched.has(componentKey(c)));
  }
  if (m.components.length === 0) return change.component === null;
  if (change.component === null) return false;
  const key = componentKey(change.component);
  return m.components.some((c) => componentKey(c) === key);
}

/** A subscription's message about one change to one monitor. */
async function evaluateSubscription(
  round: Round,
  sub: SubscriptionRecord,
  m: MonitorRecord,
  change: Change,
  out: Outbox,
): Promise<void> {
  const trigger: AlertTrigger = change.kind === "incident" ? incidentTrigger(change) : "status";
  const notificationId = `ntf_${hash(sub.id, m.id, change.id)}`;
  const msg = await messageFor(
    round,
    { name: `subscription to ${sub.target.kind} ${sub.target.id}` },
    m,
    change,
    notificationId,
    trigger,
    await round.level(m),
    change.kind === "status" ? change.from : null,
  );
  const routeId = sub.channel.kind === "route" ? sub.channel.routeId : sub.id;
  out.items.push({
    id: `dlv_${hash(sub.id, m.id, change.id, routeId)}`,
    accountId: sub.accountId,
    routeId,
    source: { kind: "subscription", id: sub.id },
    changeId: change.id,
    notificationId,
    subject: `monitor:${m.id}`,
    step: 0,
    recovery: false,
    // A subscriber may be no member of the account: no link into its settings.
    message: { ...msg, links: { unsubscribe: unsubscribeLink(round.ctx, sub) } },
    notBefore: round.now,
    createdAt: change.at,
  });
}

/**
 * One evaluation round: the changes after the cursor (at most 500) against the rules and
 * subscriptions watching their services, written to the outbox with the cursor move. Resolves
 * with how many changes it read. The first round of a new installation starts at the newest
 * change (history is not re-alerted).
 */
export async function evaluateAlerts(ctx: AppContext): Promise<number> {
  const round = await evaluateRound(ctx);
  return round === "lost" ? 0 : round;
}

/** {@link evaluateAlerts}, telling a round another instance won ("lost") from an empty one. */
export async function evaluateRound(ctx: AppContext): Promise<number | "lost"> {
  const d = ctx.store.deliveries;
  let from = await d.cursor(EVALUATOR_CURSOR);
  if (from === null) {
    const latest = await ctx.store.changes.latestId();
    const r = await d.enqueue([], { cursor: { name: EVALUATOR_CURSOR, from: 0, to: latest } });
    if (r === "stale_cursor") return "lost";
    from = latest;
  }
  const changes = await ctx.store.changes.after(from, BATCH);
  if (changes.length === 0) return 0;
  const round = new Round(ctx);
  const watchers = await watchersOf(round, [...new Set(changes.map((c) => c.slug))]);
  const out = new Outbox();
  const states = new Map<string, AlertState>();
  for (const change of changes) {
    for (const { source: rule, monitor } of watchers.rules.get(change.slug) ?? []) {
      if (!concerns(change, monitor)) continue;
      if (change.kind === "incident") await evaluateIncident(round, rule, monitor, change, out);
      else await evaluateStatus(round, rule, monitor, change, out, states);
    }
  }
  for (const change of changes) {
    for (const { source: sub, monitor } of watchers.subscriptions.get(change.slug) ?? []) {
      if (concerns(change, monitor)) await evaluateSubscription(round, sub, monitor, change, out);
    }
  }
  const to = changes[changes.length - 1]!.id;
  const r = await d.enqueue(out.linked(ctx), {
    cursor: { name: EVALUATOR_CURSOR, from, to },
    ...endings(out, round.now),
  });
  if (r === "stale_cursor") return "lost"; // another instance took this batch
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return changes.length;
}
