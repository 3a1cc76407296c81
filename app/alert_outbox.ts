/**
 * The alert evaluator's outbox: the deliveries a pass queues (one per route, ids derived from
 * what caused them, so a replay sends nothing twice), the notifications it stops or ends, and
 * how an alert about statusd's own observation (a failing reading, an early warning) reads and
 * ends. Every pass writes through it.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import {
  type AlertMessage,
  type Change,
  type EnqueueOptions,
  type EpochMs,
  monitorLevelNow,
  type MonitorRecord,
  type NewDelivery,
  type RuleRecord,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import type { ReadingOfService, Round } from "./alert_round.ts";

/** A short stable id from `parts` (delivery and notification ids). */
export const hash = (...parts: (string | number)[]) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(parts.join("\u0000")))).slice(0, 24);

/** Settings › Alerts, where the account reads every delivery. */
export function alertsPage(ctx: AppContext): string {
  return `${ctx.settings.publicUrl}/settings/alerts`;
}

/** A rule's delivery with the link to itself in Settings › Alerts (each route's its own). */
function linked(ctx: AppContext, d: NewDelivery): NewDelivery {
  return {
    ...d,
    message: {
      ...d.message,
      links: { ...d.message.links, delivery: `${alertsPage(ctx)}/events/${d.id}` },
    },
  };
}

/**
 * What caused a rule's deliveries: the key their ids derive from (a change's id, or a failing
 * run's start), the change if one did, and when.
 */
export interface Cause {
  readonly key: string | number;
  readonly changeId: number | null;
  readonly createdAt: EpochMs;
}

/** A change as the cause of deliveries. */
export function changeCause(change: Change): Cause {
  return { key: change.id, changeId: change.id, createdAt: change.at };
}

/** Deliveries of `message` to each of the rule's routes. */
export function toRoutes(
  rule: RuleRecord,
  message: AlertMessage,
  cause: Cause,
  subject: string,
  notBefore: number,
  recovery: boolean,
  routes: readonly string[] = rule.routes,
): NewDelivery[] {
  return routes.map((routeId) => ({
    id: `dlv_${hash(rule.id, subject, cause.key, routeId, recovery ? "r" : "a")}`,
    accountId: rule.accountId,
    routeId,
    source: { kind: "rule", id: rule.id },
    changeId: cause.changeId,
    notificationId: message.notificationId,
    subject,
    step: 0,
    recovery,
    message,
    notBefore,
    createdAt: cause.createdAt,
  }));
}

/** The outbox writes of one round: deliveries to insert and notifications to stop or end. */
export class Outbox {
  readonly items: NewDelivery[] = [];
  readonly cancel: string[] = [];
  /** Notifications whose alert ended (what did not reach a route stops). */
  readonly end: string[] = [];

  /** The deliveries to insert; a rule's each link to itself (a subscriber may be no member). */
  linked(ctx: AppContext): NewDelivery[] {
    return this.items.map((d) => d.source.kind === "rule" ? linked(ctx, d) : d);
  }

  /** Drops queued deliveries matching `drop`. */
  drop(drop: (d: NewDelivery) => boolean): void {
    const kept = this.items.filter((d) => !drop(d));
    this.items.splice(0, this.items.length, ...kept);
  }
}

/**
 * Ends the alert of `notificationId`: whatever of it has not reached a route stops (queued in
 * this round, never attempted, waiting for a retry or held by a paused route), and resolves with
 * the routes it reached — attempted at least once, or being attempted now — which its recovery
 * goes to. None: nothing went anywhere, and the alert ends without a word.
 */
export async function endNotification(
  round: Round,
  notificationId: string,
  out: Outbox,
): Promise<string[]> {
  out.drop((x) => x.notificationId === notificationId && !x.recovery);
  out.end.push(notificationId);
  const reached = new Set<string>();
  for (const d of await round.ctx.store.deliveries.ofNotification(notificationId)) {
    if (d.recovery) continue;
    const inFlight = d.state === "pending" && d.claimedUntil !== null &&
      d.claimedUntil >= round.now;
    if (d.attempts > 0 || inFlight) reached.add(d.routeId);
  }
  return [...reached];
}

/**
 * Writes what a timed pass (readings, early warnings) queued and cancelled, outside the change
 * cursor, and wakes the delivery worker; resolves with how many deliveries were inserted.
 */
export async function enqueueTimed(ctx: AppContext, out: Outbox, now: EpochMs): Promise<number> {
  if (out.items.length === 0 && out.cancel.length === 0 && out.end.length === 0) return 0;
  const r = await ctx.store.deliveries.enqueue(out.linked(ctx), endings(out, now));
  if (r === "stale_cursor") return 0;
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return r.inserted;
}

/** The outbox's cancels and endings as enqueue options at `now`. */
export function endings(out: Outbox, now: EpochMs): Pick<EnqueueOptions, "cancel" | "end"> {
  return {
    ...(out.cancel.length
      ? { cancel: { notificationIds: out.cancel, state: "cancelled" as const, dueAfter: now } }
      : {}),
    ...(out.end.length ? { end: { notificationIds: out.end, at: now } } : {}),
  };
}

/**
 * What an alert about statusd's own observation of a vendor (a failing reading, an early
 * warning) says besides its trigger.
 */
export function ownAlertBase(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  service: Pick<ReadingOfService, "name" | "statusPageUrl"> | null,
): Omit<AlertMessage, "notificationId" | "trigger" | "summary" | "advice"> {
  const publicUrl = round.ctx.settings.publicUrl;
  return {
    level: "UNKNOWN",
    previousLevel: null,
    service: {
      slug: m.serviceSlug,
      name: service?.name ?? m.serviceSlug,
      vendorUrl: service?.statusPageUrl ?? `${publicUrl}/services/${m.serviceSlug}`,
      statusdUrl: `${publicUrl}/services/${m.serviceSlug}`,
    },
    components: [],
    componentsTotal: 0,
    incident: null,
    timeToResolve: null,
    links: { alerts: alertsPage(round.ctx) },
    sentBecause: `rule ${rule.name}`,
    at: round.now,
  };
}

/**
 * Ends the rule's open alert about `m` on `subject` (a failing reading, an early warning):
 * cancelled if not yet due, else followed by its recovery, saying `words` of the vendor's name.
 */
export async function endOwnAlert(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  subject: string,
  words: (name: string) => { readonly summary: string; readonly advice: string },
  out: Outbox,
): Promise<void> {
  const last = await round.ctx.store.deliveries.latestFor(rule.id, subject);
  if (last === null || last.recovery || last.state === "cancelled") return;
  // Not reached anywhere (a failure shorter than failingMinutes, a paused route): nothing went.
  const reached = await endNotification(round, last.notificationId, out);
  if (reached.length === 0) return;
  const service = await round.service(m.serviceSlug);
  const { summary, advice } = words(service?.name ?? m.serviceSlug);
  const message: AlertMessage = {
    ...ownAlertBase(round, rule, m, service),
    level: monitorLevelNow(service, m.components),
    notificationId: last.notificationId,
    trigger: "recovered",
    summary: summary.slice(0, 300),
    advice,
  };
  const cause = { key: last.notificationId, changeId: null, createdAt: round.now };
  const deliveries = toRoutes(rule, message, cause, subject, round.now, true, reached);
  out.items.push(
    ...(rule.recovery
      ? deliveries
      : deliveries.slice(0, 1).map((x) => ({ ...x, closing: true as const }))),
  );
}
