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

/** A new limiter. */
export function createLimiter(options: LimiterOptions): Limiter {
  const queue: Waiting[] = [];
  const hostReadyAt = new Map<string, number>();
  let active = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const pump = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    const now = performance.now();
    let earliest = Infinity;
    const busyHosts = new Set<string>();
    for (let i = 0; i < queue.length && active < options.concurrency;) {
      const w = queue[i]!;
      const readyAt = hostReadyAt.get(w.host) ?? 0;
      if (busyHosts.has(w.host) || readyAt > now) {
        if (readyAt > now) earliest = Math.min(earliest, readyAt);
        busyHosts.add(w.host);
        i++;
        continue;
      }
      queue.splice(i, 1);
      if (options.hostSpacingMs > 0) {
        hostReadyAt.set(w.host, now + options.hostSpacingMs);
        busyHosts.add(w.host);
      }
      active++;
      w.start();
    }
    if (hostReadyAt.size > 1000) {
      for (const [host, at] of hostReadyAt) if (at <= now) hostReadyAt.delete(host);
    }
    if (earliest < Infinity && active < options.concurrency) {
      timer = setTimeout(pump, Math.max(1, Math.ceil(earliest - now)));
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
      const until = performance.now() + ms;
      if ((hostReadyAt.get(host) ?? 0) < until) hostReadyAt.set(host, until);
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
