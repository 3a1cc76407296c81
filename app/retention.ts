/**
 * The retention job: deletes what is older than the windows statusd reports (domain
 * RETENTION), in small chunks with a turn of the event loop between them, at start and then
 * every 15 minutes.
 * @module
 */
import { Cron } from "croner";
import { DAY_MS, RETENTION, retentionCutoffs } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";

/** Rows deleted by one run, by kind. */
export interface RetentionReport {
  readonly fetches: number;
  /** Latency-summary rows (vendor, day, bucket). */
  readonly latencyDays: number;
  readonly changes: number;
  readonly transitions: number;
  readonly incidents: number;
  readonly components: number;
}

/** When the job runs after the first run at start (croner pattern): every 15 minutes. */
export const RETENTION_SCHEDULE = "*/15 * * * *";

const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Calls `step` until it deletes nothing (or `signal` aborts), yielding between calls. */
async function drain(step: () => Promise<number>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const n = await step();
    total += n;
    if (n === 0) break;
    await yieldToRequests();
  }
  return total;
}

/** Deletes every expired row at the context's clock time; resolves with what went. */
export async function pruneExpired(
  ctx: AppContext,
  signal?: AbortSignal,
): Promise<RetentionReport> {
  const cut = retentionCutoffs(ctx.clock.now());
  const store = ctx.store.retention;
  const fetches = await drain(() => store.pruneFetchLog(cut.fetchLog), signal);
  const latencyDays = await drain(() => store.pruneLatencyDays(cut.latencySummary), signal);
  const changes = await drain(
    () => store.pruneChangeFeed(cut.changeFeed, RETENTION.changeFeedRows),
    signal,
  );
  const incidents = await drain(() => store.pruneClosedIncidents(cut.history), signal);
  const components = await drain(() => store.pruneRemovedComponents(cut.history), signal);
  let transitions = await drain(() => store.pruneComponentTransitions(cut.history), signal);
  for (const [n, id] of (await store.vendorIds()).entries()) {
    if (signal?.aborted) break;
    transitions += await drain(
      () => store.pruneServiceTransitions(id, cut.history, cut.maxHistory),
      signal,
    );
    if (n % 100 === 99) await yieldToRequests();
  }
  // Attempt windows last an hour at most; a day-old one is long over.
  await ctx.store.attempts.prune(ctx.clock.now() - DAY_MS);
  // Idempotency-Key answers are replayed for a day.
  await ctx.store.idempotency.prune(ctx.clock.now() - DAY_MS);
  return { fetches, latencyDays, changes, transitions, incidents, components };
}

/** The running job. */
export interface RetentionJob {
  /** Runs now (or joins the run in progress). */
  runNow(): Promise<RetentionReport | null>;
  /** Stops the schedule and waits for a run in progress to end at its next chunk. */
  stop(): Promise<void>;
}

/** Starts the retention job: one run now, then on {@link RETENTION_SCHEDULE}. */
export function startRetention(ctx: AppContext, pattern = RETENTION_SCHEDULE): RetentionJob {
  const abort = new AbortController();
  let running: Promise<RetentionReport | null> | null = null;
  const runNow = () => {
    running ??= pruneExpired(ctx, abort.signal).then((report) => {
      const total = Object.values(report).reduce((a, b) => a + b, 0);
      if (total > 0) ctx.log.info("expired rows pruned", { ...report });
      return report;
    }, (err) => {
      ctx.log.error("retention run failed", { error: String(err) });
      return null;
    }).finally(() => (running = null));
    return running;
  };
  const job = new Cron(pattern, { protect: true }, () => {
    runNow();
  });
  runNow();
  return {
    runNow,
    async stop() {
      job.stop();
      abort.abort();
      await running;
    },
  };
}
