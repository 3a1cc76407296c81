/**
 * The store port: everything statusd keeps, as one interface grouped by noun, with coarse
 * async methods named for what they mean. Each implementation (`store/sqlite/`, and
 * PostgreSQL) owns its transactions: a method is one atomic act or one consistent read, and no
 * caller ever holds a transaction open. Declared in `domain/` so that `app/` and `ingest/`
 * both use it without importing `store/`; `tests/store/conformance/` is the one suite every
 * implementation must pass.
 *
 * Adding a noun: a file here (its records and its interface), a field on {@link Store}, a
 * file per engine, and a conformance test file.
 * @module
 */
import type { EpochMs } from "../time.ts";
import type { AccountStore } from "./accounts.ts";
import type { AttemptStore } from "./attempts.ts";
import type { CatalogStore } from "./catalog.ts";
import type { ChangeStore } from "./changes.ts";
import type { HealthStore } from "./health.ts";
import type { HistoryStore } from "./history.ts";
import type { IncidentStore } from "./incidents.ts";
import type { KeyStore } from "./keys.ts";
import type { MailStore } from "./mail.ts";
import type { MonitorStore } from "./monitors.ts";
import type { IdempotencyStore } from "./idempotency.ts";
import type { AccountDocStore, BoardStore, GroupStore } from "./boards.ts";
import type { DeliveryStore } from "./deliveries.ts";
import type { WarningStore } from "./warnings.ts";
import type {
  EscalationPatch,
  EscalationRecord,
  NewEscalation,
  NewRoute,
  NewRule,
  NewSubscription,
  RouteHealth,
  RoutePatch,
  RouteRecord,
  RulePatch,
  RuleRecord,
  SubscriptionPatch,
  SubscriptionRecord,
} from "../alert.ts";

/** Subscriptions: account documents of kind `subscription`, and all at once. */
export interface SubscriptionStore
  extends AccountDocStore<SubscriptionRecord, NewSubscription, SubscriptionPatch> {
  /** The active subscriptions of these accounts, oldest first (the evaluator's input). */
  active(accountIds: readonly string[]): Promise<readonly SubscriptionRecord[]>;
  /** A subscription by id, whoever owns it (its links carry the id). */
  byId(id: string): Promise<SubscriptionRecord | null>;
  /**
   * Opens a pending subscription asked for on a public page, in one act: the account's pending
   * ones made at or before `expiryCutoff` (expired, never confirmed) are deleted first, and it is refused with
   * "busy" when its target already has `maxPending` pending ones. Pending subscriptions never
   * count toward the account's limit (`create` counts only the others).
   */
  openPending(
    doc: NewSubscription,
    opts: { readonly maxPending: number; readonly expiryCutoff: EpochMs },
  ): Promise<SubscriptionRecord | "busy">;
  /**
   * Makes a pending subscription active (its confirm hash used up) unless the account already
   * keeps `limit` that are not pending: the subscription after, "limit", or null when it is not
   * (or no longer) pending.
   */
  confirm(
    accountId: string,
    id: string,
    at: EpochMs,
    limit: number,
  ): Promise<SubscriptionRecord | "limit" | null>;
}

/** Escalation policies: account documents of kind `escalation`. */
export type EscalationStore = AccountDocStore<EscalationRecord, NewEscalation, EscalationPatch>;

/** Alert routes: the shared account-document operations. */
export interface AlertRouteStore extends AccountDocStore<RouteRecord, NewRoute, RoutePatch> {
  /**
   * Records a delivery's outcome in the route's health, kept apart from the route itself (so it
   * never changes the route's version), in one atomic step on both engines: a delivered one
   * resets the failures, a failed one adds one and pauses the route (with `reason`) when it
   * reaches `pauseAfter`. Null when there is no such route.
   */
  recordOutcome(
    accountId: string,
    routeId: string,
    outcome: {
      readonly ok: boolean;
      readonly at: EpochMs;
      readonly pauseAfter: number;
      readonly reason: string;
    },
  ): Promise<RouteHealth | null>;
  /** Clears a route's failures and pause (the owner resumed it); false when there is no such route. */
  resume(accountId: string, routeId: string): Promise<boolean>;
}

/** Alert rules: account documents of kind `rule`, and every account's at once. */
export interface AlertRuleStore extends AccountDocStore<RuleRecord, NewRule, RulePatch> {
  /**
   * Every rule of these accounts, enabled or not, oldest first (the evaluator's input: a
   * disabled rule sends nothing new but still ends the alerts it opened).
   */
  ofAccounts(accountIds: readonly string[]): Promise<readonly RuleRecord[]>;
}
import type { OAuthStore } from "./oauth.ts";
import type { PollStore } from "./polls.ts";
import type { RetentionStore } from "./retention.ts";
import type { SessionStore } from "./sessions.ts";

/** Which database engine implements the store. */
export type StoreEngine = "sqlite" | "postgres";

/** Everything statusd keeps. */
export interface Store {
  /** The engine behind it (shown by `/healthz`). */
  readonly engine: StoreEngine;
  readonly catalog: CatalogStore;
  readonly polls: PollStore;
  readonly incidents: IncidentStore;
  readonly history: HistoryStore;
  readonly changes: ChangeStore;
  readonly health: HealthStore;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly sessions: SessionStore;
  readonly oauth: OAuthStore;
  readonly retention: RetentionStore;
  readonly attempts: AttemptStore;
  readonly monitors: MonitorStore;
  readonly groups: GroupStore;
  readonly boards: BoardStore;
  readonly idempotency: IdempotencyStore;
  /** Alert routes: account documents of kind `route`. */
  readonly alertRoutes: AlertRouteStore;
  /** Subscriptions. */
  readonly subscriptions: SubscriptionStore;
  /** Escalation policies. */
  readonly escalations: EscalationStore;
  /** Alert rules. */
  readonly alertRules: AlertRuleStore;
  /** The alerting outbox. */
  readonly deliveries: DeliveryStore;
  /** Mail consents and suppressions, and the server's own secrets. */
  readonly mail: MailStore;
  /** statusd's own eyes: probes, early warnings, episodes and members' reports. */
  readonly warnings: WarningStore;
  /** Closes the database; later calls reject. */
  close(): Promise<void>;
}

export type {
  AccountStore,
  AccountSummary,
  MembershipRecord,
  MemberWithSecret,
  NewMember,
} from "./accounts.ts";
export type { AttemptStore } from "./attempts.ts";
export type {
  AddedVendor,
  AddVendorResult,
  CatalogOverview,
  CatalogStore,
  CatalogSync,
  NewAddedVendor,
  OverviewQuery,
  ProviderRow,
  ServiceCandidate,
  ServiceDetailRows,
  ServiceFilter,
  ServiceRow,
  ServiceWithHistory,
  VendorOrigin,
} from "./catalog.ts";
export type { ChangeListener, ChangeStore } from "./changes.ts";
export type { HealthFacts, HealthStore, StoreCounts } from "./health.ts";
export type {
  ComponentTimelines,
  FetchRecord,
  HistoryStore,
  Lookback,
  ServicePageQuery,
  ServicePageRows,
  SlaIncidentRow,
  SlaInputs,
} from "./history.ts";
export type { IncidentFilter, IncidentStore, MaintenanceFilter } from "./incidents.ts";
export type { ApiKeyRecord, KeyStore, NewApiKey } from "./keys.ts";
export type { MailConsentState, MailStore, MailSuppression } from "./mail.ts";
export type {
  AccountReports,
  BackdatedIncident,
  NewReport,
  ProbeDue,
  ProbeRecord,
  ProbeScope,
  ReportRecord,
  StoredWarning,
  WarningStore,
} from "./warnings.ts";
export { EPISODES_KEPT_PER_VENDOR, REPORTS_KEPT_PER_ACCOUNT } from "./warnings.ts";
export type {
  AccountDocStore,
  BoardItem,
  BoardLink,
  BoardPatch,
  BoardRecord,
  BoardStore,
  GroupPatch,
  GroupRecord,
  GroupStore,
  NewBoard,
  NewGroup,
  WriteRefusal,
} from "./boards.ts";
export type { IdempotencyBegin, IdempotencyStore, IdempotentAnswer } from "./idempotency.ts";
export type { MonitorPatch, MonitorRecord, MonitorStore, NewMonitor } from "./monitors.ts";
export type {
  ClientAuthMethod,
  CodeRedemption,
  ConnectedClientRow,
  NewOAuthToken,
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthStore,
  OAuthTokenRecord,
  TokenRotation,
} from "./oauth.ts";
export type {
  DueVendor,
  FailureRecord,
  FullReadRecord,
  PollOutcome,
  PollRecord,
  PollStore,
  SuccessRecord,
} from "./polls.ts";
export { OPEN_INCIDENTS_MAX } from "./polls.ts";
export { PRUNE_CHUNK, type RetentionStore } from "./retention.ts";
export type { SessionRecord, SessionStore } from "./sessions.ts";
export type {
  DeliveryFilter,
  DeliveryRecord,
  DeliverySource,
  DeliveryStore,
  EnqueueOptions,
  NewDelivery,
} from "./deliveries.ts";
