/**
 * Where a poll reads: the vendor's platform (detected when the catalog does not say, detected
 * again when it keeps missing) and its data endpoint (found in the page when the adapter needs
 * it).
 * @module
 */
import type { DueVendor, EpochMs, Platform, ReadingErrorKind } from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { detectPlatform, type ProbeFetch, type ProbeResponse } from "./detect.ts";
import { type FetchOutcome, politeFetch } from "./http.ts";
import type { PollContext, PollResult } from "./poll_context.ts";
import { fail } from "./poll_record.ts";

/** Where to poll, or the recorded result of a poll that could not get that far. */
export type Target =
  | { readonly url: URL; readonly discovered: boolean; readonly fresh: boolean }
  | { readonly url: null; readonly result: PollResult };

/**
 * The URL to poll: the adapter's endpoint for the page URL; or, when the adapter needs the
 * page itself to know it (`Adapter.discovery`), the endpoint stored for the vendor, else one
 * found now in the page (read with the same polite fetch, limiter and deadline) and stored.
 * A page that cannot be read or names no endpoint fails this poll like any other failure.
 */
export async function endpointOf(
  v: DueVendor,
  adapter: Adapter,
  platform: Platform,
  begin: (at: EpochMs) => void,
  ctx: PollContext,
): Promise<Target> {
  const { deps } = ctx;
  const vendor = { statusPageUrl: v.statusPageUrl, slug: v.slug };
  const discovery = adapter.discovery;
  if (!discovery?.needed(vendor)) {
    return { url: adapter.endpoint(vendor), discovered: false, fresh: false };
  }
  if (v.endpointUrl) return { url: new URL(v.endpointUrl), discovered: true, fresh: false };
  const page = new URL(v.statusPageUrl);
  let at = 0;
  const out = await ctx.limit(page.host, () => {
    at = deps.clock.now();
    begin(at);
    return politeFetch(page, ctx.fetchOptions({}));
  });
  if (ctx.aborted()) {
    return { url: null, result: { outcome: "aborted", changes: 0 } };
  }
  if (out.kind === "failed") {
    const poll = { at, latencyMs: out.latencyMs, httpStatus: out.status ?? null };
    const detail = `endpoint discovery: the status page did not load (${out.detail})`;
    return { url: null, result: await fail(v, out.reason, detail, poll, ctx) };
  }
  const found = out.kind === "ok" ? discovery.find(out.body, new URL(out.url)) : null;
  if (!found) {
    const poll = {
      at,
      latencyMs: out.latencyMs,
      httpStatus: out.kind === "ok" ? out.status : null,
    };
    const detail = `endpoint discovery: ${page.href} names no ${platform} data endpoint`;
    return { url: null, result: await fail(v, "bad_payload", detail, poll, ctx) };
  }
  await deps.store.setEndpoint(v.id, found.href);
  deps.log.info("endpoint discovered", { vendor: v.slug, endpoint: found.href });
  return { url: found, discovered: true, fresh: true };
}

/**
 * Detection got no answer at all: recorded as a failure (`network`, or why the page fetch
 * failed, e.g. `refused_address`), nothing stored.
 */
export class Unreachable extends Error {
  constructor(readonly reason: ReadingErrorKind = "network", detail = "the page did not answer") {
    super(detail);
  }
}

export async function platformOf(v: DueVendor, ctx: PollContext): Promise<Platform | null> {
  if (v.detectedPlatform !== null && v.detectedPlatform !== "unknown") return v.detectedPlatform;
  if (v.platform !== "unknown") return v.platform;
  if (v.detectedPlatform === "unknown") return null;
  const { platform: detected, answered } = await detectWith(v, ctx);
  // Nothing answered (offline, or shutting down): not a result; try again later.
  if (answered === 0 && detected === "unknown") throw new Unreachable();
  await ctx.deps.store.setDetectedPlatform(v.id, detected);
  ctx.deps.log.info("platform detected", { vendor: v.slug, platform: detected });
  return detected === "unknown" ? null : detected;
}

/**
 * Runs platform detection on the vendor's page with probes through the limiter and the polite
 * fetch; throws {@link Unreachable} when the page itself does not answer.
 */
async function detectWith(
  v: DueVendor,
  ctx: PollContext,
): Promise<{ platform: Platform; answered: number }> {
  const detect = ctx.deps.detect ?? detectPlatform;
  let answered = 0;
  const probe: ProbeFetch = async (u) => {
    const out = await ctx.limit(new URL(u).host, () => politeFetch(u, ctx.fetchOptions({})));
    const response = toProbe(out);
    if (response) answered++;
    // The page itself does not answer: give up now rather than probe six more paths.
    else if (answered === 0) {
      throw out.kind === "failed" && out.reason === "refused_address"
        ? new Unreachable(out.reason, out.detail)
        : new Unreachable();
    }
    return response;
  };
  let platform: Platform = "unknown";
  try {
    platform = await detect(v.statusPageUrl, probe);
  } catch (err) {
    if (err instanceof Unreachable) throw err;
    ctx.deps.log.warn("platform detection failed", { vendor: v.slug, error: String(err) });
  }
  return { platform, answered };
}

/**
 * After a failure that made the vendor due for re-detection (its platform kept missing:
 * domain/reading.ts `redetectionDue`), detects the platform again and stores what was found.
 */
export async function redetectIfDue(
  v: DueVendor,
  from: Platform,
  result: PollResult,
  ctx: PollContext,
): Promise<PollResult> {
  if (!result.redetect || ctx.aborted()) return result;
  let to: Platform = "unknown";
  try {
    to = (await detectWith(v, ctx)).platform;
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
  }
  if (ctx.aborted()) return result;
  await ctx.deps.store.recordRedetection(v.id, { at: ctx.deps.clock.now(), from, to });
  ctx.deps.log.info("platform detected again", { vendor: v.slug, from, to });
  return result;
}

function toProbe(out: FetchOutcome): ProbeResponse | null {
  if (out.kind === "ok") return { status: out.status, headers: out.headers, body: out.body };
  if (out.kind === "failed" && out.status !== undefined) {
    return { status: out.status, headers: {}, body: "" };
  }
  return null;
}
