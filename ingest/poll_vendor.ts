/**
 * One poll of one vendor, start to record: its platform and endpoint, the pulse, the full read,
 * what is recorded, and a re-detection when the platform keeps missing. Never throws.
 * @module
 */
import { type DueVendor, type EpochMs, HOUR_MS, unsupportedReasonOf } from "../domain/mod.ts";
import { politeFetch } from "./http.ts";
import { type PollContext, type PollResult, reportOnce } from "./poll_context.ts";
import { afterFullRead, pulseFirst, weighPulseChange } from "./poll_pulse.ts";
import { fail, record } from "./poll_record.ts";
import { endpointOf, platformOf, redetectIfDue, Unreachable } from "./poll_target.ts";

/** How long a vendor without an adapter waits before it is looked at again. */
const NO_ADAPTER_RETRY_MS = HOUR_MS;

/** One poll of one vendor, start to record. Never throws. */
export async function pollVendor(v: DueVendor, ctx: PollContext): Promise<PollResult> {
  const { deps } = ctx;
  try {
    const platform = await platformOf(v, ctx);
    const adapter = platform ? ctx.adapters[platform] : undefined;
    if (!platform || !adapter) {
      const reason = unsupportedReasonOf(platform ?? v.detectedPlatform ?? v.platform);
      reportOnce(
        ctx,
        `skip|${v.slug}`,
        () => deps.log.warn("vendor not polled", { vendor: v.slug, reason }),
      );
      await deps.store.recordSkipped(v.id, deps.clock.now() + NO_ADAPTER_RETRY_MS, reason);
      return { outcome: "skipped", changes: 0 };
    }
    let started = false;
    const begin = (at: EpochMs) => {
      if (started) return;
      started = true;
      ctx.onStart(v, at);
    };
    const target = await endpointOf(v, adapter, platform, begin, ctx);
    if (target.url === null) return await redetectIfDue(v, platform, target.result, ctx);
    const { url, discovered } = target;
    const pulsed = await pulseFirst(v, adapter, begin, ctx);
    if (pulsed.done) return pulsed.result;
    let at = 0;
    const validators = target.fresh ? {} : { etag: v.etag, lastModified: v.lastModified };
    const outcome = await ctx.limit(url.host, () => {
      at = deps.clock.now();
      begin(at);
      return politeFetch(url, ctx.fetchOptions(validators));
    });
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    if (discovered && outcome.kind === "failed" && GONE.has(outcome.status ?? 0)) {
      // The page may have moved to another id: read the page again next time.
      await deps.store.setEndpoint(v.id, null);
      deps.log.info("discovered endpoint gone", { vendor: v.slug, endpoint: url.href });
    }
    afterFullRead(v, outcome, at, pulsed, validators, ctx);
    const result = await record(v, adapter, platform, outcome, at, ctx, url);
    weighPulseChange(v, pulsed, result, at, ctx);
    return await redetectIfDue(v, platform, result, ctx);
  } catch (err) {
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    if (err instanceof Unreachable) {
      const at = deps.clock.now();
      return fail(v, err.reason, `platform detection: ${err.message}`, {
        at,
        latencyMs: 0,
        httpStatus: null,
      }, ctx);
    }
    deps.log.error("poll failed unexpectedly", { vendor: v.slug, error: String(err) });
    return { outcome: "error", changes: 0 };
  }
}

/** Statuses that make a discovered endpoint be discovered again. */
const GONE = new Set([404, 410]);
