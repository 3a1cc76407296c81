/**
 * The status pass of the alert evaluator: a rule with a level fires when a monitor reaches it
 * (after `forMinutes`, then each escalation step at its time) and recovers under it, told only
 * where the alert reached.
 * @module
 */
import {
  type AlertMessage,
  type Change,
  escalationSchedule,
  type MonitorRecord,
  type NewDelivery,
  type RuleRecord,
  severity,
  type StatusLevel,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { acknowledgeLink } from "./escalations.ts";
import { messageFor } from "./alert_message.ts";
import { changeCause, endNotification, hash, type Outbox, toRoutes } from "./alert_outbox.ts";
import type { Round } from "./alert_round.ts";

function reached(level: StatusLevel, threshold: StatusLevel): boolean | null {
  const s = severity(level);
  return s === undefined ? null : s >= severity(threshold)!;
}

/** Per rule and subject: an alert is open, and its notification. */
export interface AlertState {
  readonly open: boolean;
  readonly notificationId: string | null;
}

/** A fired alert's deliveries: the rule's routes now, and each escalation step at its time. */
async function firing(
  ctx: AppContext,
  rule: RuleRecord,
  message: AlertMessage,
  change: Change,
  subject: string,
  at: number,
): Promise<NewDelivery[]> {
  const out = toRoutes(rule, message, changeCause(change), subject, at, false);
  const policy = rule.escalation
    ? await ctx.store.escalations.get(rule.accountId, rule.escalation)
    : null;
  if (!policy) return out;
  const withAck: AlertMessage = {
    ...message,
    links: { ...message.links, acknowledge: await acknowledgeLink(ctx, message.notificationId) },
  };
  for (const s of escalationSchedule(policy, at)) {
    for (const routeId of s.routes) {
      out.push({
        id: `dlv_${hash(rule.id, subject, change.id, routeId, "step", s.step)}`,
        accountId: rule.accountId,
        routeId,
        source: { kind: "rule", id: rule.id },
        changeId: change.id,
        notificationId: message.notificationId,
        subject,
        step: s.step + 1,
        recovery: false,
        message: withAck,
        notBefore: s.at,
        createdAt: change.at,
      });
    }
  }
  return out;
}

/** A rule's status alert about `m`: fires at its level, recovers under it (states: per round). */
export async function evaluateStatus(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  change: Change,
  out: Outbox,
  states: Map<string, AlertState>,
): Promise<void> {
  if (rule.level === null) return;
  const ctx = round.ctx;
  const now = round.now;
  const level = await round.level(m);
  const fired = reached(level, rule.level);
  if (fired === null) return; // UNKNOWN: neither fired nor recovered
  const subject = `monitor:${m.id}`;
  const key = `${rule.id}|${subject}`;
  let s = states.get(key);
  if (!s) {
    const last = await ctx.store.deliveries.latestFor(rule.id, subject);
    const open = last !== null && !last.recovery && last.state !== "cancelled";
    s = { open, notificationId: last?.notificationId ?? null };
  }
  const previous = change.kind === "status" ? change.from : null;
  if (fired && !s.open && !rule.enabled) return; // disabled: nothing new
  if (fired && !s.open) {
    const notificationId = `ntf_${hash(rule.id, subject, change.id)}`;
    const msg = await messageFor(
      round,
      { name: `rule ${rule.name}` },
      m,
      change,
      notificationId,
      "status",
      level,
      previous,
    );
    out.items.push(
      ...await firing(ctx, rule, msg, change, subject, now + rule.forMinutes * 60_000),
    );
    states.set(key, { open: true, notificationId });
    return;
  }
  if (fired || !s.open || !s.notificationId) {
    states.set(key, s);
    return;
  }
  const id = s.notificationId;
  states.set(key, { open: false, notificationId: null });
  // Told where the alert reached: each route that was attempted (or is being attempted now),
  // whatever step; what did not reach a route (a flap shorter than forMinutes, a retry still
  // waiting, a paused route, an escalation step not due) stops.
  const told = await endNotification(round, id, out);
  if (told.length === 0) return;
  const msg = await messageFor(
    round,
    { name: `rule ${rule.name}` },
    m,
    change,
    id,
    "recovered",
    level,
    previous,
  );
  const cause = changeCause(change);
  if (rule.recovery) out.items.push(...toRoutes(rule, msg, cause, subject, now, true, told));
  else {
    // No recovery to send, but the alert ended: a marker, so the next rise is a new alert
    // (without it the last trigger would read as still open, and stay silent).
    out.items.push(
      ...toRoutes(rule, msg, cause, subject, now, true, told.slice(0, 1))
        .map((x) => ({ ...x, closing: true as const })),
    );
  }
}
