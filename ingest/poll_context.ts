/**
 * What one poll of one vendor shares with the poller that started it (the context every step
 * of the per-vendor pipeline is handed) and how a poll ended.
 * @module
 */
import type { DueVendor, EpochMs, Platform, PollOutcome, ReadingErrorKind } from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import type { FetchOptions, FetchOutcome } from "./http.ts";
import type { Limiter } from "./limiter.ts";
import type { PulseBook } from "./pulses.ts";
import type { ReadingParser } from "./parse_worker.ts";
import type { PollerConfig, PollerDeps } from "./poller_config.ts";

/**
 * How one poll ended: a fetch outcome as the fetch log keeps it, or `skipped` (no adapter),
 * `aborted` (the poller stopped) or `error` (a bug, logged).
 */
export type PollResultKind = PollOutcome | "skipped" | "aborted" | "error";

/** True for the outcomes counted as failed polls. */
export function isFailure(kind: PollResultKind): kind is ReadingErrorKind | "error" {
  return kind !== "ok" && kind !== "not_modified" && kind !== "skipped" && kind !== "aborted";
}

export interface PollResult {
  readonly outcome: PollResultKind;
  readonly changes: number;
  /** This failure made the vendor due for platform re-detection. */
  readonly redetect?: boolean;
}

export interface PollContext {
  readonly config: PollerConfig;
  readonly deps: PollerDeps;
  readonly adapters: Partial<Record<Platform, Adapter>>;
  readonly reported: Set<string>;
  /** Digest of the body of each vendor's last stored reading (cleared by any failure). */
  readonly bodies: Map<number, string>;
  /** Each vendor's component group names (`Adapter.groupNames`), and when they were read. */
  readonly groupNames: Map<
    number,
    { readonly at: EpochMs; readonly names: ReadonlyMap<string, string> }
  >;
  /** Each vendor's pulse memory. */
  readonly pulses: PulseBook;
  /** Parses bodies (large ones off the event loop). */
  readonly parser: ReadingParser;
  readonly counts: { pulses: number; pulseChanges: number };
  readonly limiter: Limiter;
  fetchOptions(extra: Partial<FetchOptions>): FetchOptions;
  /** The poller is stopping: polls in flight end as `aborted`. */
  aborted(): boolean;
  limit<T>(host: string, task: () => Promise<T>): Promise<T>;
  onStart(v: DueVendor, at: EpochMs): void;
}

export function random(ctx: PollContext): () => number {
  return ctx.deps.random ?? Math.random;
}

export function isFetchOutcome(value: unknown): value is FetchOutcome {
  return value !== null && typeof value === "object" && "kind" in value && "latencyMs" in value;
}

export function stateOf(v: DueVendor) {
  return {
    status: v.currentStatus,
    hasOpenIncident: v.hasOpenIncident,
    lastChangedAt: v.lastChangedAt,
  };
}

export function reportOnce(ctx: PollContext, key: string, log: () => void): void {
  if (ctx.reported.has(key)) return;
  if (ctx.reported.size > 10_000) ctx.reported.clear();
  ctx.reported.add(key);
  log();
}
