/**
 * What a poller is given: its settings and its dependencies (apart from the poller, so each
 * step of a poll can name them without importing the poller that runs it).
 * @module
 */
import type { Clock, Platform, PollStore } from "../domain/mod.ts";
import type { AddressAllowance, ProxySettings } from "../lib/mod.ts";
import type { Logger } from "../log.ts";
import type { Adapter } from "./adapters/adapter.ts";
import type { ProbeFetch } from "./detect.ts";
import type { Resolve } from "./dns_cache.ts";
import type { ScheduleConfig } from "./schedule.ts";

/** Finds the platform of a page whose catalog platform is `unknown` (ingest/detect.ts). */
export type DetectPlatform = (pageUrl: string, fetchFn: ProbeFetch) => Promise<Platform>;

/** Settings (a slice of the config). */
export interface PollerConfig extends ScheduleConfig {
  readonly concurrency: number;
  readonly timeoutMs: number;
  /**
   * Non-public addresses vendor fetches may reach (`STATUSD_ALLOW_PRIVATE_VENDORS`); none when
   * absent. Applies to every fetch: endpoints, redirect hops, detection probes, discovery.
   */
  readonly allowPrivate?: AddressAllowance;
  /** Extra root certificates (PEM) trusted for vendors' https (tests and benchmarks only). */
  readonly caCerts?: readonly string[];
  /** The proxies vendor fetches go through (`HTTPS_PROXY`, `NO_PROXY`…); none when absent. */
  readonly proxy?: ProxySettings;
}

/**
 * What the poller needs; only `store`, `clock` and `log` are required. (The store publishes
 * what each poll commits to its change subscribers.)
 */
export interface PollerDeps {
  readonly store: PollStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly adapters?: Partial<Record<Platform, Adapter>>;
  /** Platform detection for `unknown` vendors; ingest/detect.ts by default. */
  readonly detect?: DetectPlatform;
  /** Minimum time between two requests to one host (ms); 250 by default. */
  readonly hostSpacingMs?: number;
  readonly maxBytes?: number;
  /**
   * Looks vendor host names up (tests); the system resolver by default. Answers are reused for
   * five minutes (ingest/dns_cache.ts).
   */
  readonly resolve?: Resolve;
  /** croner pattern of the tick; every second by default. */
  readonly tickPattern?: string;
  readonly random?: () => number;
  /** Told of every request's start against a host, on the limiter's clock (tests). */
  readonly onHostStart?: (host: string, at: number) => void;
}
