/**
 * What an answer of a probe means (a target is up when its server answers at all below 500),
 * and a vendor's round over its targets (domain/probe_targets.ts says which they are).
 * @module
 */
import type { EpochMs, ProbeVerdict, TargetAnswer } from "../domain/mod.ts";
import { DAY_MS, PROBE_TARGETS_MAX, probeTargetsOf } from "../domain/mod.ts";
import type { FetchOutcome } from "./http.ts";

export { PROBE_TARGETS_MAX, probeTargetsOf };

/** A target that has not answered for this long stops counting (a retired host is no evidence). */
export const ANSWER_MEMORY_MS = 7 * DAY_MS;

/**
 * Up when the server answered at all below 500 (an API answering 401 or 404 to an anonymous
 * request is up, and so is a redirect loop or a body too large: something answered); down on
 * DNS, connect and TLS errors, timeouts and 5xx; `refused` when the address guard refused it
 * (no evidence either way).
 */
export function verdictOf(outcome: FetchOutcome): ProbeVerdict {
  if (outcome.kind !== "failed") return "up";
  switch (outcome.reason) {
    case "refused_address":
      return "refused";
    case "http_status":
      return outcome.status !== undefined && outcome.status < 500 ? "up" : "down";
    case "network":
    case "timeout":
      return "down";
    default:
      return "up";
  }
}

/**
 * A vendor's round over its targets: each target's verdict, and the answer memory carried on
 * (a target counts once it has answered within {@link ANSWER_MEMORY_MS}, now included).
 */
export function roundOf(
  verdicts: readonly { readonly url: string; readonly verdict: ProbeVerdict }[],
  answered: Readonly<Record<string, EpochMs>>,
  now: EpochMs,
  lastAnswers: Readonly<Record<string, TargetAnswer>> = {},
): {
  readonly total: number;
  readonly failed: number;
  readonly failing: string[];
  readonly answered: Record<string, EpochMs>;
  /** Each target's answer this round, since when it has answered so. */
  readonly lastAnswers: Record<string, TargetAnswer>;
} {
  const last: Record<string, TargetAnswer> = {};
  for (const { url, verdict } of verdicts) {
    const before = lastAnswers[url];
    last[url] = before?.answer === verdict ? before : { answer: verdict, since: now };
  }
  const next: Record<string, EpochMs> = {};
  let total = 0;
  let failed = 0;
  const failing: string[] = [];
  for (const { url, verdict } of verdicts) {
    const before = answered[url];
    const known = before !== undefined && now - before <= ANSWER_MEMORY_MS;
    if (verdict === "up") {
      // Kept to the hour: a calm vendor's memory does not change every round.
      next[url] = known && now - before! < 3_600_000 ? before! : now;
      total++;
    } else if (known) {
      next[url] = before!;
      if (verdict === "down") {
        total++;
        failed++;
        const host = new URL(url).host;
        if (!failing.includes(host)) failing.push(host);
      }
    }
  }
  return { total, failed, failing, answered: next, lastAnswers: last };
}
