/**
 * The durable outbox of alerting: one row per message to send to one route, written in
 * the same transaction that advances the evaluator's cursor over the change log, so a kill -9
 * between commit and send loses nothing and re-evaluating never sends twice (ids are derived from
 * what caused them). Workers claim due rows with a lease (`FOR UPDATE SKIP LOCKED` on
 * PostgreSQL), so with several instances exactly one sends each.
 * @module
 */
import type { AlertMessage, DeliveryAttempt, DeliveryState } from "../alert.ts";
import type { PageRequest } from "../page.ts";
import type { EpochMs } from "../time.ts";

/** Who asked for a delivery. */
export interface DeliverySource {
  readonly kind: "rule" | "subscription" | "test" | "notice";
  /** The rule's or subscription's id; null for tests and notices. */
  readonly id: string | null;
}

/** A message to deliver. */
export interface NewDelivery {
  /** Stable and derived from its cause (source, change, route, step): the receiver's dedupe key. */
  readonly id: string;
  readonly accountId: string;
  readonly routeId: string;
  readonly source: DeliverySource;
  /** The change (`Change.id`) that caused it, if one did. */
  readonly changeId: number | null;
  /** One alert: its escalation steps, repeats and recovery share it; acknowledging stops them. */
  readonly notificationId: string;
  /** What the alert is about, e.g. `monitor:<id>` or `service:github` (finds the alert a recovery ends). */
  readonly subject: string | null;
  /** Escalation step (0 without escalation); repeats continue the count. */
  readonly step: number;
  readonly recovery: boolean;
  readonly message: AlertMessage;
  /** Not sent before this time (debounce, escalation wait). */
  readonly notBefore: EpochMs;
  readonly createdAt: EpochMs;
  /**
   * A marker, stored `cancelled` and never sent: the alert ended without a recovery to send (the
   * rule sends none), so the next episode is a new alert.
   */
  readonly closing?: true;
}

/** A delivery as stored. */
export interface DeliveryRecord extends NewDelivery {
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly updatedAt: EpochMs;
  /** Until when a worker holds it to attempt it (null: nobody does). */
  readonly claimedUntil: EpochMs | null;
}

/** What else an enqueue does in its transaction. */
export interface EnqueueOptions {
  /** Moves the named cursor from `from` to `to`; the whole enqueue is refused if it moved since. */
  readonly cursor?: { readonly name: string; readonly from: number; readonly to: number };
  /**
   * Pending deliveries of these notifications stop (a recovery ending an escalation, a flap
   * ending a debounce), before `items` are inserted.
   */
  readonly cancel?: {
    readonly notificationIds: readonly string[];
    readonly state: "cancelled";
    /** Only deliveries not due by then stop (one already due still goes). */
    readonly dueAfter: EpochMs;
  };
  /**
   * The alerts of these notifications ended (before `items` are inserted): each of their pending
   * deliveries that is no recovery and is not being attempted at `at` (under a live lease) stops,
   * whether never attempted, waiting for a retry or held by a paused route.
   */
  readonly end?: { readonly notificationIds: readonly string[]; readonly at: EpochMs };
}

/** Filters of the owner's delivery list. */
export interface DeliveryFilter {
  readonly state?: DeliveryState;
  readonly routeId?: string;
  readonly sourceId?: string;
}

/** The outbox noun. */
export interface DeliveryStore {
  /**
   * Inserts `items` (an id already stored is skipped, never duplicated) and applies `options`,
   * all in one transaction. "stale_cursor" when the cursor was not at `from`: nothing written.
   */
  enqueue(
    items: readonly NewDelivery[],
    options?: EnqueueOptions,
  ): Promise<{ readonly inserted: number } | "stale_cursor">;
  /** Where the named cursor stands (null: never moved). */
  cursor(name: string): Promise<number | null>;
  /** Pending, not cancelled deliveries of `sourceId` about `subject` (what a recovery ends). */
  openNotifications(sourceId: string, subject: string): Promise<readonly DeliveryRecord[]>;
  /** Every delivery of one notification, whatever its state, oldest first. */
  ofNotification(notificationId: string): Promise<readonly DeliveryRecord[]>;
  /**
   * For each source and subject starting with `subjectPrefix`, its last delivery when that one
   * is an alert still open (neither a recovery nor cancelled): what a restarted evaluator must
   * still end. Reads every delivery of such subjects; for startup, not for every round.
   */
  unresolved(subjectPrefix: string): Promise<readonly DeliveryRecord[]>;
  /**
   * Every pending delivery of `sourceId` not due by `dueAfter` and never tried becomes
   * `cancelled` (a rule disabled: what it had not sent yet stops; a retry of one already tried
   * still goes); how many did.
   */
  cancelPending(sourceId: string, dueAfter: EpochMs): Promise<number>;
  /** The last delivery of `sourceId` about `subject`, whatever its state (null: none). */
  latestFor(sourceId: string, subject: string): Promise<DeliveryRecord | null>;
  /**
   * Pending deliveries of the notification not due by `at` become `acknowledged` (one already
   * due still goes); how many did.
   */
  acknowledge(notificationId: string, at: EpochMs): Promise<number>;
  /** One page of the account's deliveries, newest first, and how many match. */
  list(
    accountId: string,
    filter: DeliveryFilter,
    page: PageRequest,
  ): Promise<{ readonly items: readonly DeliveryRecord[]; readonly total: number }>;
  /**
   * Up to `limit` deliveries due at `now` (pending, `notBefore` reached, not held by an
   * unexpired lease), leased to `holder` until `now + leaseMs`, claimed fairly: only the head
   * of each route's queue (the earliest due), never a route that already has one under a live
   * lease, at most `MAX_IN_FLIGHT_PER_ACCOUNT` under live leases per account, and accounts in
   * turn (each account's first before any account's second). On PostgreSQL claims are
   * serialised by an advisory lock, so two instances never claim the same one or two of one
   * route. Claim only what can be sent now: a claimed delivery's lease runs while it waits.
   */
  claimDue(
    now: EpochMs,
    limit: number,
    holder: string,
    leaseMs: number,
  ): Promise<readonly DeliveryRecord[]>;
  /**
   * Moves the leases `holder` still holds on `ids` to `until` (an attempt that runs long keeps
   * its delivery); how many it still held.
   */
  extendLease(ids: readonly string[], holder: string, until: EpochMs): Promise<number>;
  /**
   * Records one attempt and where the delivery goes next (`pending` again at `notBefore`, or
   * `delivered` / `failed`), releasing the lease — only while `holder` still holds it (false:
   * the lease was lost and nothing was written). A failed attempt of a message whose alert has
   * ended meanwhile (its notification has a recovery) is not retried: it becomes `cancelled`, so
   * the recovery never goes before it.
   */
  finish(
    id: string,
    holder: string,
    attempt: DeliveryAttempt,
    next: {
      readonly state: DeliveryState;
      readonly notBefore: EpochMs;
      readonly error: string | null;
    },
  ): Promise<boolean>;
  /** A delivered or failed delivery of the account becomes pending again at `at` (null: none). */
  redeliver(accountId: string, id: string, at: EpochMs): Promise<DeliveryRecord | null>;
  /** The account's delivery with `id` and its attempts, or null. */
  get(
    accountId: string,
    id: string,
  ): Promise<
    { readonly delivery: DeliveryRecord; readonly attempts: readonly DeliveryAttempt[] } | null
  >;
}
