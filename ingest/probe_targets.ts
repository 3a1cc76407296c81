/**
 * What statusd probes of a vendor and what an answer means: the catalog's `probes` URLs, or
 * else the sites of the vendor's `domains` (never its status page's host: that is the page's
 * infrastructure, not the vendor's); a target is up when its server answers at all below 500.
 * @module
 */
import type { EpochMs } from "../domain/mod.ts";
import { DAY_MS } from "../domain/mod.ts";
import type { FetchOutcome } from "./http.ts";

/** Targets probed per vendor at most. */
export const PROBE_TARGETS_MAX = 3;
/** A target that has not answered for this long stops counting (a retired host is no evidence). */
export const ANSWER_MEMORY_MS = 7 * DAY_MS;

/** The URLs to probe for a vendor, at most {@link PROBE_TARGETS_MAX}. */
export function probeTargetsOf(
  vendor: { readonly domains: readonly string[]; readonly statusPageUrl: string },
  catalogProbes: readonly string[] | undefined,
): string[] {
  let pageHost = "";
  try {
    pageHost = new URL(vendor.statusPageUrl).hostname;
  } catch {
    // A catalog URL that does not parse excludes nothing.
  }
  const urls = catalogProbes && catalogProbes.length > 0
    ? catalogProbes
    : vendor.domains.map((d) => `https://${d}/`);
  const out: string[] = [];
  for (const url of urls) {
    let host: string;
    try {
      const u = new URL(url);
      if (u.protocol !== "https:" && u.protocol !== "http:") continue;
      host = u.hostname;
    } catch {
      continue;
    }
    if (host === pageHost || out.includes(url)) continue;
    out.push(url);
    if (out.length === PROBE_TARGETS_MAX) break;
  }
  return out;
}

/** What one probe says: the server answered, did not, or statusd may not ask it. */
export type ProbeVerdict = "up" | "down" | "refused";

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
): {
  readonly total: number;
  readonly failed: number;
  readonly failing: string[];
  readonly answered: Record<string, EpochMs>;
} {
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
  return { total, failed, failing, answered: next };
}
