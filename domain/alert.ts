/**
 * Alerting: what an alert says, where it goes and what became of it. The records of
 * routes, rules, escalation policies and subscriptions are account documents (see
 * `domain/store/boards.ts`, kinds `route`, `rule`, `escalation`, `subscription`); deliveries are
 * the durable outbox (`domain/store/deliveries.ts`). Channels render an {@link AlertMessage} into
 * what they send (`outbound/channels/`); a worker does the I/O (`outbound/worker.ts`).
 * @module
 */
import type { Impact, IncidentStatus } from "./incident.ts";
import type { StatusLevel } from "./status.ts";
import type { EpochMs } from "./time.ts";

/** The destinations statusd can deliver to. */
export const CHANNEL_KINDS = [
  "webhook",
  "slack",
  "discord",
  "teams",
  "email",
  "pagerduty",
] as const;
/** One destination kind. */
export type ChannelKind = typeof CHANNEL_KINDS[number];

/** What made an alert: the change it reports, or why statusd itself writes. */
export type AlertTrigger =
  /** A watched service or component reached a level (see `level`, `previousLevel`). */
  | "status"
  | "incident_opened"
  | "incident_updated"
  | "incident_resolved"
  | "maintenance_scheduled"
  | "maintenance_started"
  | "maintenance_completed"
  /** statusd has failed to read a watched vendor for the rule's minutes. */
  | "reading_failing"
  /**
   * statusd's own probes of a watched vendor's endpoints, or members' reports, see trouble the
   * vendor has not admitted (its early warning): statusd's observation, not the vendor's.
   */
  | "early_warning"
  /** What an earlier alert of the same notification reported is over. */
  | "recovered"
  /** "Send test" on a route. */
  | "test"
  /** A message from statusd about the account's alerting (confirm a subscription, a paused route). */
  | "notice";

/** Typical time to resolve an incident of this impact at this vendor, from stored history. */
export interface AlertTimeToResolve {
  readonly impact: Impact;
  readonly p50Minutes: number;
  readonly p90Minutes: number;
  /** How many resolved incidents the figures come from. */
  readonly sample: number;
}

/**
 * What an alert says, complete: channels render only from this (no store reads at send time), so
 * a retry a day later says exactly what the first attempt said. Texts are already bounded by the
 * producer; channels still cut to their platform's limits.
 */
export interface AlertMessage {
  /** The notification this message belongs to: steps, repeats and the recovery share it (PagerDuty `dedup_key`). */
  readonly notificationId: string;
  readonly trigger: AlertTrigger;
  /** One line for subjects, titles and PagerDuty `summary`, e.g. "GitHub has a major outage". */
  readonly summary: string;
  /** The level now (for incidents, the service's level when it was written). */
  readonly level: StatusLevel;
  readonly previousLevel: StatusLevel | null;
  /** The vendor, or null for notices and tests not about one. */
  readonly service: {
    readonly slug: string;
    readonly name: string;
    /** The vendor's own status page. */
    readonly vendorUrl: string;
    /** statusd's page for it (absolute, from STATUSD_PUBLIC_URL). */
    readonly statusdUrl: string;
  } | null;
  /**
   * The components concerned, worst first (empty: the service as a whole), at most
   * `ALERT_COMPONENTS_SHOWN` of them.
   */
  readonly components: readonly { readonly name: string; readonly level: StatusLevel }[];
  /** How many components are concerned in all (`components` may list fewer). */
  readonly componentsTotal: number;
  readonly incident: {
    readonly id: string;
    readonly title: string;
    readonly status: IncidentStatus;
    readonly impact: Impact;
    readonly latestUpdate: string | null;
    readonly url: string | null;
    /** The components the vendor said it affects; empty: it named none. */
    readonly components?: readonly string[];
  } | null;
  /** What readers can expect (null when history has too few incidents of this impact). */
  readonly timeToResolve: AlertTimeToResolve | null;
  /** What the reader should do next, one or two sentences. */
  readonly advice: string;
  /**
   * Links besides the vendor's and statusd's pages (in `service`) and the vendor's incident page
   * (in `incident`): acknowledge (escalations; signed), unsubscribe (subscriptions), confirm,
   * `alerts`, where the account reads every delivery (Settings › Alerts), and `delivery`, this
   * very delivery there (its attempts and state).
   */
  readonly links: {
    readonly alerts?: string;
    readonly delivery?: string;
    readonly acknowledge?: string;
    readonly unsubscribe?: string;
    readonly confirm?: string;
  };
  /** The name of the rule, subscription or route that sent it, for the footer. */
  readonly sentBecause: string;
  readonly at: EpochMs;
}

/** Every state a delivery can be in. */
export const DELIVERY_STATES = [
  "pending",
  "delivered",
  "failed",
  "acknowledged",
  "cancelled",
] as const;
/** Where a delivery stands. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One try at delivering, as shown to the owner. */
export interface DeliveryAttempt {
  readonly n: number;
  readonly at: EpochMs;
  readonly ok: boolean;
  /** HTTP status, or the SMTP reply code. */
  readonly status: number | null;
  /** The start of the receiver's answer or SMTP reply (bounded, secrets never included). */
  readonly reply: string | null;
  readonly latencyMs: number;
  /** Why it failed in words ("timeout after 10 s", "refused address 10.0.0.5"), null when ok. */
  readonly error: string | null;
}

/** A route's settings as stored: `kind` and its fields (validated by `outbound/channels/settings.ts`). */
export type RouteSettingsData = { readonly kind: ChannelKind } & Readonly<Record<string, unknown>>;

/** A named destination of an account (`alerts:*`). */
export interface RouteRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly settings: RouteSettingsData;
  /** Set when deliveries kept failing: nothing more is sent until it is resumed. */
  readonly paused: { readonly since: EpochMs; readonly reason: string } | null;
  /** Failed deliveries in a row (reset by a delivered one). */
  readonly failuresInARow: number;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** A route to create. */
export type NewRoute = Omit<RouteRecord, "updatedAt" | "version">;
/** What a route update may change (its health is kept apart: `AlertRouteStore.recordOutcome`). */
export type RoutePatch = Partial<Pick<RouteRecord, "name" | "settings">>;

/** A route's health after a delivery's outcome was recorded. */
export interface RouteHealth {
  readonly failuresInARow: number;
  readonly paused: RouteRecord["paused"];
  /** True when this outcome paused it. */
  readonly pausedNow: boolean;
}

/** What an alert rule watches: one monitor, a group, a board, or every monitor of the account. */
export type RuleTarget =
  | { readonly kind: "monitor" | "group" | "board"; readonly id: string }
  | { readonly kind: "all" };

/** An alert rule of an account (`alerts:*`). */
export interface RuleRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly target: RuleTarget;
  /** Fires when what it watches reaches this level or worse (null: levels are not watched). */
  readonly level: StatusLevel | null;
  /** Also tells of incidents opened, updated and resolved at the watched services. */
  readonly incidents: boolean;
  /** Also tells of maintenance scheduled, started and completed. */
  readonly maintenance: boolean;
  /** Minutes the level must last before anything is sent (a shorter flap sends nothing). */
  readonly forMinutes: number;
  /** Also fires when statusd has failed to read a watched vendor for this many minutes. */
  readonly failingMinutes?: number | null;
  /**
   * Also fires when statusd's own early warning suspects a watched vendor (its probes or
   * members' reports; opt-in, absent in rules made before it existed).
   */
  readonly earlyWarning?: boolean;
  /** Sends a recovery when the level is back under the threshold. */
  readonly recovery: boolean;
  /** Where it sends (route ids of the account). */
  readonly routes: readonly string[];
  /** An escalation policy of the account that also gets it (its steps, until acknowledged). */
  readonly escalation?: string | null;
  readonly enabled: boolean;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** A rule to create. */
export type NewRule = Omit<RuleRecord, "updatedAt" | "version">;
/** What a rule update may change. */
export type RulePatch = Partial<
  Pick<
    RuleRecord,
    | "name"
    | "target"
    | "level"
    | "incidents"
    | "maintenance"
    | "forMinutes"
    | "failingMinutes"
    | "earlyWarning"
    | "recovery"
    | "routes"
    | "enabled"
  >
>;

/** One step of an escalation policy: routes told `afterMinutes` after the previous step. */
export interface EscalationStep {
  readonly routes: readonly string[];
  readonly afterMinutes: number;
}

/** An escalation policy (`alerts:*`): steps in order, the whole repeated `repeat` more times. */
export interface EscalationRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly steps: readonly EscalationStep[];
  readonly repeat: number;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** A policy to create. */
export type NewEscalation = Omit<EscalationRecord, "updatedAt" | "version">;
/** What a policy update may change. */
export type EscalationPatch = Partial<Pick<EscalationRecord, "name" | "steps" | "repeat">>;

/**
 * When each step of `policy` goes for an alert firing at `at`: one entry per step and repeat,
 * numbered from 0, each `afterMinutes` after the one before (pure).
 */
export function escalationSchedule(
  policy: Pick<EscalationRecord, "steps" | "repeat">,
  at: EpochMs,
): { readonly step: number; readonly routes: readonly string[]; readonly at: EpochMs }[] {
  const out: { step: number; routes: readonly string[]; at: EpochMs }[] = [];
  let t = at;
  const cycle = policy.steps.reduce((n, s) => n + s.afterMinutes, 0);
  const repeats = cycle > 0 ? policy.repeat : 0;
  for (let r = 0; r <= repeats; r++) {
    for (const [i, s] of policy.steps.entries()) {
      if (r > 0 || i > 0) t += s.afterMinutes * 60_000;
      out.push({ step: r * policy.steps.length + i, routes: s.routes, at: t });
    }
  }
  return out;
}

/** Where a subscription's messages go: an address (double opt-in) or one of the account's routes. */
export type SubscriptionChannel =
  | { readonly kind: "email"; readonly email: string }
  | { readonly kind: "route"; readonly routeId: string };

/**
 * A subscription (`monitors:*`): every status change, incident update and maintenance notice of a
 * monitor, group or board, on one channel. An email one sends nothing until its address confirms.
 */
export interface SubscriptionRecord {
  readonly id: string;
  readonly accountId: string;
  readonly target: { readonly kind: "monitor" | "group" | "board"; readonly id: string };
  readonly channel: SubscriptionChannel;
  readonly state: "pending_confirmation" | "active" | "unsubscribed";
  /** SHA-256 of the confirm token (the confirmation mail carries the token), null once used. */
  readonly confirmHash: string | null;
  /** The token of the unsubscribe link every message carries (it can only unsubscribe). */
  readonly unsubscribeToken: string;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** A subscription to create. */
export type NewSubscription = Omit<SubscriptionRecord, "updatedAt" | "version">;
/** What a subscription update may change. */
export type SubscriptionPatch = Partial<Pick<SubscriptionRecord, "state" | "confirmHash">>;
