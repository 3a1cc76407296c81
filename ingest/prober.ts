/**
 * statusd's own eyes: once a minute, each vendor in scope (monitored ones by default) has its
 * public endpoints probed, with the poller's politeness (at most a few requests at once, 250 ms
 * between two starts against one host, `Retry-After` honoured) and address rules (the private
 * address guard on every hop, connections pinned to the address checked), each probe waited on
 * at most 5 s. Rounds are claimed
 * from the store, so instances sharing a database never probe a vendor twice in one interval.
 * Each round's verdicts, the members' reports and the vendor's own reading go through the pure
 * `stepWarning`; when many unrelated vendors fail together the fault is statusd's own network,
 * and no vendor is warned.
 * @module
 */
import { Cron } from "croner";
import {
  type Clock,
  type EpochMs,
  isFailingRound,
  isLocalOutage,
  type ProbeDue,
  type ProberStats,
  type ProbeScope,
  type WarningEpisode,
  type WarningEvent,
  type WarningStore,
  warningWords,
} from "../domain/mod.ts";
import type { AddressAllowance, ProxySettings } from "../lib/mod.ts";
import type { Logger } from "../log.ts";
import { createDnsCache, type Resolve } from "./dns_cache.ts";
import { type FetchOptions, politeFetch } from "./http.ts";
import { createLimiter } from "./limiter.ts";
import { createPinnedPool, systemResolve } from "./pinned_client.ts";
import { probeTargetsOf, roundOf, verdictOf } from "./probe_targets.ts";
import { type RoundedVendor, stepVendorWarning } from "./warning_step.ts";

/** Settings of the prober. */
export interface ProberConfig {
  /** `STATUSD_PROBES`: monitored vendors (default), all, or off. */
  readonly scope: ProbeScope;
  /** Time between two rounds of one vendor (ms); a minute in production. */
  readonly intervalMs: number;
  /** Whole request (ms). */
  readonly timeoutMs: number;
  /** Non-public addresses probes may reach (`STATUSD_ALLOW_PRIVATE_VENDORS`). */
  readonly allowPrivate?: AddressAllowance;
  /** Extra root certificates (PEM) trusted for https (tests). */
  readonly caCerts?: readonly string[];
  /** The proxies requests go through. */
  readonly proxy?: ProxySettings;
}

/** What the prober is handed. */
export interface ProberDeps {
  readonly store: WarningStore;
  readonly clock: Clock;
  readonly log: Logger;
  /** The probes of a vendor, in place of those its catalog entry stored (tests). */
  readonly catalogProbes?: (slug: string) => readonly string[] | undefined;
  /** Looks host names up (tests); the system resolver by default. */
  readonly resolve?: Resolve;
  /** Minimum time between two requests to one host (ms); 250 by default. */
  readonly hostSpacingMs?: number;
  /** croner pattern of the tick; every 5 seconds by default. */
  readonly tickPattern?: string;
  /** Told of every warning event after it is stored. */
  readonly onEvent?: (slug: string, event: WarningEvent, episode: WarningEpisode) => void;
}

/** A running prober. */
export interface Prober {
  start(): void;
  /** Stops the tick and waits for the round in flight. */
  stop(): Promise<void>;
  /** Runs one round of every vendor due now (tests drive rounds with it). */
  runOnce(): Promise<number>;
  stats(): ProberStats;
}

/** Vendors claimed per round at most. */
const CLAIM_LIMIT = 500;
/** Requests at once, overall. */
const CONCURRENCY = 32;
/**
 * Longest wait for one probe (ms), whatever the poll timeout: a round of many unanswered probes
 * (statusd's own network down) must end within the minute's next rounds, not wait out 10 s each.
 */
const PROBE_TIMEOUT_MAX_MS = 5_000;
/** Largest body read of a probe's answer: only whether it answered matters. */
const PROBE_MAX_BYTES = 64 * 1024;
/** How far back vendors' verdicts count when judging a local outage. */
const LOCAL_WINDOW_MS = 90_000;

/** A new prober (not started). */
export function createProber(config: ProberConfig, deps: ProberDeps): Prober {
  const limiter = createLimiter({
    concurrency: CONCURRENCY,
    hostSpacingMs: deps.hostSpacingMs ?? 250,
    now: () => deps.clock.now(),
  });
  const pool = createPinnedPool({ caCerts: config.caCerts, idleMs: 1_000, proxy: config.proxy });
  // A minute, not the poller's five: a vendor's DNS trouble is part of what probes look for.
  const dns = createDnsCache({
    resolve: deps.resolve ?? systemResolve,
    ttlMs: 60_000,
    now: () => deps.clock.now(),
  });
  const abort = new AbortController();
  /** Each vendor's latest verdict (failing or not) and when, for the local-outage judgement. */
  const recent = new Map<number, { at: EpochMs; failing: boolean }>();
  const refusedLogged = new Set<string>();
  let job: Cron | null = null;
  const counts = { rounds: 0, probes: 0, failedProbes: 0, suspected: 0 };
  let lastRoundAt: EpochMs | null = null;
  let localOutage: ProberStats["localOutage"] = null;
  const open = new Set<number>();

  /** Every probe's fetch options: the same for all, made once. */
  const fetchOptions: FetchOptions = {
    timeoutMs: Math.min(config.timeoutMs, PROBE_TIMEOUT_MAX_MS),
    maxBytes: PROBE_MAX_BYTES,
    maxRedirects: 3,
    allowPrivate: config.allowPrivate,
    signal: abort.signal,
    pool,
    resolve: dns.resolve,
    forgetHost: dns.forget,
    now: () => deps.clock.now(),
  };

  async function probe(url: string) {
    const host = new URL(url).host;
    const outcome = await limiter.run(host, () => politeFetch(url, fetchOptions));
    if (outcome.kind === "failed" && outcome.retryAfterMs !== undefined) {
      limiter.pause(host, outcome.retryAfterMs);
    }
    const verdict = verdictOf(outcome);
    if (verdict === "refused" && !refusedLogged.has(url)) {
      refusedLogged.add(url);
      deps.log.warn("probe target refused", {
        url,
        detail: outcome.kind === "failed" ? outcome.detail : "",
      });
    }
    counts.probes++;
    if (verdict === "down") counts.failedProbes++;
    return { url, verdict };
  }

  async function stepVendor(v: ProbeDue, now: EpochMs, local: boolean, r: RoundedVendor) {
    const { step, told } = await stepVendorWarning(deps.store, v, now, local, r);
    const e = step.state.episode;
    if (e !== null && e.clearedAt === null) open.add(v.vendorId);
    else open.delete(v.vendorId);
    for (const { event, episode } of told) {
      deps.log.info(`early warning ${event}`, { service: v.slug, words: warningWords(episode) });
      deps.onEvent?.(v.slug, event, episode);
    }
  }

  async function round(): Promise<number> {
    const now = deps.clock.now();
    const due = await deps.store.claimDue(
      now,
      CLAIM_LIMIT,
      config.scope === "off" ? "monitored" : config.scope,
      config.intervalMs,
    );
    if (due.length === 0) return 0;
    const rounded = await Promise.all(due.map(async (v): Promise<RoundedVendor> => {
      const targets = probeTargetsOf(v, deps.catalogProbes?.(v.slug) ?? v.probes);
      if (targets.length === 0) return { round: null, answered: {}, lastAnswers: {} };
      const verdicts = await Promise.all(targets.map(probe));
      const r = roundOf(verdicts, v.answered, now, v.lastAnswers);
      return {
        round: r.total === 0
          ? null
          : { at: now, total: r.total, failed: r.failed, failing: r.failing },
        answered: r.answered,
        lastAnswers: r.lastAnswers,
      };
    }));
    if (abort.signal.aborted) return 0;
    due.forEach((v, i) => {
      const r = rounded[i]!.round;
      if (r !== null) recent.set(v.vendorId, { at: now, failing: isFailingRound(r) });
    });
    for (const [id, seen] of recent) if (now - seen.at > LOCAL_WINDOW_MS) recent.delete(id);
    const failing = [...recent.values()].filter((s) => s.failing).length;
    const local = isLocalOutage(recent.size, failing);
    if (local && localOutage === null) {
      localOutage = { since: now, failing, probed: recent.size };
      deps.log.warn(
        "probes of many unrelated vendors fail together: statusd's own network seems at fault; no vendor is warned meanwhile",
        { failing, probed: recent.size },
      );
    } else if (local) {
      localOutage = { ...localOutage!, failing, probed: recent.size };
    } else if (localOutage !== null) {
      deps.log.info("probes answer again: statusd's own network is back", {
        since: new Date(localOutage.since).toISOString(),
      });
      localOutage = null;
    }
    for (let i = 0; i < due.length; i++) {
      try {
        await stepVendor(due[i]!, now, local, rounded[i]!);
      } catch (err) {
        deps.log.error("early warning step failed", { service: due[i]!.slug, error: String(err) });
      }
    }
    counts.rounds++;
    counts.suspected = open.size;
    lastRoundAt = now;
    return due.length;
  }

  /** Rounds run one after the other: each sees the claims of the one before. */
  let chain: Promise<unknown> = Promise.resolve();
  function runOnce(): Promise<number> {
    const run = chain.then(round);
    chain = run.catch(() => {});
    return run;
  }

  return {
    start() {
      if (config.scope === "off" || job !== null) return;
      job = new Cron(deps.tickPattern ?? "*/5 * * * * *", { protect: true }, async () => {
        try {
          await runOnce();
        } catch (err) {
          deps.log.error("probe round failed", { error: String(err) });
        }
      });
      runOnce().catch((err) => deps.log.error("probe round failed", { error: String(err) }));
    },
    async stop() {
      job?.stop();
      job = null;
      abort.abort();
      await chain;
      pool.close();
    },
    runOnce,
    stats: () => ({
      scope: config.scope,
      rounds: counts.rounds,
      probes: counts.probes,
      failedProbes: counts.failedProbes,
      lastRoundAt,
      suspected: counts.suspected,
      localOutage,
    }),
  };
}
