/**
 * The adaptive poller: a 1-second croner tick asks the store for due vendors and dispatches
 * each poll through the limiter (global concurrency, per-host spacing) without waiting, so a
 * slow or broken vendor never delays the others. Policy lives in `schedule.ts`; this file
 * only orchestrates. A poll never throws: every outcome is recorded.
 * @module
 */
import { Cron } from "croner";
import type { DueVendor, EpochMs, PollerStats } from "../domain/mod.ts";
import { ADAPTERS } from "./adapters/mod.ts";
import { createDnsCache } from "./dns_cache.ts";
import { DEFAULT_MAX_BYTES } from "./http.ts";
import { createLimiter } from "./limiter.ts";
import { isFailure, isFetchOutcome, type PollContext, type PollResult } from "./poll_context.ts";
import { pollVendor } from "./poll_vendor.ts";
import { createPinnedPool, systemResolve } from "./pinned_client.ts";
import { createPulseBook } from "./pulses.ts";
import { createReadingParser } from "./parse_worker.ts";
import { createSilenceWatch } from "./silence.ts";
import type { PollerConfig, PollerDeps } from "./poller_config.ts";

export type { DetectPlatform, PollerConfig, PollerDeps } from "./poller_config.ts";

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

/**
 * Idle connections to vendors close after this long (ms). A vendor is polled about once a
 * minute, so only the reads of one poll share a connection (a pulse and the full read after it,
 * a page and the endpoint found in it); a longer idle time only keeps thousands of sockets open
 * when each vendor has a host of its own (figures in bench/README.md). Over https a poll's
 * connections close as soon as it is over (`pollReleasing`); this idle time is what is left for http.
 */
export const VENDOR_CONNECTION_IDLE_MS = 1_000;
/** Due vendors read ahead per round, as a multiple of the concurrency. */
const LOOKAHEAD_FACTOR = 16;
/** Polls in flight at once, as a multiple of the concurrency (fetches at once). */
const IN_FLIGHT_FACTOR = 4;
/**
 * The share of the polls in flight that vendors without a promised deadline (never read, or
 * after a skip) may hold while a vendor with one falls due within a poll's timeout (at other
 * times they may take every place). A first read stores a whole reading and is the slowest poll; at a fresh start of
 * 50,000 vendors they held every place, and the vendors already read, due again, waited for one
 * past their deadline (about 25,000 late polls in the first six minutes).
 */
export const FRESH_SHARE = 0.5;

/** A poll promised this vendor a deadline (the store's first queue); 0 means none yet. */
const isPromised = (v: DueVendor) => v.deadlineAt > 0;

/**
 * The read-ahead in the order its polls start: vendors with a promised deadline first, the
 * nearest deadline first, then the others in the store's order (most overdue first). The store
 * hands promised vendors out by when they fall due, down its index: a full read falls due up to
 * 30 s before its deadline and a pulse 5–6 s before its own, so at a busy moment the full read
 * would be started, and queued at its host, ahead of the pulse that has less time. Sorting the
 * few hundred read ahead costs nothing; sorting every due row in the store on each claim made
 * PostgreSQL's CPU half as much again at 50,000 vendors (docs/decisions.md).
 */
function startOrder(due: readonly DueVendor[]): DueVendor[] {
  const promised = due.filter(isPromised).sort((a, b) =>
    a.deadlineAt - b.deadlineAt || a.id - b.id
  );
  return promised.concat(due.filter((v) => !isPromised(v)));
}

/** A new poller (not started). */
export function createPoller(config: PollerConfig, deps: PollerDeps): Poller {
  const adapters = deps.adapters ?? ADAPTERS;
  const limiter = createLimiter({
    concurrency: config.concurrency,
    hostSpacingMs: deps.hostSpacingMs ?? 250,
    now: () => deps.clock.now(),
    ...(deps.onHostStart ? { onStart: deps.onHostStart } : {}),
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
  const capacity = config.concurrency * IN_FLIGHT_FACTOR;
  const freshCapacity = Math.max(1, Math.floor(capacity * FRESH_SHARE));
  /** Polls in flight of vendors without a promised deadline. */
  let freshInFlight = 0;
  /**
   * A vendor with a promised deadline falls due within a poll's timeout (asked every round):
   * then first reads keep to their share, so those polls find a place.
   */
  let promiseNear = false;
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
    lastMissAt: null as EpochMs | null,
    lastMissByMs: null as number | null,
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
    groupNames: new Map(),
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
      if (isPromised(v) && at > v.deadlineAt) {
        counts.missedDeadlines++;
        counts.lastMissAt = at;
        counts.lastMissByMs = at - v.deadlineAt;
      }
    },
  };

  /**
   * One poll, whose idle https connections close as soon as it is over: the next request to a
   * vendor's host is its next poll, about a minute later (kept for the idle time
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
  /** Due vendors read from the store and not started yet, in {@link startOrder}. */
  let buffer: DueVendor[] = [];
  /** The last read filled the buffer: more may be due behind it. */
  let bufferFull = false;
  const dispatch = (isRound = true): Promise<Promise<PollResult>[]> => {
    const run = dispatching.then(() => dispatchNow(isRound));
    dispatching = run.catch(() => {});
    return run;
  };

  /**
   * Takes up to `room` vendors to start from the buffer, in its order (promised ones first), and
   * leaves in it those that must wait: vendors without a promised deadline once they hold their
   * share of the polls in flight ({@link FRESH_SHARE}) while a promise is near, and all past
   * `room`.
   */
  const takeStartable = (room: number): DueVendor[] => {
    const take: DueVendor[] = [];
    const wait: DueVendor[] = [];
    let freshRoom = promiseNear ? freshCapacity - freshInFlight : room;
    let i = 0;
    for (; i < buffer.length && take.length < room; i++) {
      const v = buffer[i]!;
      if (pending.has(v.id)) continue;
      if (isPromised(v)) take.push(v);
      else if (freshRoom > 0) {
        freshRoom--;
        take.push(v);
      } else wait.push(v);
    }
    buffer = i < buffer.length ? wait.concat(buffer.slice(i)) : wait;
    return take;
  };

  const dispatchNow = async (isRound: boolean): Promise<Promise<PollResult>[]> => {
    const now = deps.clock.now();
    if (isRound) {
      lastRoundAt = now;
      counts.rounds++;
      const promised = await deps.store.nextPromisedAt();
      promiseNear = promised !== null && promised <= now + config.timeoutMs;
    }
    const room = capacity - pending.size;
    if (room <= 0) return [];
    // Due vendors are read ahead: asking the store again after every finished
    // poll was a third of the poller's CPU. The buffer is read again every round.
    if (isRound || buffer.length === 0) {
      const lookahead = config.concurrency * LOOKAHEAD_FACTOR;
      buffer = startOrder(
        (await deps.store.claimDue(now, lookahead + pending.size)).filter((v) =>
          !pending.has(v.id)
        ),
      );
      bufferFull = buffer.length >= lookahead;
    }
    const due = takeStartable(room);
    saturated = buffer.length > 0 || bufferFull;
    const started = due.map((v) => {
      const fresh = !isPromised(v);
      if (fresh) freshInFlight++;
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
        if (fresh) freshInFlight--;
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
