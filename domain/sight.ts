/**
 * Whether statusd can see the vendors, from two readings of the poller's counters: most reads of
 * an interval failing means the machine itself cannot see (offline, DNS, a proxy in the way), not
 * that every vendor broke at once. Pure: the server's log (ingest/sight_log.ts) says it in words.
 * @module
 */
import type { PollerStats } from "./poller.ts";
import { READING_ERROR_WORDS, type ReadingErrorKind } from "./reading.ts";

/** Share of an interval's polls that must fail for statusd to say it cannot see. */
export const BLIND_SHARE = 0.8;
/** Polls an interval needs before its share means anything. */
export const BLIND_MIN_POLLS = 5;

/** What one interval of polling says. */
export interface Sight {
  readonly polls: number;
  readonly ok: number;
  readonly notModified: number;
  readonly failures: number;
  readonly changes: number;
  /** Failed polls of the interval per error kind, most first. */
  readonly reasons: readonly { readonly kind: string; readonly count: number }[];
  /** Most polls failed: the machine cannot see the vendors. */
  readonly blind: boolean;
}

/** The counters of the interval between `before` and `after` (one poller's two readings). */
export function sightOf(before: PollerStats, after: PollerStats): Sight {
  const polls = after.polls - before.polls;
  const failures = after.failures - before.failures;
  const reasons = Object.entries(after.failuresByReason)
    .map(([kind, n]) => ({ kind, count: n - (before.failuresByReason[kind] ?? 0) }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  return {
    polls,
    ok: after.ok - before.ok,
    notModified: after.notModified - before.notModified,
    failures,
    changes: after.changes - before.changes,
    reasons,
    blind: polls >= BLIND_MIN_POLLS && failures >= BLIND_SHARE * polls,
  };
}

/** What to do about a machine whose reads fail mostly for `kind`. */
export function blindAdvice(kind: string | undefined): string {
  switch (kind as ReadingErrorKind | undefined) {
    case "network":
      return "this machine cannot reach the vendors: check its network and DNS " +
        "(/etc/resolv.conf), or set HTTPS_PROXY if outbound traffic must go through a proxy";
    case "timeout":
      return "the vendors do not answer in time: check the network, a firewall, or HTTPS_PROXY";
    case "refused_address":
      return "vendor names resolve to private addresses (a DNS filter or split DNS?): fix DNS, " +
        "or allow them with STATUSD_ALLOW_PRIVATE_VENDORS";
    case "http_status":
      return "the vendors answer with errors: a proxy or captive portal may be in the way, or " +
        "this address is rate-limited";
    default:
      return "see /healthz and the reading of each vendor (/api/services?reading=failing)";
  }
}

/** The failure kinds of a sight in words: "network error 41, timeout 3". */
export function reasonWords(sight: Pick<Sight, "reasons">): string {
  return sight.reasons.map((r) =>
    `${READING_ERROR_WORDS[r.kind as ReadingErrorKind] ?? r.kind} ${r.count}`
  ).join(", ");
}
