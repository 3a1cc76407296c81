/**
 * Notices when no vendor has answered for a while (every poll failing without any HTTP answer:
 * no route out, DNS down, outbound HTTPS blocked) and says so in the log once, at `warn`, and
 * once again, at `info`, when vendors answer again.
 * @module
 */
import type { EpochMs } from "../domain/mod.ts";
import { MINUTE_MS } from "../domain/mod.ts";
import type { Logger } from "../log.ts";

/** How long without any answer before the warning. */
export const SILENCE_WARN_MS = 5 * MINUTE_MS;

/** Poll outcomes in which the vendor's server never answered over HTTP. */
const NO_ANSWER: ReadonlySet<string> = new Set(["network", "timeout", "refused_address"]);
/** Outcomes that say nothing either way (no request was made, or the poller is stopping). */
const NOT_A_POLL: ReadonlySet<string> = new Set(["skipped", "aborted", "error"]);

/** The watch the poller feeds with every poll outcome. */
export interface SilenceWatch {
  /** Records one poll's outcome (`ok`, `not_modified` or an error kind) at `at`. */
  observe(outcome: string, at: EpochMs): void;
  /** Warns if the silence has lasted {@link SILENCE_WARN_MS} by `now` (called every tick too). */
  check(now: EpochMs): void;
  /** Since when no vendor has answered (null while they answer), and the last answer. */
  state(): { readonly silentSince: EpochMs | null; readonly lastAnswerAt: EpochMs | null };
}

/** A new watch logging to `log`. */
export function createSilenceWatch(log: Logger): SilenceWatch {
  let silentSince: EpochMs | null = null;
  let lastAnswerAt: EpochMs | null = null;
  let warned = false;
  let unanswered: Record<string, number> = {};
  const watch: SilenceWatch = {
    observe(outcome, at) {
      if (NOT_A_POLL.has(outcome)) return;
      if (!NO_ANSWER.has(outcome)) {
        if (warned) {
          log.info("vendors answer again", {
            silentSince: new Date(silentSince!).toISOString(),
            silentMinutes: Math.round((at - silentSince!) / MINUTE_MS),
          });
        }
        warned = false;
        silentSince = null;
        unanswered = {};
        lastAnswerAt = Math.max(lastAnswerAt ?? at, at);
        return;
      }
      silentSince ??= at;
      unanswered[outcome] = (unanswered[outcome] ?? 0) + 1;
      watch.check(at);
    },
    check(now) {
      if (warned || silentSince === null || now - silentSince < SILENCE_WARN_MS) return;
      warned = true;
      const minutes = Math.round(SILENCE_WARN_MS / MINUTE_MS);
      log.warn(`no vendor answered in ${minutes} min: is outbound HTTPS blocked?`, {
        silentSince: new Date(silentSince).toISOString(),
        lastAnswerAt: lastAnswerAt === null ? null : new Date(lastAnswerAt).toISOString(),
        failuresByKind: { ...unanswered },
      });
    },
    state: () => ({ silentSince, lastAnswerAt }),
  };
  return watch;
}
