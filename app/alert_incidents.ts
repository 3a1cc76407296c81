/**
 * The incidents pass of the alert evaluator: a rule's alerts about a vendor's incidents and
 * maintenance, one notification per incident, whose resolve follows the messages that reached
 * a route, to those routes.
 * @module
 */
import { type Change, type MonitorRecord, type RuleRecord } from "../domain/mod.ts";
import { incidentTrigger, messageFor } from "./alert_message.ts";
import { changeCause, endNotification, hash, type Outbox, toRoutes } from "./alert_outbox.ts";
import type { Round } from "./alert_round.ts";

/** A rule's alerts about incidents and maintenance: one notification per incident. */
export async function evaluateIncident(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  change: Change & { kind: "incident" },
  out: Outbox,
): Promise<void> {
  const trigger = incidentTrigger(change);
  const maintenance = trigger.startsWith("maintenance");
  if (maintenance ? !rule.maintenance : !rule.incidents) return;
  if (!rule.enabled && trigger !== "incident_resolved") return; // disabled: only endings
  // An incident's notification has its own subject: its deliveries never stand for the
  // monitor's status alert (whose recovery must resolve the status alert's key).
  const subject = `monitor:${m.id}`;
  const about = `${subject}:incident:${change.incidentId}`;
  const notificationId = `ntf_${hash(rule.id, subject, "incident", change.incidentId)}`;
  let routes = rule.routes;
  if (trigger === "incident_resolved") {
    // A resolve follows, once, the messages of the incident that reached a route, to those
    // routes; what did not reach one stops.
    const mine = out.items.filter((x) => x.notificationId === notificationId);
    if (mine.some((x) => x.recovery)) return;
    const last = await round.ctx.store.deliveries.latestFor(rule.id, about);
    if (!mine.length && (last === null || last.recovery)) return;
    routes = await endNotification(round, notificationId, out);
    if (routes.length === 0) return;
  }
  const msg = await messageFor(
    round,
    { name: `rule ${rule.name}` },
    m,
    change,
    notificationId,
    trigger,
    await round.level(m),
    null,
  );
  out.items.push(
    ...toRoutes(
      rule,
      msg,
      changeCause(change),
      about,
      round.now,
      trigger === "incident_resolved",
      routes,
    ),
  );
}
