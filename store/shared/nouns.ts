/**
 * The nouns of the store written once (`store/shared/`), assembled over one engine. Each
 * engine's `mod.ts` adds the nouns it writes itself (polls, retention, attempts, monitors,
 * deliveries, mail: where the engines truly differ, in leases, group commit or claim SQL).
 * @module
 */
import type { Store } from "../../domain/mod.ts";
import { accountStore } from "./accounts.ts";
import { boardStore, docStore, groupStore, ruleStore, subscriptionStore } from "./account_docs.ts";
import { catalogStore } from "./catalog.ts";
import type { ChangeFanOut, ChangeLog } from "./change_feed.ts";
import { changeStore } from "./changes.ts";
import { healthStore } from "./health.ts";
import { historyStore } from "./history.ts";
import { idempotencyStore } from "./idempotency.ts";
import { incidentStore } from "./incidents.ts";
import { keyStore } from "./keys.ts";
import { oauthStore } from "./oauth.ts";
import type { Engine } from "./query.ts";
import { healthRows, routeStore } from "./route_health.ts";
import { sessionStore } from "./sessions.ts";
import { warningStore } from "./warnings.ts";

/** The nouns both engines share. */
export type SharedNouns = Pick<
  Store,
  | "catalog"
  | "incidents"
  | "history"
  | "changes"
  | "health"
  | "accounts"
  | "keys"
  | "sessions"
  | "oauth"
  | "groups"
  | "boards"
  | "alertRoutes"
  | "alertRules"
  | "escalations"
  | "subscriptions"
  | "idempotency"
  | "warnings"
>;

/**
 * The shared nouns over `engine`; changes are told through `feed`, and the nouns that append to
 * the change log do it through `log`.
 */
export function sharedNouns(engine: Engine, feed: ChangeFanOut, log: ChangeLog): SharedNouns {
  return {
    catalog: catalogStore(engine),
    incidents: incidentStore(engine),
    history: historyStore(engine),
    changes: changeStore(engine, feed),
    health: healthStore(engine),
    accounts: accountStore(engine),
    keys: keyStore(engine),
    sessions: sessionStore(engine),
    oauth: oauthStore(engine),
    groups: groupStore(engine),
    boards: boardStore(engine),
    alertRoutes: routeStore(docStore(engine, "route"), healthRows(engine)),
    alertRules: ruleStore(engine),
    escalations: docStore(engine, "escalation"),
    subscriptions: subscriptionStore(engine),
    idempotency: idempotencyStore(engine),
    warnings: warningStore(engine, log),
  };
}
