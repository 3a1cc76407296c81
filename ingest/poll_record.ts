/**
 * Recording a poll: what a full read, a 304 or a failure stores, with the schedule's next poll.
 * @module
 */
import { createHash } from "node:crypto";
import {
  cutText,
  type DueVendor,
  type EpochMs,
  isOpen,
  isPlatformMiss,
  type Platform,
  type ReadingErrorKind,
  redetectionDue,
  serviceAfterReading,
  serviceStatus,
} from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { PayloadError } from "./adapters/adapter.ts";
import type { FetchOutcome } from "./http.ts";
import { parseFailureKind } from "./parse_failure.ts";
import { OFF_THREAD_BYTES } from "./parse_worker.ts";
import { intervalMs, isStale, nextPollAt } from "./schedule.ts";
import { type PollContext, type PollResult, reportOnce, stateOf } from "./poll_context.ts";
import { withVanishedSettled } from "./poll_vanished.ts";
import { withGroupNames } from "./poll_groups.ts";

/** Notes kept per reading (each at most 300 characters). */
const MAX_NOTES = 60;

/** Records a fetched full read (or its 304, or its failure) and schedules the next poll. */
export async function record(
  v: DueVendor,
  adapter: Adapter,
  platform: Platform,
  outcome: FetchOutcome,
  at: EpochMs,
  ctx: PollContext,
  url: URL,
): Promise<PollResult> {
  const host = url.host;
  const { deps, config } = ctx;
  const random = deps.random ?? Math.random;
  // Asked when needed: what this read says about the vendor's validators counts already.
  const pulsing = () => ctx.pulses.watchable(v.id, adapter, at);
  // What the next pulse compares with, stored for whichever instance sends it.
  const pulseFingerprint = ctx.pulses.of(v.id).fingerprint;
  if (outcome.kind === "not_modified") {
    const state = { ...stateOf(v), failures: 0, pulsing: pulsing() };
    await deps.store.recordNotModified(v.id, {
      pulseFingerprint,
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: 304,
      ...nextPollAt(state, at, config, random),
    });
    return { outcome: "not_modified", changes: 0 };
  }
  if (outcome.kind === "ok") {
    // The same bytes as the reading last stored (a vendor without validators): nothing to parse
    // or write, which also spares the event loop a large document read again and again.
    const digest = await digestOf(outcome.body);
    if (ctx.bodies.get(v.id) === digest && (v.etag || v.lastModified)) {
      // Asked conditionally, the same document came whole: its validators are not honoured.
      ctx.pulses.of(v.id).ignoresValidators = true;
    }
    if (ctx.bodies.get(v.id) === digest && v.currentStatus !== "UNKNOWN") {
      await deps.store.recordNotModified(v.id, {
        pulseFingerprint,
        at,
        latencyMs: outcome.latencyMs,
        httpStatus: outcome.status,
        ...nextPollAt({ ...stateOf(v), failures: 0, pulsing: pulsing() }, at, config, random),
      });
      return { outcome: "not_modified", changes: 0 };
    }
    const notes: string[] = [];
    const documentUrl = new URL(outcome.url);
    // The adapter, then the reading limits and the plausible time range (domain/bounds.ts);
    // a large body on the parse worker (ingest/parse_worker.ts).
    const read = await ctx.parser.parse(platform, adapter, outcome.body, {
      pageUrl: new URL(v.statusPageUrl),
      fetchedAt: at,
      documentUrl,
    });
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    for (const [field, raw] of read.unknown) {
      const value = cutText(raw, 100);
      reportOnce(
        ctx,
        `${platform}|${field}|${value}`,
        () => deps.log.warn("unmapped platform value", { platform, field, value, vendor: v.slug }),
      );
    }
    for (const [path, reason] of read.dropped) {
      if (notes.length < MAX_NOTES) notes.push(cutText(`${path}: ${reason}`, 300));
      else if (notes.length === MAX_NOTES) notes.push("more items were dropped or cut");
    }
    if (read.snapshot === null) {
      const err = read.error;
      const outcomeName = parseFailureKind(err, outcome.body);
      if (outcomeName === "parse_error" && !(err instanceof PayloadError)) {
        deps.log.error("adapter threw", { vendor: v.slug, platform, error: String(err) });
      }
      return fail(v, outcomeName, String(err instanceof Error ? err.message : err), {
        at,
        latencyMs: outcome.latencyMs,
        httpStatus: outcome.status,
      }, ctx);
    }
    const settled = await withVanishedSettled(
      v,
      adapter,
      platform,
      read.snapshot,
      documentUrl,
      at,
      ctx,
      notes,
    );
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    const snapshot = await withGroupNames(v.id, adapter, settled, documentUrl, at, ctx, notes);
    if (ctx.aborted()) return { outcome: "aborted", changes: 0 };
    // A big document took its time to parse: let waiting requests run before the write.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The same rule the store's diff applies (domain/reading_diff.ts), so the schedule and
    // the stored history agree on whether the level moved.
    const after = serviceAfterReading(v, serviceStatus(snapshot), at);
    const state = {
      status: after.status,
      hasOpenIncident: snapshot.incidents.some((i) => isOpen(i.status)),
      lastChangedAt: after.lastChangedAt,
      failures: 0,
      pulsing: pulsing(),
    };
    const changes = await deps.store.recordSuccess(v.id, snapshot, {
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: outcome.status,
      etag: outcome.etag ?? null,
      lastModified: outcome.lastModified ?? null,
      notes,
      pulseFingerprint,
      ...nextPollAt(state, at, config, random, v.deadlineAt === 0),
    });
    ctx.bodies.set(v.id, digest);
    return { outcome: "ok", changes: changes.length };
  }
  return fail(
    v,
    outcome.reason,
    outcome.detail,
    {
      at,
      latencyMs: outcome.latencyMs,
      httpStatus: outcome.status ?? null,
    },
    ctx,
    outcome.retryAfterMs,
    host,
  );
}

/**
 * Records a failed poll. `retryAfterMs` (a vendor's `Retry-After`) also pauses every request to
 * `host` that long, and the next poll of the vendor comes no earlier.
 */
export async function fail(
  v: DueVendor,
  outcome: ReadingErrorKind,
  detail: string,
  poll: { at: EpochMs; latencyMs: number; httpStatus: number | null },
  ctx: PollContext,
  retryAfterMs?: number,
  host?: string,
): Promise<PollResult> {
  const { deps, config } = ctx;
  ctx.bodies.delete(v.id);
  ctx.pulses.forgetFingerprint(v.id);
  if (retryAfterMs !== undefined && host !== undefined) ctx.limiter.pause(host, retryAfterMs);
  const state = {
    ...stateOf(v),
    failures: v.failures + 1,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  const stale = isStale(v.lastSuccessAt, intervalMs(state, poll.at, config), poll.at);
  const platformMiss = isPlatformMiss(outcome, poll.httpStatus);
  const changes = await deps.store.recordFailure(v.id, {
    ...poll,
    outcome,
    detail,
    stale,
    platformMiss,
    ...nextPollAt(state, poll.at, config, deps.random ?? Math.random),
  });
  deps.log.debug("poll failed", { vendor: v.slug, outcome, detail });
  const redetect = platformMiss &&
    redetectionDue(v.platformMisses + 1, v.redetectedAt, poll.at);
  return { outcome, changes: changes.length, redetect };
}

/**
 * SHA-256 of a body, hex. A body under {@link OFF_THREAD_BYTES} is hashed at once with
 * `node:crypto` (far cheaper per call than `crypto.subtle.digest`: bench/README.md); a larger
 * one off the event loop.
 */
async function digestOf(body: string): Promise<string> {
  if (body.length < OFF_THREAD_BYTES) return createHash("sha256").update(body).digest("hex");
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}
