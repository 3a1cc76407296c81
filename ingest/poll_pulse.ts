/**
 * The pulse step of a poll: a calm vendor whose platform has a small pulse document
 * is read through it first, and what each full read says is remembered for the next pulse.
 * @module
 */
import { cutText, type DueVendor, type EpochMs } from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { type FetchOutcome, politeFetch } from "./http.ts";
import {
  boundedFingerprint,
  PULSE_BROKEN_RETRY_MS,
  PULSE_FAILURES_MAX,
  PULSE_IDLE_CHANGES_MAX,
  type PulseState,
} from "./pulses.ts";
import { fullReadDue, isMoving, nextPollAt, pulseMs } from "./schedule.ts";
import { type PollContext, type PollResult, random, reportOnce, stateOf } from "./poll_context.ts";
import { fail } from "./poll_record.ts";
import { calmForPulse, pulseGoesFirst, pulseVerdict } from "./pulse_decision.ts";

/** What reading a vendor's pulse decided: the poll is over, or the full read follows. */
export type Pulsed =
  | { readonly done: true; readonly result: PollResult }
  | {
    readonly done: false;
    readonly fingerprint: string | null;
    /** The pulse failed for a passing reason (its detail): counted if the full read succeeds. */
    readonly failed?: string;
    /** The pulse's fingerprint differs from the one the last full read went with. */
    readonly changed?: boolean;
  };

/**
 * A calm vendor whose platform has a pulse document is read through it first. When
 * the fingerprint is the one its last full read went with and no full read is due (one per
 * stable interval), the poll ends as `not_modified`; when it changed, was never seen, or the
 * pulse could not be read, the full read follows at once (a pulse document that fails
 * `PULSE_FAILURES_MAX` times in a row while the full reads succeed is left alone for a day, as a
 * missing one is). A pulse answered 429 (or with
 * `Retry-After`) ends the poll as that failure: no second request goes to a vendor asking for
 * fewer. A vendor's first poll reads its pulse and then the full document. Moving and failing
 * vendors, and vendors of platforms without a pulse document, go straight to the full read.
 */
export async function pulseFirst(
  v: DueVendor,
  adapter: Adapter,
  begin: (at: EpochMs) => void,
  ctx: PollContext,
): Promise<Pulsed> {
  const { deps, config, pulses } = ctx;
  const now = deps.clock.now();
  const notYet: Pulsed = { done: false, fingerprint: null };
  pulses.adopt(v.id, v.lastFullAt, v.pulseFingerprint);
  // A vendor never read yet reads its pulse too, so its first full read has a fingerprint.
  const calm = calmForPulse({
    failures: v.failures,
    everRead: v.lastSuccessAt !== null,
    moving: v.lastSuccessAt !== null && isMoving(stateOf(v), now),
    level: v.currentStatus,
  });
  if (!calm) {
    pulses.forgetFingerprint(v.id);
    return notYet;
  }
  const pulse = pulseMs(config) > 0 ? pulses.usablePulse(v.id, adapter, now) : null;
  if (!pulse) return notYet;
  const s = pulses.of(v.id);
  // A full read is due anyway and a pulse was seen before: the full read is what tells, so no
  // pulse goes first (one request fewer per stable interval). The fingerprint kept is the last
  // pulse's; should the page have moved since, the next pulse differs and reads it again.
  if (
    !pulseGoesFirst({
      fingerprint: s.fingerprint,
      fullReadDue: fullReadDue(s.lastFullAt, now, config),
    })
  ) {
    return { done: false, fingerprint: s.fingerprint };
  }
  const url = pulse.endpoint({ statusPageUrl: v.statusPageUrl, slug: v.slug });
  let at = 0;
  const out = await ctx.limit(url.host, () => {
    at = deps.clock.now();
    begin(at);
    return politeFetch(url, ctx.fetchOptions({ etag: s.etag, lastModified: s.lastModified }));
  });
  if (ctx.aborted()) {
    return { done: true, result: { outcome: "aborted", changes: 0 } };
  }
  ctx.counts.pulses++;
  if (out.kind === "failed") {
    if (out.status === 429 || out.retryAfterMs !== undefined) {
      const poll = { at, latencyMs: out.latencyMs, httpStatus: out.status ?? null };
      return {
        done: true,
        result: await fail(v, out.reason, out.detail, poll, ctx, out.retryAfterMs, url.host),
      };
    }
    // A passing trouble (no connection, a timeout, a 5xx) is tried again next time, unless it
    // is the pulse's alone and keeps happening; anything else says the pulse document is not
    // there to read.
    const passing = out.reason === "network" || out.reason === "timeout" ||
      (out.status ?? 0) >= 500;
    if (!passing) brokenPulse(v, s, at, out.detail, ctx);
    s.fingerprint = s.etag = s.lastModified = null;
    return passing ? { ...notYet, failed: out.detail } : notYet;
  }
  s.failuresInRow = 0;
  let fingerprint = s.fingerprint;
  if (out.kind === "ok") {
    try {
      fingerprint = boundedFingerprint(pulse.fingerprint(out.body));
    } catch (err) {
      brokenPulse(v, s, at, String(err instanceof Error ? err.message : err), ctx);
      s.fingerprint = s.etag = s.lastModified = null;
      return notYet;
    }
    s.etag = out.etag ?? null;
    s.lastModified = out.lastModified ?? null;
  }
  const verdict = pulseVerdict({
    read: fingerprint,
    previous: s.fingerprint,
    fullReadDue: fullReadDue(s.lastFullAt, at, config),
  });
  if (verdict === "unchanged") {
    const httpStatus = out.kind === "ok" ? out.status : 304;
    const next = nextPollAt({ ...stateOf(v), failures: 0, pulsing: true }, at, config, random(ctx));
    s.idleChangesInRow = 0;
    await deps.store.recordPulse(v.id, { at, latencyMs: out.latencyMs, httpStatus, ...next });
    return { done: true, result: { outcome: "not_modified", changes: 0 } };
  }
  const changed = verdict === "changed";
  if (changed) ctx.counts.pulseChanges++;
  return { done: false, fingerprint, changed };
}

/**
 * Weighs a pulse that changed by what the full read after it recorded: nothing new
 * {@link PULSE_IDLE_CHANGES_MAX} times in a row and the pulse document is no signal (left alone
 * for a day); a recorded change starts the count over.
 */
export function weighPulseChange(
  v: DueVendor,
  pulsed: { readonly changed?: boolean },
  result: PollResult,
  at: EpochMs,
  ctx: PollContext,
): void {
  if (!pulsed.changed) return;
  if (result.outcome !== "ok" && result.outcome !== "not_modified") return;
  const s = ctx.pulses.of(v.id);
  if (result.changes > 0) {
    s.idleChangesInRow = 0;
  } else if (++s.idleChangesInRow >= PULSE_IDLE_CHANGES_MAX) {
    const why =
      `its fingerprint changed ${s.idleChangesInRow} times in a row while the page did not`;
    brokenPulse(v, s, at, why, ctx);
  }
}

/**
 * The vendor's pulse document is missing, of another shape, keeps failing or keeps changing
 * for nothing: unused for a day, said once.
 */
function brokenPulse(
  v: DueVendor,
  s: PulseState,
  at: EpochMs,
  why: string,
  ctx: PollContext,
): void {
  s.brokenUntil = at + PULSE_BROKEN_RETRY_MS;
  s.failuresInRow = s.idleChangesInRow = 0;
  reportOnce(
    ctx,
    `pulse|${v.slug}`,
    () =>
      ctx.deps.log.info("pulse document unusable; full reads only for a day", {
        vendor: v.slug,
        reason: cutText(why, 200),
      }),
  );
}

/**
 * Remembers what a full read says about the vendor's pulses: the fingerprint it went with (none
 * when no pulse preceded it), when it succeeded, how big the document was and whether a
 * conditional request was answered 304. A failed read forgets the fingerprint. A pulse that
 * failed before a full read that succeeded counts toward leaving the pulse document alone; one
 * before a failed full read does not (the vendor was in trouble, not its pulse document).
 */
export function afterFullRead(
  v: DueVendor,
  outcome: FetchOutcome,
  at: EpochMs,
  pulsed: { readonly fingerprint: string | null; readonly failed?: string },
  sent: { etag?: string | null; lastModified?: string | null },
  ctx: PollContext,
): void {
  const s = ctx.pulses.of(v.id);
  if (outcome.kind === "failed") {
    s.fingerprint = null;
    s.failuresInRow = 0;
    return;
  }
  if (pulsed.failed !== undefined && ++s.failuresInRow >= PULSE_FAILURES_MAX) {
    brokenPulse(v, s, at, `${s.failuresInRow} pulses in a row failed (${pulsed.failed})`, ctx);
  }
  s.fingerprint = pulsed.fingerprint;
  s.lastFullAt = at;
  if (outcome.kind === "ok") {
    s.fullBytes = outcome.bytes;
    s.fullAnswers304 = false;
    s.fullValidators = Boolean(outcome.etag || outcome.lastModified);
  } else {
    s.fullAnswers304 = Boolean(sent.etag || sent.lastModified);
    if (s.fullAnswers304) s.ignoresValidators = false;
  }
}
