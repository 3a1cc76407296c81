/**
 * The server says in its log whether it can see the vendors: a warning with the cause and the fix
 * when most reads fail (offline, DNS, a proxy in the way), repeated every
 * {@link BLIND_REPEAT_MS} while it lasts and followed by one line when reads work again; and a
 * reading-health summary at info level every {@link SUMMARY_EVERY_MS}. `check(now)` does the
 * work; `start` calls it every {@link CHECK_EVERY_MS}.
 * @module
 */
import {
  blindAdvice,
  type EpochMs,
  type PollerStats,
  reasonWords,
  type Sight,
  sightOf,
} from "../domain/mod.ts";
import type { Logger } from "../log.ts";

/** How often the counters are read. */
export const CHECK_EVERY_MS = 60_000;
/** How often a lasting blindness is said again. */
export const BLIND_REPEAT_MS = 10 * 60_000;
/** How often the reading-health summary is logged. */
export const SUMMARY_EVERY_MS = 5 * 60_000;

/** The log of what statusd sees. */
export interface SightLog {
  /** Reads the counters at `now` and logs what is due. */
  check(now: EpochMs): void;
  /** Checks every {@link CHECK_EVERY_MS} until `stop`. */
  start(): void;
  stop(): void;
}

/** A sight log over `stats` (the poller's counters), writing to `log`. */
export function createSightLog(stats: () => PollerStats, log: Logger): SightLog {
  let last = stats();
  let summaryFrom = last;
  let summaryAt: EpochMs | null = null;
  let blindSince: EpochMs | null = null;
  let warnedAt: EpochMs | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const warn = (sight: Sight, now: EpochMs) => {
    const cause = sight.reasons[0]?.kind;
    log.warn("most vendor reads fail: statusd cannot see the vendors", {
      failed: sight.failures,
      polls: sight.polls,
      reasons: reasonWords(sight),
      fix: blindAdvice(cause),
      blindSince: new Date(blindSince ?? now).toISOString(),
    });
    warnedAt = now;
  };
  return {
    check(now) {
      const current = stats();
      const sight = sightOf(last, current);
      last = current;
      if (sight.blind) {
        blindSince ??= now;
        if (warnedAt === null || now - warnedAt >= BLIND_REPEAT_MS) warn(sight, now);
      } else if (sight.polls >= 1 && sight.failures < sight.polls / 2 && blindSince !== null) {
        log.info("vendor reads work again", {
          blindFor: `${Math.round((now - blindSince) / 60_000)} min`,
        });
        blindSince = null;
        warnedAt = null;
      }
      if (summaryAt === null) {
        summaryAt = now;
        summaryFrom = current;
      } else if (now - summaryAt >= SUMMARY_EVERY_MS) {
        const period = sightOf(summaryFrom, current);
        log.info("reading health", {
          minutes: Math.round((now - summaryAt) / 60_000),
          polls: period.polls,
          ok: period.ok,
          unchanged: period.notModified,
          failed: period.failures,
          ...(period.reasons.length ? { reasons: reasonWords(period) } : {}),
          changes: period.changes,
        });
        summaryFrom = current;
        summaryAt = now;
      }
    },
    start() {
      timer ??= setInterval(() => this.check(Date.now()), CHECK_EVERY_MS);
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
