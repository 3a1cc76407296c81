/**
 * Pure polling policy (DESIGN §6): who is moving, when to poll next, backoff, jitter and
 * staleness. No I/O, no clock: every rule takes `now` and a random source explicitly.
 * @module
 */
import type { EpochMs, StatusLevel } from "../domain/mod.ts";
import { MINUTE_MS, STALE_INTERVALS } from "../domain/mod.ts";

/** How long after a change of status a vendor still counts as moving. */
export const MOVING_WINDOW_MS = 30 * MINUTE_MS;

/** Data older than this many intervals reads UNKNOWN (the rule lives in domain/reading.ts). */
export { STALE_INTERVALS };

/**
 * Jitter pulls the next poll earlier than its deadline by 5–10 % of the interval, so polls
 * spread out and a 1 s tick still starts each one before its deadline.
 */
export const JITTER_MIN_FRACTION = 0.05;
/** Upper end of the jitter, as a fraction of the interval. */
export const JITTER_MAX_FRACTION = 0.1;

/**
 * The least time between a vendor falling due and its deadline (ms): the tick (1 s), the claim
 * and a busy moment's wait for a place must fit in it. 5 % of a 60 s interval is 3 s, and at
 * 50,000 vendors on five instances a few polls in 275,000 started after their deadline with that
 * much (docs/decisions.md).
 */
export const MIN_SLACK_MS = 5_000;
/**
 * The floor never pulls a poll earlier than this fraction of its interval: a self-hoster's short
 * interval is not polled much more often than asked; its deadline is then closer than the floor.
 */
export const SLACK_FLOOR_MAX_FRACTION = 0.25;

/**
 * After a vendor's first poll (all vendors start due at once) the next one may come up to half
 * an interval early, so a fresh start's burst spreads out instead of repeating every interval.
 */
export const SPREAD_MAX_FRACTION = 0.5;

/** The intervals, in seconds (a slice of PollConfig). */
export interface ScheduleConfig {
  readonly movingSeconds: number;
  readonly stableSeconds: number;
  /**
   * Interval of the pulses that watch a calm vendor between its full reads; 0 or
   * absent: no pulses, a calm vendor is read every `stableSeconds`.
   */
  readonly pulseSeconds?: number;
}

/** What the schedule needs to know about a vendor. */
export interface ScheduleState {
  readonly status: StatusLevel;
  readonly hasOpenIncident: boolean;
  /** Last change of the service-level status, or null if it never changed. */
  readonly lastChangedAt: EpochMs | null;
  /** Consecutive failed polls (0 after a success). */
  readonly failures: number;
  /** A calm vendor watched by pulses between full reads: polled every pulse interval. */
  readonly pulsing?: boolean;
  /** After a failure: how long the vendor asked statusd to wait (`Retry-After`, ms). */
  readonly retryAfterMs?: number;
}

/** When to poll next: `nextPollAt` (jittered, earlier) and `deadlineAt` (the promise). */
export interface NextPoll {
  readonly nextPollAt: EpochMs;
  readonly deadlineAt: EpochMs;
}

/** Moving = not OPERATIONAL, or an open incident, or a change in the last 30 minutes. */
export function isMoving(state: Omit<ScheduleState, "failures">, now: EpochMs): boolean {
  if (state.status !== "OPERATIONAL" || state.hasOpenIncident) return true;
  return state.lastChangedAt !== null && now - state.lastChangedAt < MOVING_WINDOW_MS;
}

/** The regular interval (ms) for a vendor in `state`: moving or stable. */
export function intervalMs(
  state: Omit<ScheduleState, "failures">,
  now: EpochMs,
  config: ScheduleConfig,
): number {
  return (isMoving(state, now) ? config.movingSeconds : config.stableSeconds) * 1000;
}

/**
 * Delay after the `failures`-th consecutive failure: the moving interval doubled per extra
 * failure, capped at the stable interval (a broken vendor is never polled less often than a
 * calm one, so its recovery is seen within one stable interval).
 */
export function backoffMs(failures: number, config: ScheduleConfig): number {
  const base = config.movingSeconds * 1000;
  const cap = Math.max(config.stableSeconds, config.movingSeconds) * 1000;
  if (failures <= 0) return base;
  return Math.min(cap, base * 2 ** Math.min(failures - 1, 30));
}

/** The pulse interval (ms), or 0 when pulses are off. */
export function pulseMs(config: ScheduleConfig): number {
  const seconds = config.pulseSeconds ?? 0;
  return seconds > 0 ? Math.min(seconds, config.stableSeconds) * 1000 : 0;
}

/**
 * Next poll after a poll that started at `now`: the moving interval, the pulse interval for a
 * calm vendor watched by pulses, or the stable interval; after a failure (`state.failures > 0`)
 * the backoff, or the wait the vendor asked for (`retryAfterMs`) when longer. That is the
 * deadline. The vendor falls due earlier by the jitter, and by at least {@link MIN_SLACK_MS}
 * (capped for short intervals). A poll is never due earlier than the vendor asked; its deadline
 * is then the floor after it (a deadline equal to the time a vendor falls due is missed by
 * every tick). `random` is in [0, 1); `spread` widens the jitter (first poll of a vendor).
 */
export function nextPollAt(
  state: ScheduleState,
  now: EpochMs,
  config: ScheduleConfig,
  random: () => number = Math.random,
  spread = false,
): NextPoll {
  const moving = isMoving(state, now);
  const delay = state.failures > 0
    ? backoffMs(state.failures, config)
    : !moving && state.pulsing && pulseMs(config) > 0
    ? pulseMs(config)
    : intervalMs(state, now, config);
  const max = spread ? SPREAD_MAX_FRACTION : JITTER_MAX_FRACTION;
  const jitter = delay * (JITTER_MIN_FRACTION + (max - JITTER_MIN_FRACTION) * random());
  const floor = Math.min(MIN_SLACK_MS, delay * SLACK_FLOOR_MAX_FRACTION);
  const asked = state.failures > 0 ? state.retryAfterMs ?? 0 : 0;
  const due = Math.max(asked, Math.round(delay - Math.max(jitter, floor)));
  return { nextPollAt: now + due, deadlineAt: now + Math.max(delay, due + Math.round(floor)) };
}

/**
 * Whether a calm vendor watched by pulses is due a full read now rather than a pulse: when it
 * was never fully read, or its last full read (`lastFullAt`) is old enough that the next pulse
 * would come after a stable interval has passed. So a full read happens at least once per
 * stable interval, whatever the pulses say.
 */
export function fullReadDue(
  lastFullAt: EpochMs | null,
  now: EpochMs,
  config: ScheduleConfig,
): boolean {
  if (lastFullAt === null) return true;
  return now - lastFullAt >= config.stableSeconds * 1000 - pulseMs(config);
}

/**
 * True when the last good data is older than three intervals (or there never was any):
 * the service then reads UNKNOWN.
 */
export function isStale(lastSuccessAt: EpochMs | null, interval: number, now: EpochMs): boolean {
  return lastSuccessAt === null || now - lastSuccessAt > STALE_INTERVALS * interval;
}
