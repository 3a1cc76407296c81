/**
 * Keeps polling polite: at most `concurrency` tasks at once overall, and successive starts
 * against one host at least `hostSpacingMs` apart. A task waiting for its host never holds a
 * slot, so a crowded host never delays tasks for other hosts.
 * @module
 */

/** Options of {@link createLimiter}. */
export interface LimiterOptions {
  /** Tasks running at once, overall. */
  readonly concurrency: number;
  /** Minimum time between starts against the same host (ms). */
  readonly hostSpacingMs: number;
  /**
   * The clock pauses are measured on (epoch ms; the poller's, so tests drive them with a fake
   * clock); `Date.now` by default. Spacing is measured on the monotonic clock.
   */
  readonly now?: () => number;
  /**
   * Told of every start: the host and the monotonic time the spacing is measured on (tests
   * check the spacing on the limiter's own clock, not on arrival times).
   */
  readonly onStart?: (host: string, at: number) => void;
}

/** A running limiter. */
export interface Limiter {
  /** Runs `task` when a slot is free and `host` is ready; resolves with its result. */
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
  /**
   * Starts nothing more against `host` for `ms` (a vendor asked to be left alone with
   * `Retry-After`); a longer pause already in force is kept.
   */
  pause(host: string, ms: number): void;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot or for their host. */
  readonly queued: number;
}

/** The tasks waiting for one host, oldest first. */
interface Lane {
  readonly host: string;
  readonly tasks: (() => void)[];
  /** When the next task may start (performance.now()): the last start plus the spacing. */
  readyAt: number;
}

/** Longest sleep before a paused host is looked at again (its pause is on the wall clock). */
const MAX_WAKE_MS = 60_000;

/**
 * A new limiter. Each host's tasks wait in their own lane; lanes that may start now wait in one
 * queue in the order they became ready, lanes held by the spacing in a heap by ready time, and
 * paused lanes apart. A start costs the same however many tasks wait (scanning one
 * queue of every waiting task on each start and finish took 68 steps per start in the poller
 * bench).
 */
export function createLimiter(options: LimiterOptions): Limiter {
  const lanes = new Map<string, Lane>();
  /** Lanes with a task that may start now (their spacing is over), oldest first. */
  const ready: Lane[] = [];
  /** Lanes with a task waiting for their spacing: a binary heap by `readyAt`. */
  const spaced: Lane[] = [];
  /** Lanes with a task, held by a pause. */
  const held = new Set<Lane>();
  /** Ready times of hosts with no task waiting, until they pass (so a new task still waits). */
  const hostReadyAt = new Map<string, number>();
  const pausedUntil = new Map<string, number>();
  const clock = options.now ?? Date.now;
  let active = 0;
  let queued = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When `timer` fires (performance.now()); Infinity when none is set. */
  let timerAt = Infinity;
  const wake = () => {
    timer = undefined;
    timerAt = Infinity;
    pump();
  };

  const heapPush = (lane: Lane) => {
    spaced.push(lane);
    for (let i = spaced.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (spaced[up]!.readyAt <= lane.readyAt) break;
      spaced[i] = spaced[up]!;
      spaced[up] = lane;
      i = up;
    }
  };
  const heapPop = (): Lane => {
    const top = spaced[0]!;
    const last = spaced.pop()!;
    if (spaced.length > 0) {
      spaced[0] = last;
      for (let i = 0;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < spaced.length && spaced[l]!.readyAt < spaced[m]!.readyAt) m = l;
        if (r < spaced.length && spaced[r]!.readyAt < spaced[m]!.readyAt) m = r;
        if (m === i) break;
        spaced[i] = spaced[m]!;
        spaced[m] = last;
        i = m;
      }
    }
    return top;
  };
  /**
   * When a paused host is looked at again (performance.now()), or null when it is not paused (a
   * pause that has ended is dropped).
   */
  const pausedWake = (host: string, now: number): number | null => {
    const pause = pausedUntil.get(host);
    if (pause === undefined) return null;
    const wall = clock();
    if (pause > wall) return now + Math.min(pause - wall, MAX_WAKE_MS);
    pausedUntil.delete(host);
    return null;
  };
  /** Puts a lane that has a task where it waits: ready, spaced or held. */
  const place = (lane: Lane, now: number) => {
    if (pausedUntil.has(lane.host)) held.add(lane);
    else if (lane.readyAt > now) heapPush(lane);
    else ready.push(lane);
  };

  const pump = () => {
    const now = performance.now();
    let earliest = Infinity;
    for (const lane of held) {
      const wake = pausedWake(lane.host, now);
      if (wake !== null) {
        earliest = Math.min(earliest, wake);
        continue;
      }
      held.delete(lane);
      place(lane, now);
    }
    while (spaced.length > 0 && spaced[0]!.readyAt <= now) ready.push(heapPop());
    while (active < options.concurrency && ready.length > 0) {
      const lane = ready.shift()!;
      // Paused after it was placed.
      const wake = pausedWake(lane.host, now);
      if (wake !== null) {
        held.add(lane);
        earliest = Math.min(earliest, wake);
        continue;
      }
      const start = lane.tasks.shift()!;
      queued--;
      lane.readyAt = now + options.hostSpacingMs;
      if (lane.tasks.length > 0) place(lane, now);
      else {
        lanes.delete(lane.host);
        if (options.hostSpacingMs > 0) hostReadyAt.set(lane.host, lane.readyAt);
      }
      active++;
      options.onStart?.(lane.host, now);
      start();
    }
    if (hostReadyAt.size > 1000) {
      for (const [host, at] of hostReadyAt) if (at <= now) hostReadyAt.delete(host);
    }
    if (spaced.length > 0) earliest = Math.min(earliest, spaced[0]!.readyAt);
    // The timer is set again only when something is ready sooner than it fires (a timer set
    // and cleared on every start and finish was a share of the poller's CPU); one
    // that fires early finds nothing ready and sets itself for later.
    if (queued === 0 && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
    } else if (earliest < Infinity && active < options.concurrency && earliest < timerAt) {
      clearTimeout(timer);
      const delay = Math.max(1, Math.ceil(earliest - now));
      timerAt = now + delay;
      timer = setTimeout(wake, delay);
    }
  };

  return {
    run<T>(host: string, task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          task().then(resolve, reject).finally(() => {
            active--;
            pump();
          });
        };
        queued++;
        const lane = lanes.get(host);
        if (lane) {
          lane.tasks.push(start);
        } else {
          const fresh: Lane = { host, tasks: [start], readyAt: hostReadyAt.get(host) ?? 0 };
          hostReadyAt.delete(host);
          lanes.set(host, fresh);
          place(fresh, performance.now());
        }
        pump();
      });
    },
    pause(host: string, ms: number) {
      const until = clock() + ms;
      if ((pausedUntil.get(host) ?? 0) < until) pausedUntil.set(host, until);
      pump();
    },
    get active() {
      return active;
    },
    get queued() {
      return queued;
    },
  };
}
