/**
 * Counting attempts per key (a client address, an account's email) in fixed windows, in bounded
 * memory. Pure bookkeeping: the caller passes `now`. Shared by the per-address request limits
 * and the per-account sign-in lockout.
 * @module
 */

/** How many attempts one key may make per window, and how many keys are remembered. */
export interface AttemptRule {
  /** Attempts one key may make per window. */
  readonly limit: number;
  /** Window length (ms); a key's window starts at its first attempt. */
  readonly windowMs: number;
  /** Keys remembered at most (memory bound); see {@link AttemptCounter} for who is forgotten. */
  readonly maxKeys: number;
}

interface Window {
  readonly start: number;
  count: number;
}

/**
 * Attempt counts per key. When `maxKeys` is reached, expired windows are forgotten first, then
 * the oldest key that is still allowed: a key being refused stays refused however many other
 * keys arrive (so a flood from other addresses cannot reset it), and nothing is ever cleared
 * all at once.
 *
 * Callers that count only failures `take` an attempt before the work (so concurrent attempts
 * count at once) and `refund` it when the attempt succeeded.
 *
 * @example
 * ```ts
 * const c = new AttemptCounter({ limit: 1, windowMs: 1000, maxKeys: 10 });
 * c.take("a", 0); // 0: allowed
 * c.take("a", 10); // 990: refused for 990 ms more
 * ```
 */
export class AttemptCounter {
  readonly #windows = new Map<string, Window>();

  constructor(readonly rule: AttemptRule) {}

  /**
   * Counts one attempt by `key` at `now`. Returns 0 when allowed; otherwise the ms until the key
   * may try again (a refused attempt is not counted).
   */
  take(key: string, now: number): number {
    const w = this.#current(key, now);
    if (w.count >= this.rule.limit) return Math.max(1, w.start + this.rule.windowMs - now);
    w.count++;
    return 0;
  }

  /** Gives back one attempt `key` took in its current window (it succeeded, so it does not count). */
  refund(key: string, now: number): void {
    const w = this.#windows.get(key);
    if (w && now - w.start < this.rule.windowMs && w.count > 0) w.count--;
  }

  /** Forgets the windows that started before `before`; how many went. */
  prune(before: number): number {
    let n = 0;
    for (const [key, w] of this.#windows) {
      if (w.start < before) {
        this.#windows.delete(key);
        n++;
      }
    }
    return n;
  }

  /** Number of keys remembered now (at most `maxKeys`). */
  get size(): number {
    return this.#windows.size;
  }

  #current(key: string, now: number): Window {
    const known = this.#windows.get(key);
    if (known && now - known.start < this.rule.windowMs) return known;
    if (known) this.#windows.delete(key);
    else this.#makeRoom(now);
    // Re-inserted, so the map's order is the order windows started in: oldest first.
    const fresh: Window = { start: now, count: 0 };
    this.#windows.set(key, fresh);
    return fresh;
  }

  #makeRoom(now: number): void {
    if (this.#windows.size < this.rule.maxKeys) return;
    for (const [key, w] of this.#windows) {
      if (now - w.start < this.rule.windowMs) break;
      this.#windows.delete(key);
    }
    if (this.#windows.size < this.rule.maxKeys) return;
    for (const [key, w] of this.#windows) {
      if (w.count < this.rule.limit) {
        this.#windows.delete(key);
        return;
      }
    }
    // Every remembered key is being refused: forget the oldest one.
    const oldest = this.#windows.keys().next();
    if (!oldest.done) this.#windows.delete(oldest.value);
  }
}
