/**
 * statusd's own eyes for tests, said once: an episode seen by probes, the memory of a vendor whose
 * episode is open, and finished episodes with their delay. Each takes overrides for what a test
 * asserts on (hosts, counts, reporters, times).
 * @module
 */
import type {
  EpochMs,
  FinishedEpisode,
  Store,
  WarningEpisode,
  WarningState,
} from "../../domain/mod.ts";
import { stepVendorWarning } from "../../ingest/mod.ts";

const MIN = 60_000;

/** An open episode first seen at `first`, suspected a minute later: 2 of 2 probes failing. */
export function episodeAt(first: EpochMs, over: Partial<WarningEpisode> = {}): WarningEpisode {
  return {
    firstEvidenceAt: first,
    suspectedAt: first + MIN,
    acknowledgedAt: null,
    clearedAt: null,
    evidence: "probes",
    failed: 2,
    total: 2,
    hosts: ["api.acme.test"],
    reporters: 0,
    ...over,
  };
}

/** The memory of a vendor whose `episode` is open: its last round (if probed) failing. */
export function openState(episode: WarningEpisode): WarningState {
  const probed = episode.total > 0;
  return {
    lastRound: probed ? { at: episode.suspectedAt, failing: true } : null,
    failingSince: probed ? episode.firstEvidenceAt : null,
    episode,
  };
}

/**
 * A finished episode first seen at `first`, acknowledged `delayMinutes` later and cleared after
 * five hours; never acknowledged when `acknowledged` is false (its delay is then `delayMinutes`
 * all the same: pass 240).
 */
export function finishedAt(
  first: EpochMs,
  delayMinutes: number,
  acknowledged = true,
  over: Partial<FinishedEpisode> = {},
): FinishedEpisode {
  return {
    ...episodeAt(first),
    acknowledgedAt: acknowledged ? first + delayMinutes * MIN : null,
    clearedAt: first + 300 * MIN,
    delayMs: delayMinutes * MIN,
    ...over,
  };
}

/**
 * One probe round of every vendor of `store` at `now`, as the prober steps them after probing:
 * every target answering (`ok`), every target failing (`fail`), or no target (`none`).
 */
export async function probeEveryVendor(
  store: Store,
  now: EpochMs,
  round: "ok" | "fail" | "none" = "ok",
): Promise<void> {
  for (const v of await store.warnings.claimDue(now, 1000, "all", 1)) {
    await stepVendorWarning(store.warnings, v, now, false, {
      round: round === "none" ? null : {
        at: now,
        total: 2,
        failed: round === "fail" ? 2 : 0,
        failing: round === "fail" ? [`api.${v.slug}.test`] : [],
      },
      answered: v.answered,
    });
  }
}
