/**
 * One vendor's early-warning step after a probe round: the round's verdicts, the reports that
 * weigh in public and statusd's own sight of the vendor's admission go through the pure
 * `stepWarning`, and what moved is stored with its changes. The prober runs it after each round;
 * it touches no network, so tests drive it with rounds of their own.
 * @module
 */
import {
  ACKNOWLEDGE_LOOKBACK_MS,
  type EarlyWarningChange,
  type EpochMs,
  type ProbeDue,
  REPORT_WINDOW_MS,
  stepWarning,
  type TargetAnswer,
  toIso,
  type WarningEpisode,
  type WarningEvent,
  type WarningFacts,
  type WarningStep,
  type WarningStore,
  warningWords,
} from "../domain/mod.ts";

/** One vendor's probe round as the step reads it. */
export interface RoundedVendor {
  /** The round over targets that answered before; null without any. */
  readonly round: WarningFacts["round"];
  /** Target URL → when it last answered, carried on. */
  readonly answered: Readonly<Record<string, EpochMs>>;
  /** Each target's answer this round and since when (absent: kept as they were). */
  readonly lastAnswers?: Readonly<Record<string, TargetAnswer>>;
}

/** What one vendor's step did: the pure step's result and each event with its episode. */
export interface VendorStep {
  readonly step: WarningStep;
  readonly told: readonly { readonly event: WarningEvent; readonly episode: WarningEpisode }[];
}

/**
 * Steps vendor `v` at `now` (`local`: statusd's own network seems at fault) and stores what
 * changed (state, finished episodes, the change feed's entries) in one act.
 */
export async function stepVendorWarning(
  store: Pick<WarningStore, "recentReports" | "acknowledgedAt" | "record">,
  v: ProbeDue,
  now: EpochMs,
  local: boolean,
  r: RoundedVendor,
): Promise<VendorStep> {
  const reports = await store.recentReports(v.vendorId, now - REPORT_WINDOW_MS);
  const facts: WarningFacts = { round: r.round, localOutage: local, reports, acknowledgedAt: null };
  let step = stepWarning(v.state, facts, now);
  // Asked only when an episode is open or waiting: most rounds of most vendors need no read.
  const episode = step.state.episode ?? v.state.episode;
  if (episode !== null && episode.acknowledgedAt === null) {
    const ack = await store.acknowledgedAt(
      v.vendorId,
      episode.firstEvidenceAt,
      Math.min(now, (episode.clearedAt ?? now) + ACKNOWLEDGE_LOOKBACK_MS),
    );
    if (ack !== null) {
      step = stepWarning(v.state, {
        ...facts,
        acknowledgedAt: ack.at,
        claimedStartAt: ack.claimedStartAt,
      }, now);
    }
  }
  const e = step.state.episode;
  const told = step.events.flatMap((event) => {
    const about = event === "cleared" ? (step.finished.at(-1) ?? e) : e;
    return about === null ? [] : [{ event, episode: about }];
  });
  const changes = told.map(({ event, episode }): EarlyWarningChange => ({
    kind: "early_warning",
    slug: v.slug,
    phase: event,
    since: toIso(episode.firstEvidenceAt),
    summary: warningWords(episode),
  }));
  const changed = step.events.length > 0 || step.finished.length > 0 ||
    JSON.stringify(step.state) !== JSON.stringify(v.state) ||
    JSON.stringify(r.answered) !== JSON.stringify(v.answered) ||
    (r.lastAnswers !== undefined &&
      JSON.stringify(r.lastAnswers) !== JSON.stringify(v.lastAnswers));
  if (changed) {
    await store.record(v.vendorId, {
      answered: r.answered,
      ...(r.lastAnswers ? { lastAnswers: r.lastAnswers } : {}),
      state: step.state,
      finished: step.finished,
      changes,
    }, now);
  }
  return { step, told };
}
