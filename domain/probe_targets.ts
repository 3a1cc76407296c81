/**
 * What statusd probes of a vendor with its own eyes: the catalog's `probes` URLs as written, or
 * else the sites of the vendor's `domains` (never its status page's host: that is the page's
 * infrastructure, not the vendor's); and what each target last answered.
 * @module
 */
import type { EpochMs } from "./time.ts";

/** Targets probed per vendor at most (a catalog lists no more). */
export const PROBE_TARGETS_MAX = 3;

/** What one probe says: the server answered, did not, or statusd may not ask it. */
export type ProbeVerdict = "up" | "down" | "refused";

/** A target's last answer and since when it has answered so. */
export interface TargetAnswer {
  readonly answer: ProbeVerdict;
  readonly since: EpochMs;
}

/**
 * The URLs to probe for a vendor, at most {@link PROBE_TARGETS_MAX}: an explicit list as written
 * (another port or path of the status page's host is a target like any other), else
 * `https://{domain}/` for each domain but the status page's host.
 */
export function probeTargetsOf(
  vendor: { readonly domains: readonly string[]; readonly statusPageUrl: string },
  catalogProbes: readonly string[] | null | undefined,
): string[] {
  const explicit = catalogProbes !== null && catalogProbes !== undefined &&
    catalogProbes.length > 0;
  let pageHost = "";
  try {
    pageHost = new URL(vendor.statusPageUrl).hostname;
  } catch {
    // A catalog URL that does not parse excludes nothing.
  }
  const urls = explicit ? catalogProbes : vendor.domains.map((d) => `https://${d}/`);
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
    if ((!explicit && host === pageHost) || out.includes(url)) continue;
    out.push(url);
    if (out.length === PROBE_TARGETS_MAX) break;
  }
  return out;
}
