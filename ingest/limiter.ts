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

interface Waiting {
  readonly host: string;
  readonly start: () => void;
}

/** Longest sleep before a paused host is looked at again (its pause is on the wall clock). */
const MAX_WAKE_MS = 60_000;

/** A new limiter. */
export function createLimiter(options: LimiterOptions): Limiter {
  const queue: Waiting[] = [];
  const hostReadyAt = new Map<string, number>();
  const pausedUntil = new Map<string, number>();
  const clock = options.now ?? Date.now;
  let active = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When `timer` fires (performance.now()); Infinity when none is set. */
  let timerAt = Infinity;
  const wake = () => {
    timer = undefined;
    timerAt = Infinity;
    pump();
  };

  const pump = () => {
    const now = performance.now();
    const wall = pausedUntil.size > 0 ? clock() : 0;
    let earliest = Infinity;
    // Hosts passed over in this pass: later tasks for them wait too (order per host is kept).
    let busyHosts: Set<string> | undefined;
    for (let i = 0; i < queue.length && active < options.concurrency;) {
      const w = queue[i]!;
      const pause = pausedUntil.get(w.host);
      if (pause !== undefined && pause <= wall) pausedUntil.delete(w.host);
      else if (pause !== undefined) {
        earliest = Math.min(earliest, now + Math.min(pause - wall, MAX_WAKE_MS));
        (busyHosts ??= new Set()).add(w.host);
        i++;
        continue;
      }
      const readyAt = hostReadyAt.get(w.host) ?? 0;
      if (readyAt > now || busyHosts?.has(w.host)) {
        if (readyAt > now) earliest = Math.min(earliest, readyAt);
        (busyHosts ??= new Set()).add(w.host);
        i++;
        continue;
      }
      queue.splice(i, 1);
      if (options.hostSpacingMs > 0) {
        // Later tasks for this host see its ready time and wait.
        hostReadyAt.set(w.host, now + options.hostSpacingMs);
      }
      active++;
      w.start();
    }
    if (hostReadyAt.size > 1000) {
      for (const [host, at] of hostReadyAt) if (at <= now) hostReadyAt.delete(host);
    }
    // The timer is set again only when something is ready sooner than it fires (a timer set
    // and cleared on every start and finish was a share of the poller's CPU, issue #15); one
    // that fires early finds nothing ready and sets itself for later.
    if (queue.length === 0 && timer !== undefined) {
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
        queue.push({
          host,
          start: () => {
            task().then(resolve, reject).finally(() => {
              active--;
              pump();
            });
          },
        });
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
      return queue.length;
    },
  };
}
