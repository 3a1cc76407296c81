/**
 * The alert evaluator's loop: a round after every committed change batch, and the timed passes
 * (failing readings, early warnings) every few seconds.
 * @module
 */
import { BATCH, evaluateRound } from "./alert_evaluator.ts";
import { evaluateReadings } from "./alert_readings.ts";
import { evaluateWarnings } from "./alert_warnings.ts";
import type { AppContext } from "./context.ts";

/**
 * Runs {@link evaluateAlerts} after every committed change batch and every `everyMs`. An
 * instance that loses a round to another (instances sharing PostgreSQL all hear each change)
 * leaves the next `everyMs` of change-triggered rounds to the winner and keeps only its timed
 * ones, so the work is done once, not once per instance, and a stopped winner is replaced
 * within `everyMs`.
 */
export function startAlertEvaluator(ctx: AppContext, everyMs = 2_000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let yieldUntil = 0;
  const run = (timed: boolean) => {
    if (stopped || (!timed && ctx.clock.now() < yieldUntil)) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        for (;;) {
          const round = stopped ? 0 : await evaluateRound(ctx);
          if (round === "lost") yieldUntil = ctx.clock.now() + everyMs;
          if (round !== BATCH) break;
        }
        if (!stopped) await evaluateReadings(ctx);
        if (!stopped) await evaluateWarnings(ctx);
      } catch (err) {
        ctx.log.error("alert evaluation failed", { err: String(err) });
      }
    })().finally(() => {
      running = null;
      if (again) {
        again = false;
        run(false);
      }
    });
  };
  const unsubscribe = ctx.store.changes.subscribe(() => run(false));
  const timer = setInterval(() => run(true), everyMs);
  run(true);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await running;
    },
  };
}
