/**
 * Catalog candidates (#47): a status URL a source names without proof it is that vendor's is
 * stored unlisted and unread. This job reads a few of them at a time (the same page reader as a
 * page added by URL, through the poller's guard) and lets one join the catalog only when the page
 * proves it is the vendor's (domain/service.ts `candidateProof`: its own name, or an address of
 * the vendor's own name), keeping the proof; one that does not is checked again after a week. The
 * catalog grows on every instance that can reach the internet, without claims made offline.
 * @module
 */
import { Cron } from "croner";
import { candidateProof, DAY_MS } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";

/** Every 10 minutes, a few candidates. */
export const CANDIDATE_SCHEDULE = "*/10 * * * *";
/** Candidates read per run. */
export const CANDIDATES_PER_RUN = 5;
/** A candidate not proven is checked again after this long. */
export const CANDIDATE_RECHECK_MS = 7 * DAY_MS;

/** What one run did. */
export interface CandidateReport {
  readonly checked: number;
  readonly proven: readonly string[];
}

/** Reads up to `limit` candidates due a check and records what each page proved. */
export async function checkCandidates(
  ctx: AppContext,
  limit = CANDIDATES_PER_RUN,
): Promise<CandidateReport> {
  const read = ctx.readStatusPage;
  if (!read) return { checked: 0, proven: [] };
  const now = ctx.clock.now();
  const due = await ctx.store.catalog.candidatesToCheck(now - CANDIDATE_RECHECK_MS, limit);
  const proven: string[] = [];
  for (const c of due) {
    const page = await read(c.statusPageUrl);
    const proof = page.ok ? candidateProof(c, page) : null;
    const detail = page.ok
      ? `the page calls itself "${page.name}" and is served from ${new URL(page.url).hostname}`
      : page.message;
    await ctx.store.catalog.recordCandidateCheck(c.slug, { at: ctx.clock.now(), proof, detail });
    if (proof !== null) {
      proven.push(c.slug);
      ctx.log.info("catalog candidate proven", { vendor: c.slug, proof });
    }
  }
  return { checked: due.length, proven };
}

/** The running job: `stop` waits for a run in progress. */
export interface CandidateJob {
  runNow(): Promise<CandidateReport | null>;
  stop(): Promise<void>;
}

/** Checks candidates now and then on `pattern`. */
export function startCandidateChecks(
  ctx: AppContext,
  pattern = CANDIDATE_SCHEDULE,
): CandidateJob {
  let running: Promise<CandidateReport | null> | null = null;
  const runNow = () =>
    running ??= checkCandidates(ctx).catch((err) => {
      ctx.log.error("candidate check failed", { error: String(err) });
      return null;
    }).finally(() => (running = null));
  const job = new Cron(pattern, { protect: true }, () => {
    runNow();
  });
  runNow();
  return {
    runNow,
    async stop() {
      job.stop();
      await running;
    },
  };
}
