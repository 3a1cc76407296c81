/**
 * From a catalog of vendors to stored status: the catalog, the platform adapters, polite HTTP,
 * the pure schedule and the adaptive poller. Never imports `store/`: the poller writes through
 * the `PollStore` port that `main.ts` fills with the real store.
 * @module
 */
export { loadCatalog } from "./catalog.ts";
export { loadCatalogSignals } from "./catalog_signals.ts";
export { ADAPTERS } from "./adapters/mod.ts";
export type { Adapter, ParseContext } from "./adapters/mod.ts";
export { PayloadError } from "./adapters/mod.ts";
export { createPoller } from "./poller.ts";
export { pageName, type PageReadOptions, readStatusPage } from "./page_reader.ts";
export { createProber, type Prober, type ProberConfig, type ProberDeps } from "./prober.ts";
export { createSightLog, type SightLog } from "./sight_log.ts";
export { type RoundedVendor, stepVendorWarning, type VendorStep } from "./warning_step.ts";
export type {
  DetectPlatform,
  Poller,
  PollerConfig,
  PollerDeps,
  PollerStats,
  RoundReport,
} from "./poller.ts";
export type { DueVendor, PollRecord, PollStore } from "../domain/mod.ts";
export { politeFetch } from "./http.ts";
export type { FailureReason, FetchOptions, FetchOutcome } from "./http.ts";
export { createLimiter } from "./limiter.ts";
export { isParseWorker } from "./parse_worker.ts";
export { backoffMs, intervalMs, isMoving, isStale, nextPollAt } from "./schedule.ts";
