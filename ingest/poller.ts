/**
 * The adaptive poller: a 1-second croner tick asks the store for due vendors and dispatches
 * each poll through the limiter (global concurrency, per-host spacing) without waiting, so a
 * slow or broken vendor never delays the others. Policy lives in `schedule.ts`; this file
 * only orchestrates. A poll never throws: every outcome is recorded.
 * @module
 */
import { createHash } from "node:crypto";
import { Cron } from "croner";
import type {
  Clock,
  DueVendor,
  EpochMs,
  Platform,
  PollerStats,
  PollOutcome,
  PollStore,
  ReadingErrorKind,
} from "../domain/mod.ts";
import type { AddressAllowance, ProxySettings } from "../lib/mod.ts";
import {
  cutText,
  HOUR_MS,
  isOpen,
  isPlatformMiss,
  redetectionDue,
  serviceAfterReading,
  serviceStatus,
  unsupportedReasonOf,
} from "../domain/mod.ts";
import type { Logger } from "../log.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { PayloadError } from "./adapters/adapter.ts";
import { ADAPTERS } from "./adapters/mod.ts";
import { detectPlatform, type ProbeFetch, type ProbeResponse } from "./detect.ts";
import { createDnsCache, type Resolve } from "./dns_cache.ts";
import { DEFAULT_MAX_BYTES, type FetchOptions, type FetchOutcome, politeFetch } from "./http.ts";
import { createLimiter, type Limiter } from "./limiter.ts";
import { createPinnedPool, systemResolve } from "./pinned_client.ts";
import {
  boundedFingerprint,
  createPulseBook,
  PULSE_BROKEN_RETRY_MS,
  PULSE_FAILURES_MAX,
  PULSE_IDLE_CHANGES_MAX,
  type PulseBook,
  type PulseState,
} from "./pulses.ts";
import { parseFailureKind } from "./parse_failure.ts";
import { createReadingParser, OFF_THREAD_BYTES, type ReadingParser } from "./parse_worker.ts";
import { createSilenceWatch } from "./silence.ts";
import {
  fullReadDue,
  intervalMs,
  isMoving,
  isStale,
  nextPollAt,
  pulseMs,
  type ScheduleConfig,
} from "./schedule.ts";

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
}

/** What one `runOnce` did. */
export interface RoundReport {
  readonly polled: number;
  readonly failed: number;
  readonly changes: number;
}

export type { PollerStats } from "../domain/mod.ts";

/** The poller. */
export interface Poller {
  /** Starts the tick. */
  start(): void;
  /** Stops the tick and aborts and awaits the polls in flight (nothing half-recorded). */
  stop(): Promise<void>;
  /** Polls every vendor due now and waits for all of them (tests drive rounds with it). */
  runOnce(): Promise<RoundReport>;
  stats(): PollerStats;
}

const NO_ADAPTER_RETRY_MS = HOUR_MS;
/**
 * Idle connections to vendors close after this long (ms). A vendor is polled about once a
 * minute, so only the reads of one poll share a connection (a pulse and the full read after it,
 * a page and the endpoint found in it); with a host per vendor, a longer idle time only kept
 * thousands of connections open (issue #15, 10,000 vendors each on its own host: at 5 s, up to
 * 4,300 sockets and 230–257 MB; at 1 s, up to 1,100 sockets and 140–190 MB). Over https a poll's
 * connections close as soon as it is over (`pollReleasing`); this idle time is what is left for http.
 */
export const VENDOR_CONNECTION_IDLE_MS = 1_000;
/** Due vendors read ahead per round, as a multiple of the concurrency. */
const LOOKAHEAD_FACTOR = 16;
/** Notes kept per reading (each at most 300 characters). */
const MAX_NOTES = 60;

/** A new poller (not started). */
export function createPoller(config: PollerConfig, deps: PollerDeps): Poller {
  const adapters = deps.adapters ?? ADAPTERS;
  const limiter = createLimiter({
    concurrency: config.concurrency,
    hostSpacingMs: deps.hostSpacingMs ?? 250,
    now: () => deps.clock.now(),
  });
  const newPool = () =>
    createPinnedPool({
      caCerts: config.caCerts,
      idleMs: VENDOR_CONNECTION_IDLE_MS,
      proxy: config.proxy,
    });
  let pool = newPool();
  const dns = createDnsCache({
    resolve: deps.resolve ?? systemResolve,
    now: () => deps.clock.now(),
  });
  const parser = createReadingParser();
  const pending = new Map<number, Promise<PollResult>>();
  const reported = new Set<string>();
  const bodies = new Map<number, string>();
  const counts = {
    rounds: 0,
    polls: 0,
    ok: 0,
    notModified: 0,
    pulses: 0,
    pulseChanges: 0,
    bytesReceived: 0,
    failures: 0,
    changes: 0,
    missedDeadlines: 0,
  };
  const byReason: Record<string, number> = {};
  const silence = createSilenceWatch(deps.log);
  let abort = new AbortController();
  let job: Cron | null = null;
  let lastRoundAt: EpochMs | null = null;

  const ctx: PollContext = {
    config,
    deps,
    adapters,
    reported,
    bodies,
    pulses: createPulseBook(),
    parser,
    counts,
    limiter,
    fetchOptions: (extra) => ({
      timeoutMs: config.timeoutMs,
      maxBytes: deps.maxBytes ?? DEFAULT_MAX_BYTES,
      allowPrivate: config.allowPrivate,
      signal: abort.signal,
      pool,
      resolve: dns.resolve,
      forgetHost: dns.forget,
      now: () => deps.clock.now(),
      ...extra,
    }),
    aborted: () => abort.signal.aborted,
    limit: async (host, task) => {
      const out = await limiter.run(host, task);
      if (isFetchOutcome(out) && out.kind === "ok") counts.bytesReceived += out.bytes;
      return out;
    },
    onStart: (v, at) => {
      if (v.deadlineAt > 0 && at > v.deadlineAt) counts.missedDeadlines++;
    },
  };

  /**
   * One poll, whose idle https connections close as soon as it is over: the next request to a
   * vendor's host is its next poll, about a minute later (issue #15: kept for the idle time
   * instead, hundreds of sockets stayed open at once, 90 KB or more each).
   */
  const pollReleasing = (v: DueVendor): Promise<PollResult> => {
    const hosts = new Set<string>();
    const own: PollContext = {
      ...ctx,
      limit: (host, task) => {
        hosts.add(host);
        return ctx.limit(host, task);
      },
    };
    return pollVendor(v, own).finally(() => {
      for (const host of hosts) pool.release(host);
    });
  };

  // More due vendors than room: top up as polls finish instead of waiting for the next tick.
  let saturated = false;
  let refillQueued = false;
  const refill = () => {
    if (!saturated || refillQueued || job === null) return;
    refillQueued = true;
    queueMicrotask(() => {
      refillQueued = false;
      if (job === null) return;
      dispatch(false).catch((err) => deps.log.error("poll refill failed", { error: String(err) }));
    });
  };

  // One dispatch at a time: each sees the polls the previous one started, so no vendor is
  // started twice while the store is being asked who is due.
  let dispatching: Promise<unknown> = Promise.resolve();
  let dueBacklog = 0;
  /** Due vendors read from the store and not started yet, most overdue first. */
  let buffer: DueVendor[] = [];
  /** The last read filled the buffer: more may be due behind it. */
  let bufferFull = false;
  const dispatch = (isRound = true): Promise<Promise<PollResult>[]> => {
    const run = dispatching.then(() => dispatchNow(isRound));
    dispatching = run.catch(() => {});
    return run;
  };

  const dispatchNow = async (isRound: boolean): Promise<Promise<PollResult>[]> => {
    const now = deps.clock.now();
    if (isRound) {
      lastRoundAt = now;
      counts.rounds++;
    }
    const room = config.concurrency * 4 - pending.size;
    if (room <= 0) return [];
    // Due vendors are read ahead (issue #15): asking the store again after every finished
    // poll was a third of the poller's CPU. The buffer is read again every round.
    if (isRound || buffer.length === 0) {
      const lookahead = config.concurrency * LOOKAHEAD_FACTOR;
      buffer = (await deps.store.dueVendors(now, lookahead + pending.size))
        .filter((v) => !pending.has(v.id));
      bufferFull = buffer.length >= lookahead;
    }
    const due = buffer.splice(0, room).filter((v) => !pending.has(v.id));
    saturated = buffer.length > 0 || bufferFull;
    const started = due.map((v) => {
      const p = pollReleasing(v).then((r) => {
        if (abort.signal.aborted) return r;
        counts.polls++;
        if (r.outcome === "ok") counts.ok++;
        else if (r.outcome === "not_modified") counts.notModified++;
        else if (isFailure(r.outcome)) {
          counts.failures++;
          byReason[r.outcome] = (byReason[r.outcome] ?? 0) + 1;
        }
        counts.changes += r.changes;
        silence.observe(r.outcome, deps.clock.now());
        return r;
      }).finally(() => {
        pending.delete(v.id);
        refill();
      });
      pending.set(v.id, p);
      return p;
    });
    if (isRound) dueBacklog = Math.max(0, await deps.store.countDue(now) - pending.size);
    return started;
  };

  const tick = () => {
    dispatch().then(
      () => silence.check(deps.clock.now()),
      (err) => deps.log.error("poll round failed", { error: String(err) }),
    );
  };

  return {
    start() {
      if (job) return;
      abort = new AbortController();
      pool.close();
      pool = newPool();
      job = new Cron(deps.tickPattern ?? "* * * * * *", { protect: true }, tick);
      tick();
    },
    async stop() {
      job?.stop();
      job = null;
      abort.abort();
      await Promise.allSettled([...pending.values()]);
      pool.close();
      parser.close();
    },
    async runOnce() {
      const results: PollResult[] = [];
      for (;;) {
        const batch = await dispatch();
        if (batch.length === 0 && pending.size === 0) break;
        results.push(...await Promise.all(batch.length ? batch : [...pending.values()]));
      }
      silence.check(deps.clock.now());
      return {
        polled: results.filter((r) => r.outcome !== "skipped").length,
        failed: results.filter((r) => isFailure(r.outcome)).length,
        changes: results.reduce((n, r) => n + r.changes, 0),
      };
    },
    stats() {
      return {
        running: job !== null,
        ...counts,
        failuresByReason: { ...byReason },
        offThreadParses: parser.offThread,
        inFlight: limiter.active,
        queued: limiter.queued,
        dueBacklog,
        lastRoundAt,
        ...silence.state(),
      };
    },
  };
}

/**
 * How one poll ended: a fetch outcome as the fetch log keeps it, or `skipped` (no adapter),
 * `aborted` (the poller stopped) or `error` (a bug, logged).
 */
type PollResultKind = PollOutcome | "skipped" | "aborted" | "error";

/** True for the outcomes counted as failed polls. */
function isFailure(kind: PollResultKind): kind is ReadingErrorKind | "error" {
  return kind !== "ok" && kind !== "not_modified" && kind !== "skipped" && kind !== "aborted";
}

interface PollResult {
  readonly outcome: PollResultKind;
  readonly changes: number;
  /** This failure made the vendor due for platform re-detection. */
  readonly redetect?: boolean;
}

interface PollContext {
  readonly config: PollerConfig;
  readonly deps: PollerDeps;
  readonly adapters: Partial<Record<Platform, Adapter>>;
  readonly reported: Set<string>;
  /** Digest of the body of each vendor's last stored reading (cleared by any failure). */
  readonly bodies: Map<number, string>;
  /** Each vendor's pulse memory (issue #15). */
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

/** One poll of one vendor, start to record. Never throws. */
async function pollVendor(v: DueVendor, ctx: PollContext): Promise<PollResult> {
  const { deps } = ctx;
  try {
    const platform = await platformOf(v, ctx);
    const adapter = platform ? ctx.adapters[platform] : undefined;
    if (!platform || !adapter) {
      const reason = unsupportedReasonOf(platform ?? v.detectedPlatform ?? v.platform);
      reportOnce(
        ctx,
        `skip|${v.slug}`,
        () => deps.log.warn("vendor not polled", { vendor: v.slug, reason }),
      );
      await deps.store.recordSkipped(v.id, deps.clock.now() + NO_ADAPTER_RETRY_MS, reason);
      return { outcome: "skipped", changes: 0 };
    }
    let started = false;
    const begin = (at: EpochMs) => {
      if (started) return;
      started = true;
      ctx.onStart(v, at);
    };
    const target = await endpointOf(v, adapter, platform, begin, ctx);
    if (target.url === null) return await redetectIfDue(v, platform, target.result, ctx);
    const { url, discovered } = target;
    const pulsed = await pulseFirst(v, adapter, begin, ctx);
    if (pulsed.done) return pulsed.result;
    let at = 0;
    const validators = target.fresh ? {} : { etag: v.etag, lastModified: v.lastModified };
    const outcome = await ctx.limit(url.host, () => {
      at = deps.clock.now();
      begin(at);
      return politeFetch(url, ctx.fetchOptions(validators));
    });
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    if (discovered && outcome.kind === "failed" && GONE.has(outcome.status ?? 0)) {
      // The page may have moved to another id: read the page again next time.
      await deps.store.setEndpoint(v.id, null);
      deps.log.info("discovered endpoint gone", { vendor: v.slug, endpoint: url.href });
    }
    afterFullRead(v, outcome, at, pulsed, validators, ctx);
    const result = await record(v, adapter, platform, outcome, at, ctx, url.host);
    weighPulseChange(v, pulsed, result, at, ctx);
    return await redetectIfDue(v, platform, result, ctx);
  } catch (err) {
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    if (err instanceof Unreachable) {
      const at = deps.clock.now();
      return fail(v, err.reason, `platform detection: ${err.message}`, {
        at,
        latencyMs: 0,
        httpStatus: null,
      }, ctx);
    }
    deps.log.error("poll failed unexpectedly", { vendor: v.slug, error: String(err) });
    return { outcome: "error", changes: 0 };
  }
}

/** Statuses that make a discovered endpoint be discovered again. */
const GONE = new Set([404, 410]);

/** What reading a vendor's pulse decided: the poll is over, or the full read follows. */
type Pulsed =
  | { readonly done: true; readonly result: PollResult }
  | {
    readonly done: false;
    readonly fingerprint: string | null;
    /** The pulse failed for a passing reason (its detail): counted if the full read succeeds. */
    readonly failed?: string;
    /** The pulse's fingerprint differs from the one the last full read went with. */
    readonly changed?: boolean;
  };

/**
 * Issue #15: a calm vendor whose platform has a pulse document is read through it first. When
 * the fingerprint is the one its last full read went with and no full read is due (one per
 * stable interval), the poll ends as `not_modified`; when it changed, was never seen, or the
 * pulse could not be read, the full read follows at once (a pulse document that fails
 * `PULSE_FAILURES_MAX` times in a row while the full reads succeed is left alone for a day, as a
 * missing one is). A pulse answered 429 (or with
 * `Retry-After`) ends the poll as that failure: no second request goes to a vendor asking for
 * fewer. A vendor's first poll reads its pulse and then the full document. Moving and failing
 * vendors, and vendors of platforms without a pulse document, go straight to the full read.
 */
async function pulseFirst(
  v: DueVendor,
  adapter: Adapter,
  begin: (at: EpochMs) => void,
  ctx: PollContext,
): Promise<Pulsed> {
  const { deps, config, pulses } = ctx;
  const now = deps.clock.now();
  const notYet: Pulsed = { done: false, fingerprint: null };
  pulses.adopt(v.id, v.lastFullAt, v.pulseFingerprint);
  // A vendor never read yet reads its pulse too, so its first full read has a fingerprint.
  const calm = v.failures === 0 &&
    (v.lastSuccessAt === null || (!isMoving(stateOf(v), now) && v.currentStatus !== "UNKNOWN"));
  if (!calm) {
    pulses.forgetFingerprint(v.id);
    return notYet;
  }
  const pulse = pulseMs(config) > 0 ? pulses.usablePulse(v.id, adapter, now) : null;
  if (!pulse) return notYet;
  const s = pulses.of(v.id);
  // A full read is due anyway and a pulse was seen before: the full read is what tells, so no
  // pulse goes first (one request fewer per stable interval). The fingerprint kept is the last
  // pulse's; should the page have moved since, the next pulse differs and reads it again.
  if (s.fingerprint !== null && fullReadDue(s.lastFullAt, now, config)) {
    return { done: false, fingerprint: s.fingerprint };
  }
  const url = pulse.endpoint({ statusPageUrl: v.statusPageUrl, slug: v.slug });
  let at = 0;
  const out = await ctx.limit(url.host, () => {
    at = deps.clock.now();
    begin(at);
    return politeFetch(url, ctx.fetchOptions({ etag: s.etag, lastModified: s.lastModified }));
  });
  if (ctx.aborted()) {
    return { done: true, result: { outcome: "aborted", changes: 0 } };
  }
  ctx.counts.pulses++;
  if (out.kind === "failed") {
    if (out.status === 429 || out.retryAfterMs !== undefined) {
      const poll = { at, latencyMs: out.latencyMs, httpStatus: out.status ?? null };
      return {
        done: true,
        result: await fail(v, out.reason, out.detail, poll, ctx, out.retryAfterMs, url.host),
      };
    }
    // A passing trouble (no connection, a timeout, a 5xx) is tried again next time, unless it
    // is the pulse's alone and keeps happening; anything else says the pulse document is not
    // there to read.
    const passing = out.reason === "network" || out.reason === "timeout" ||
      (out.status ?? 0) >= 500;
    if (!passing) brokenPulse(v, s, at, out.detail, ctx);
    s.fingerprint = s.etag = s.lastModified = null;
    return passing ? { ...notYet, failed: out.detail } : notYet;
  }
  s.failuresInRow = 0;
  let fingerprint = s.fingerprint;
  if (out.kind === "ok") {
    try {
      fingerprint = boundedFingerprint(pulse.fingerprint(out.body));
    } catch (err) {
      brokenPulse(v, s, at, String(err instanceof Error ? err.message : err), ctx);
      s.fingerprint = s.etag = s.lastModified = null;
      return notYet;
    }
    s.etag = out.etag ?? null;
    s.lastModified = out.lastModified ?? null;
  }
  if (
    fingerprint !== null && fingerprint === s.fingerprint && !fullReadDue(s.lastFullAt, at, config)
  ) {
    const httpStatus = out.kind === "ok" ? out.status : 304;
    const next = nextPollAt({ ...stateOf(v), failures: 0, pulsing: true }, at, config, random(ctx));
    s.idleChangesInRow = 0;
    await deps.store.recordPulse(v.id, { at, latencyMs: out.latencyMs, httpStatus, ...next });
    return { done: true, result: { outcome: "not_modified", changes: 0 } };
  }
  const changed = s.fingerprint !== null && fingerprint !== s.fingerprint;
  if (changed) ctx.counts.pulseChanges++;
  return { done: false, fingerprint, changed };
}

/**
 * Weighs a pulse that changed by what the full read after it recorded: nothing new
 * {@link PULSE_IDLE_CHANGES_MAX} times in a row and the pulse document is no signal (left alone
 * for a day); a recorded change starts the count over.
 */
function weighPulseChange(
  v: DueVendor,
  pulsed: { readonly changed?: boolean },
  result: PollResult,
  at: EpochMs,
  ctx: PollContext,
): void {
  if (!pulsed.changed) return;
  if (result.outcome !== "ok" && result.outcome !== "not_modified") return;
  const s = ctx.pulses.of(v.id);
  if (result.changes > 0) {
    s.idleChangesInRow = 0;
  } else if (++s.idleChangesInRow >= PULSE_IDLE_CHANGES_MAX) {
    const why =
      `its fingerprint changed ${s.idleChangesInRow} times in a row while the page did not`;
    brokenPulse(v, s, at, why, ctx);
  }
}

/**
 * The vendor's pulse document is missing, of another shape, keeps failing or keeps changing
 * for nothing: unused for a day, said once.
 */
function brokenPulse(
  v: DueVendor,
  s: PulseState,
  at: EpochMs,
  why: string,
  ctx: PollContext,
): void {
  s.brokenUntil = at + PULSE_BROKEN_RETRY_MS;
  s.failuresInRow = s.idleChangesInRow = 0;
  reportOnce(
    ctx,
    `pulse|${v.slug}`,
    () =>
      ctx.deps.log.info("pulse document unusable; full reads only for a day", {
        vendor: v.slug,
        reason: cutText(why, 200),
      }),
  );
}

/**
 * Remembers what a full read says about the vendor's pulses: the fingerprint it went with (none
 * when no pulse preceded it), when it succeeded, how big the document was and whether a
 * conditional request was answered 304. A failed read forgets the fingerprint. A pulse that
 * failed before a full read that succeeded counts toward leaving the pulse document alone; one
 * before a failed full read does not (the vendor was in trouble, not its pulse document).
 */
function afterFullRead(
  v: DueVendor,
  outcome: FetchOutcome,
  at: EpochMs,
  pulsed: { readonly fingerprint: string | null; readonly failed?: string },
  sent: { etag?: string | null; lastModified?: string | null },
  ctx: PollContext,
): void {
  const s = ctx.pulses.of(v.id);
  if (outcome.kind === "failed") {
    s.fingerprint = null;
    s.failuresInRow = 0;
    return;
  }
  if (pulsed.failed !== undefined && ++s.failuresInRow >= PULSE_FAILURES_MAX) {
    brokenPulse(v, s, at, `${s.failuresInRow} pulses in a row failed (${pulsed.failed})`, ctx);
  }
  s.fingerprint = pulsed.fingerprint;
  s.lastFullAt = at;
  if (outcome.kind === "ok") {
    s.fullBytes = outcome.bytes;
    s.fullAnswers304 = false;
    s.fullValidators = Boolean(outcome.etag || outcome.lastModified);
  } else {
    s.fullAnswers304 = Boolean(sent.etag || sent.lastModified);
    if (s.fullAnswers304) s.ignoresValidators = false;
  }
}

function random(ctx: PollContext): () => number {
  return ctx.deps.random ?? Math.random;
}

function isFetchOutcome(value: unknown): value is FetchOutcome {
  return value !== null && typeof value === "object" && "kind" in value && "latencyMs" in value;
}

/** Where to poll, or the recorded result of a poll that could not get that far. */
type Target =
  | { readonly url: URL; readonly discovered: boolean; readonly fresh: boolean }
  | { readonly url: null; readonly result: PollResult };

/**
 * The URL to poll: the adapter's endpoint for the page URL; or, when the adapter needs the
 * page itself to know it (`Adapter.discovery`), the endpoint stored for the vendor, else one
 * found now in the page (read with the same polite fetch, limiter and deadline) and stored.
 * A page that cannot be read or names no endpoint fails this poll like any other failure.
 */
async function endpointOf(
  v: DueVendor,
  adapter: Adapter,
  platform: Platform,
  begin: (at: EpochMs) => void,
  ctx: PollContext,
): Promise<Target> {
  const { deps } = ctx;
  const vendor = { statusPageUrl: v.statusPageUrl, slug: v.slug };
  const discovery = adapter.discovery;
  if (!discovery?.needed(vendor)) {
    return { url: adapter.endpoint(vendor), discovered: false, fresh: false };
  }
  if (v.endpointUrl) return { url: new URL(v.endpointUrl), discovered: true, fresh: false };
  const page = new URL(v.statusPageUrl);
  let at = 0;
  const out = await ctx.limit(page.host, () => {
    at = deps.clock.now();
    begin(at);
    return politeFetch(page, ctx.fetchOptions({}));
  });
  if (ctx.aborted()) {
    return { url: null, result: { outcome: "aborted", changes: 0 } };
  }
  if (out.kind === "failed") {
    const poll = { at, latencyMs: out.latencyMs, httpStatus: out.status ?? null };
    const detail = `endpoint discovery: the status page did not load (${out.detail})`;
    return { url: null, result: await fail(v, out.reason, detail, poll, ctx) };
  }
  const found = out.kind === "ok" ? discovery.find(out.body, new URL(out.url)) : null;
  if (!found) {
    const poll = {
      at,
      latencyMs: out.latencyMs,
      httpStatus: out.kind === "ok" ? out.status : null,
    };
    const detail = `endpoint discovery: ${page.href} names no ${platform} data endpoint`;
    return { url: null, result: await fail(v, "bad_payload", detail, poll, ctx) };
  }
  await deps.store.setEndpoint(v.id, found.href);
  deps.log.info("endpoint discovered", { vendor: v.slug, endpoint: found.href });
  return { url: found, discovered: true, fresh: true };
}

/**
 * Detection got no answer at all: recorded as a failure (`network`, or why the page fetch
 * failed, e.g. `refused_address`), nothing stored.
 */
class Unreachable extends Error {
  constructor(readonly reason: ReadingErrorKind = "network", detail = "the page did not answer") {
    super(detail);
  }
}

async function platformOf(v: DueVendor, ctx: PollContext): Promise<Platform | null> {
  if (v.detectedPlatform !== null && v.detectedPlatform !== "unknown") return v.detectedPlatform;
  if (v.platform !== "unknown") return v.platform;
  if (v.detectedPlatform === "unknown") return null;
  const { platform: detected, answered } = await detectWith(v, ctx);
  // Nothing answered (offline, or shutting down): not a result; try again later.
  if (answered === 0 && detected === "unknown") throw new Unreachable();
  await ctx.deps.store.setDetectedPlatform(v.id, detected);
  ctx.deps.log.info("platform detected", { vendor: v.slug, platform: detected });
  return detected === "unknown" ? null : detected;
}

/**
 * Runs platform detection on the vendor's page with probes through the limiter and the polite
 * fetch; throws {@link Unreachable} when the page itself does not answer.
 */
async function detectWith(
  v: DueVendor,
  ctx: PollContext,
): Promise<{ platform: Platform; answered: number }> {
  const detect = ctx.deps.detect ?? detectPlatform;
  let answered = 0;
  const probe: ProbeFetch = async (u) => {
    const out = await ctx.limit(new URL(u).host, () => politeFetch(u, ctx.fetchOptions({})));
    const response = toProbe(out);
    if (response) answered++;
    // The page itself does not answer: give up now rather than probe six more paths.
    else if (answered === 0) {
      throw out.kind === "failed" && out.reason === "refused_address"
        ? new Unreachable(out.reason, out.detail)
        : new Unreachable();
    }
    return response;
  };
  let platform: Platform = "unknown";
  try {
    platform = await detect(v.statusPageUrl, probe);
  } catch (err) {
    if (err instanceof Unreachable) throw err;
    ctx.deps.log.warn("platform detection failed", { vendor: v.slug, error: String(err) });
  }
  return { platform, answered };
}

/**
 * After a failure that made the vendor due for re-detection (its platform kept missing:
 * domain/reading.ts `redetectionDue`), detects the platform again and stores what was found.
 */
async function redetectIfDue(
  v: DueVendor,
  from: Platform,
  result: PollResult,
  ctx: PollContext,
): Promise<PollResult> {
  if (!result.redetect || ctx.aborted()) return result;
  let to: Platform = "unknown";
  try {
    to = (await detectWith(v, ctx)).platform;
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
  }
  if (ctx.aborted()) return result;
  await ctx.deps.store.recordRedetection(v.id, { at: ctx.deps.clock.now(), from, to });
  ctx.deps.log.info("platform detected again", { vendor: v.slug, from, to });
  return result;
}

async function record(
  v: DueVendor,
  adapter: Adapter,
  platform: Platform,
  outcome: FetchOutcome,
  at: EpochMs,
  ctx: PollContext,
  host: string,
): Promise<PollResult> {
  const { deps, config } = ctx;
  const random = deps.random ?? Math.random;
  // Asked when needed: what this read says about the vendor's validators counts already.
  const pulsing = () => ctx.pulses.watchable(v.id, adapter, at);
  // What the next pulse compares with, stored for whichever instance sends it.
  const pulseFingerprint = ctx.pulses.of(v.id).fingerprint;
  if (outcome.kind === "not_modified") {
    const state = { ...stateOf(v), failures: 0, pulsing: pulsing() };
    await deps.store.recordNotModified(v.id, {
      pulseFingerprint,
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: 304,
      ...nextPollAt(state, at, config, random),
    });
    return { outcome: "not_modified", changes: 0 };
  }
  if (outcome.kind === "ok") {
    // The same bytes as the reading last stored (a vendor without validators): nothing to parse
    // or write, which also spares the event loop a large document read again and again.
    const digest = await digestOf(outcome.body);
    if (ctx.bodies.get(v.id) === digest && (v.etag || v.lastModified)) {
      // Asked conditionally, the same document came whole: its validators are not honoured.
      ctx.pulses.of(v.id).ignoresValidators = true;
    }
    if (ctx.bodies.get(v.id) === digest && v.currentStatus !== "UNKNOWN") {
      await deps.store.recordNotModified(v.id, {
        pulseFingerprint,
        at,
        latencyMs: outcome.latencyMs,
        httpStatus: outcome.status,
        ...nextPollAt({ ...stateOf(v), failures: 0, pulsing: pulsing() }, at, config, random),
      });
      return { outcome: "not_modified", changes: 0 };
    }
    const notes: string[] = [];
    // The adapter, then the reading limits and the plausible time range (domain/bounds.ts);
    // a large body on the parse worker (ingest/parse_worker.ts).
    const read = await ctx.parser.parse(platform, adapter, outcome.body, {
      pageUrl: new URL(v.statusPageUrl),
      fetchedAt: at,
    });
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    for (const [field, raw] of read.unknown) {
      const value = cutText(raw, 100);
      reportOnce(
        ctx,
        `${platform}|${field}|${value}`,
        () => deps.log.warn("unmapped platform value", { platform, field, value, vendor: v.slug }),
      );
    }
    for (const [path, reason] of read.dropped) {
      if (notes.length < MAX_NOTES) notes.push(cutText(`${path}: ${reason}`, 300));
      else if (notes.length === MAX_NOTES) notes.push("more items were dropped or cut");
    }
    const snapshot = read.snapshot;
    if (snapshot === null) {
      const err = read.error;
      const outcomeName = parseFailureKind(err, outcome.body);
      if (outcomeName === "parse_error" && !(err instanceof PayloadError)) {
        deps.log.error("adapter threw", { vendor: v.slug, platform, error: String(err) });
      }
      return fail(v, outcomeName, String(err instanceof Error ? err.message : err), {
        at,
        latencyMs: outcome.latencyMs,
        httpStatus: outcome.status,
      }, ctx);
    }
    // A big document took its time to parse: let waiting requests run before the write.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The same rule the store's diff applies (domain/reading_diff.ts), so the schedule and
    // the stored history agree on whether the level moved.
    const after = serviceAfterReading(v, serviceStatus(snapshot), at);
    const state = {
      status: after.status,
      hasOpenIncident: snapshot.incidents.some((i) => isOpen(i.status)),
      lastChangedAt: after.lastChangedAt,
      failures: 0,
      pulsing: pulsing(),
    };
    const changes = await deps.store.recordSuccess(v.id, snapshot, {
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: outcome.status,
      etag: outcome.etag ?? null,
      lastModified: outcome.lastModified ?? null,
      notes,
      pulseFingerprint,
      ...nextPollAt(state, at, config, random, v.deadlineAt === 0),
    });
    ctx.bodies.set(v.id, digest);
    return { outcome: "ok", changes: changes.length };
  }
  return fail(
    v,
    outcome.reason,
    outcome.detail,
    {
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: outcome.status ?? null,
    },
    ctx,
    outcome.retryAfterMs,
    host,
  );
}

/**
 * Records a failed poll. `retryAfterMs` (a vendor's `Retry-After`) also pauses every request to
 * `host` that long, and the next poll of the vendor comes no earlier.
 */
async function fail(
  v: DueVendor,
  outcome: ReadingErrorKind,
  detail: string,
  poll: { at: EpochMs; latencyMs: number; httpStatus: number | null },
  ctx: PollContext,
  retryAfterMs?: number,
  host?: string,
): Promise<PollResult> {
  const { deps, config } = ctx;
  ctx.bodies.delete(v.id);
  ctx.pulses.forgetFingerprint(v.id);
  if (retryAfterMs !== undefined && host !== undefined) ctx.limiter.pause(host, retryAfterMs);
  const state = {
    ...stateOf(v),
    failures: v.failures + 1,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  const stale = isStale(v.lastSuccessAt, intervalMs(state, poll.at, config), poll.at);
  const platformMiss = isPlatformMiss(outcome, poll.httpStatus);
  const changes = await deps.store.recordFailure(v.id, {
    ...poll,
    outcome,
    detail,
    stale,
    platformMiss,
    ...nextPollAt(state, poll.at, config, deps.random ?? Math.random),
  });
  deps.log.debug("poll failed", { vendor: v.slug, outcome, detail });
  const redetect = platformMiss &&
    redetectionDue(v.platformMisses + 1, v.redetectedAt, poll.at);
  return { outcome, changes: changes.length, redetect };
}

/**
 * SHA-256 of a body, hex. A body under {@link OFF_THREAD_BYTES} is hashed at once (about 1.5 µs
 * for a typical document; `crypto.subtle.digest` cost 35–60 µs of CPU per call, 7 % of the
 * poller's, issue #15); a larger one off the event loop.
 */
async function digestOf(body: string): Promise<string> {
  if (body.length < OFF_THREAD_BYTES) return createHash("sha256").update(body).digest("hex");
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

function toProbe(out: FetchOutcome): ProbeResponse | null {
  if (out.kind === "ok") return { status: out.status, headers: out.headers, body: out.body };
  if (out.kind === "failed" && out.status !== undefined) {
    return { status: out.status, headers: {}, body: "" };
  }
  return null;
}

function stateOf(v: DueVendor) {
  return {
    status: v.currentStatus,
    hasOpenIncident: v.hasOpenIncident,
    lastChangedAt: v.lastChangedAt,
  };
}

function reportOnce(ctx: PollContext, key: string, log: () => void): void {
  if (ctx.reported.has(key)) return;
  if (ctx.reported.size > 10_000) ctx.reported.clear();
  ctx.reported.add(key);
  log();
}
