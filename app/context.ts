/**
 * What every verb receives: the store port, the clock, settings, the logger and the services
 * verbs share (built once, in `main.ts`, by {@link createAppContext}: nothing of it is module
 * state, so two contexts never share a queue or a counter).
 * @module
 */
import type { Clock, PackageSignals, PageRead, Plan, Store } from "../domain/mod.ts";
import type { Logger } from "../log.ts";
import { createDependencyReader, type DependencyReader } from "./dependency_reader.ts";
import { createKeyUseRecorder, type KeyUseRecorder } from "./key_uses.ts";
import type { PasswordCost } from "./password.ts";

/** Settings verbs need (a slice of the config). */
export interface AppSettings {
  /** `{host_url}` without a trailing slash. */
  readonly publicUrl: string;
  /** Interval of calm vendors (s): staleness and "moving" rules read it. */
  readonly pollStableSeconds: number;
  /** Interval of moving vendors (s). */
  readonly pollMovingSeconds: number;
  /** Monitors an account above FREE may keep (`STATUSD_MAX_MONITORS`; default 10,000). */
  readonly maxMonitors?: number;
  /** The plan of accounts made by signing up (`STATUSD_SIGNUP_PLAN`; default FREE). */
  readonly signupPlan?: Plan;
  /** A mail server is configured (STATUSD_SMTP_URL): email alert routes can be created. */
  readonly mailEnabled?: boolean;
  /** The catalog's package and provider signals (monitor suggestions); none: domains only. */
  readonly signals?: PackageSignals;
  /**
   * The scrypt cost of new password hashes and of the decoy checked for unknown emails.
   * Production never sets it (`PASSWORD_COST`, N=2^17); test contexts lower it, so the suite
   * does not spend half a second of CPU per sign-up (tests/app/accounts_test.ts keeps the
   * production cost honest).
   */
  readonly passwordCost?: PasswordCost;
}

/** The context passed as the first argument to every verb. */
export interface AppContext {
  /** Everything statusd keeps (domain/store/); the engine is never visible here. */
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: AppSettings;
  readonly log: Logger;
  /** API-key uses waiting to be written (`lastUsedAt`), off the request's path. */
  readonly keyUses: KeyUseRecorder;
  /** Reads uploaded dependency files on a worker thread, under a deadline. */
  readonly dependencyReader: DependencyReader;
  /** Why an alert destination URL is refused (a private address), or null. */
  readonly checkDestination?: (url: string) => Promise<string | null>;
  /** Tells the delivery worker something was queued (sends it now, not at its next look). */
  readonly wakeDeliveries?: () => void;
  /**
   * Reads a status page once by its URL, through the poller's guard (ingest/page_reader.ts):
   * what adding a page by URL needs. Absent, pages cannot be added.
   */
  readonly readStatusPage?: (url: string) => Promise<PageRead>;
}

/** What {@link createAppContext} needs. */
export interface AppContextDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: AppSettings;
  readonly log: Logger;
  readonly checkDestination?: (url: string) => Promise<string | null>;
  readonly wakeDeliveries?: () => void;
  readonly readStatusPage?: (url: string) => Promise<PageRead>;
}

/** A context over `deps` with fresh services (the key-use queue). */
export function createAppContext(deps: AppContextDeps): AppContext {
  return {
    ...deps,
    keyUses: createKeyUseRecorder(deps.store.keys, deps.log),
    dependencyReader: createDependencyReader(),
  };
}
