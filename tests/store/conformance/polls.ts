/**
 * Conformance: `store.polls` beyond the reading itself: who is due, not-modified, failures
 * (reading health, staleness), skipped vendors, detection, re-detection, endpoints, notes and
 * the fetch log.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { Change, FailureRecord, ReadingErrorKind, Store } from "../../../domain/mod.ts";
import { histogramOf, READING_MESSAGE_MAX, READING_NOTES_MAX } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import {
  ALL_TIME,
  component,
  DAY,
  incident,
  MIN,
  read,
  snapshot,
  success,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

/** A failed poll at `at` (next due a minute later). */
export function failure(
  at: number,
  outcome: ReadingErrorKind,
  extra: Partial<FailureRecord> = {},
): FailureRecord {
  return {
    at,
    latencyMs: 3,
    httpStatus: null,
    nextPollAt: at + MIN,
    deadlineAt: at + 2 * MIN,
    outcome,
    detail: `${outcome} happened`,
    stale: false,
    platformMiss: false,
    ...extra,
  };
}

async function readingOf(store: Store, slug = "a") {
  return (await store.catalog.service(slug))!.reading;
}

export const pollCases: Case[] = [
  {
    name:
      "polls.claimDue: catalog vendors due at now, promised ones first, each most overdue first, at most limit, with what the poller needs",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c"), vendor("gone")]);
      await store.polls.recordSuccess(ids.a!, snapshot("OPERATIONAL", [], [incident("x", T)]), {
        ...success(T),
        nextPollAt: T + 2 * MIN,
        deadlineAt: T + 3 * MIN,
        etag: '"v1"',
        lastModified: "Sun, 01 Mar 2026 00:00:00 GMT",
      });
      await store.polls.recordSuccess(ids.b!, snapshot("OPERATIONAL"), {
        ...success(T),
        nextPollAt: T + MIN,
      });
      await store.catalog.sync([vendor("a"), vendor("b"), vendor("c")], T);
      equal(await store.polls.countDue(T), 1, "c, never polled, is due; gone is retired");
      // c was never polled (no deadline yet): it waits behind the promised a and b although
      // it has been due the longest.
      deepStrictEqual((await store.polls.claimDue(T + 5 * MIN, 10)).map((v) => v.slug), [
        "b",
        "a",
        "c",
      ]);
      deepStrictEqual((await store.polls.claimDue(T + 5 * MIN, 2)).map((v) => v.slug), [
        "b",
        "a",
      ]);
      deepStrictEqual((await store.polls.claimDue(T + 30 * 1000, 10)).map((v) => v.slug), [
        "c",
      ], "only c is due yet");
      equal(await store.polls.countDue(T + 5 * MIN), 3);
      const a = (await store.polls.claimDue(T + 5 * MIN, 10)).find((v) => v.slug === "a")!;
      deepStrictEqual(a, {
        id: ids.a,
        slug: "a",
        statusPageUrl: "https://status.a.test",
        platform: "statuspage",
        detectedPlatform: null,
        endpointUrl: null,
        currentStatus: "OPERATIONAL",
        hasOpenIncident: true,
        lastChangedAt: null,
        lastSuccessAt: T,
        failures: 0,
        etag: '"v1"',
        lastModified: "Sun, 01 Mar 2026 00:00:00 GMT",
        nextPollAt: T + 2 * MIN,
        deadlineAt: T + 3 * MIN,
        platformMisses: 0,
        redetectedAt: null,
        pulseFingerprint: null,
        lastFullAt: T,
      });
    },
  },
  {
    name:
      "polls.nextPromisedAt: when the first vendor a poll promised a deadline to is due; null when none has one",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("gone")]);
      equal(await store.polls.nextPromisedAt(), null, "never read: no promise yet");
      await store.polls.recordSuccess(ids.a!, snapshot("OPERATIONAL"), {
        ...success(T),
        nextPollAt: T + 2 * MIN,
      });
      await store.polls.recordFailure(ids.b!, failure(T, "timeout"));
      await store.polls.recordSuccess(ids.gone!, snapshot("OPERATIONAL"), {
        ...success(T),
        nextPollAt: T + 30 * 1000,
      });
      await store.catalog.sync([vendor("a"), vendor("b")], T);
      equal(await store.polls.nextPromisedAt(), T + MIN, "b's retry; gone is retired");
      await store.polls.recordSkipped(ids.b!, T + 10 * 1000, "no adapter");
      equal(await store.polls.nextPromisedAt(), T + 2 * MIN, "a skip promises nothing");
    },
  },
  {
    name:
      "polls.recordFailure: an error keeps its start while kind and status repeat; a success clears it",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await store.polls.recordFailure(a!, failure(T, "http_status", { httpStatus: 503 }));
      await store.polls.recordFailure(a!, failure(T + MIN, "http_status", { httpStatus: 503 }));
      let r = await readingOf(store);
      deepStrictEqual([r.consecutiveFailures, r.error], [2, {
        kind: "http_status",
        httpStatus: 503,
        message: "http_status happened",
        since: T,
      }]);
      await store.polls.recordFailure(a!, failure(T + 2 * MIN, "http_status", { httpStatus: 502 }));
      equal((await readingOf(store)).error?.since, T + 2 * MIN, "another status: a new error");
      await store.polls.recordFailure(a!, failure(T + 3 * MIN, "timeout"));
      r = await readingOf(store);
      deepStrictEqual([r.consecutiveFailures, r.error?.kind, r.error?.since], [
        4,
        "timeout",
        T + 3 * MIN,
      ]);
      equal(r.lastAttemptAt, T + 3 * MIN);
      await store.polls.recordNotModified(a!, {
        at: T + 4 * MIN,
        latencyMs: 1,
        httpStatus: 304,
        nextPollAt: T + 9 * MIN,
        deadlineAt: T + 10 * MIN,
      });
      r = await readingOf(store);
      deepStrictEqual([r.consecutiveFailures, r.error, r.lastSuccessAt], [0, null, T + 4 * MIN]);
      await store.polls.recordFailure(a!, failure(T + 5 * MIN, "timeout"));
      equal((await readingOf(store)).error?.since, T + 5 * MIN, "after a success, a new run");
    },
  },
  {
    name:
      "polls.recordFailure cuts the message; a stale failure makes the service UNKNOWN once and forgets validators",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await store.polls.recordSuccess(a!, snapshot("MAJOR_OUTAGE"), {
        ...success(T),
        etag: '"v1"',
      });
      deepStrictEqual(
        await store.polls.recordFailure(
          a!,
          failure(T + MIN, "network", { detail: "x".repeat(5000) }),
        ),
        [],
      );
      equal((await readingOf(store)).error?.message.length, READING_MESSAGE_MAX);
      equal((await store.catalog.service("a"))!.currentStatus, "MAJOR_OUTAGE");
      const changes = await store.polls.recordFailure(
        a!,
        failure(T + DAY, "network", { stale: true }),
      );
      deepStrictEqual(changes.map(({ id: _i, ...c }) => c), [{
        kind: "status",
        slug: "a",
        component: null,
        from: "MAJOR_OUTAGE",
        to: "UNKNOWN",
        at: T + DAY,
      }]);
      ok(changes[0]!.id > 0);
      const s = (await store.catalog.service("a"))!;
      deepStrictEqual([s.currentStatus, s.lastChangedAt], ["UNKNOWN", T + DAY]);
      deepStrictEqual(
        await store.polls.recordFailure(a!, failure(T + DAY + MIN, "network", { stale: true })),
        [],
        "already UNKNOWN",
      );
      const due = (await store.polls.claimDue(T + 2 * DAY, 10))[0]!;
      deepStrictEqual([due.etag, due.lastModified], [null, null]);
      deepStrictEqual(
        (await store.history.timeline("a", ALL_TIME, "last"))!.transitions.map((t) => t.to),
        ["MAJOR_OUTAGE", "UNKNOWN"],
      );
    },
  },
  {
    name: "polls: platform misses count up, reset by a success and by re-detection",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      for (let i = 0; i < 3; i++) {
        await store.polls.recordFailure(
          a!,
          failure(T + i * MIN, "http_status", { httpStatus: 404, platformMiss: true }),
        );
      }
      await store.polls.recordFailure(a!, failure(T + 3 * MIN, "timeout"));
      equal((await store.polls.claimDue(T + DAY, 1))[0]!.platformMisses, 3);
      await read(store, a!, snapshot("OPERATIONAL"), T + 4 * MIN);
      equal((await store.polls.claimDue(T + DAY, 1))[0]!.platformMisses, 0);
      await store.polls.recordFailure(
        a!,
        failure(T + 5 * MIN, "bad_payload", { platformMiss: true }),
      );
      await store.polls.setEndpoint(a!, "https://api.a.test/v2");
      await store.polls.recordRedetection(a!, {
        at: T + 6 * MIN,
        from: "statuspage",
        to: "unknown",
      });
      let due = (await store.polls.claimDue(T + DAY, 1))[0]!;
      deepStrictEqual(
        [due.platformMisses, due.redetectedAt, due.detectedPlatform, due.endpointUrl],
        [0, T + 6 * MIN, null, "https://api.a.test/v2"],
        "nothing found: the platform and endpoint stay",
      );
      deepStrictEqual((await readingOf(store)).redetection, {
        at: T + 6 * MIN,
        from: "statuspage",
        to: "unknown",
      });
      await store.polls.recordRedetection(a!, {
        at: T + 7 * MIN,
        from: "statuspage",
        to: "instatus",
      });
      due = (await store.polls.claimDue(T + DAY, 1))[0]!;
      deepStrictEqual([due.detectedPlatform, due.endpointUrl, due.etag], ["instatus", null, null]);
      equal((await store.catalog.service("a"))!.platform, "instatus");
    },
  },
  {
    name:
      "polls.recordSkipped: the vendor reads unsupported with the reason, and is due again at nextPollAt",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a", { platform: "html" })]);
      await store.polls.recordSkipped(a!, T + 60 * MIN, "no machine-readable status");
      const r = await readingOf(store);
      deepStrictEqual([r.error, (await store.catalog.service("a"))!.reading.unsupportedReason], [
        null,
        "no machine-readable status",
      ]);
      equal(await store.polls.countDue(T + 59 * MIN), 0);
      equal(await store.polls.countDue(T + 60 * MIN), 1);
      equal((await store.polls.claimDue(T + 60 * MIN, 1))[0]!.deadlineAt, 0);
    },
  },
  {
    name: "polls.setDetectedPlatform and setEndpoint are what the next due vendor carries",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a", { platform: "unknown" })]);
      await store.polls.setDetectedPlatform(a!, "statusio");
      await store.polls.setEndpoint(a!, "https://api.status.io/1.0/status/abc");
      let due = (await store.polls.claimDue(T, 1))[0]!;
      deepStrictEqual([due.platform, due.detectedPlatform, due.endpointUrl], [
        "unknown",
        "statusio",
        "https://api.status.io/1.0/status/abc",
      ]);
      await store.polls.setEndpoint(a!, null);
      due = (await store.polls.claimDue(T, 1))[0]!;
      equal(due.endpointUrl, null);
    },
  },
  {
    name:
      "polls.recordSuccess keeps the reading's notes (bounded); not-modified keeps them; a success replaces them",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      const notes = Array.from({ length: READING_NOTES_MAX + 5 }, (_, i) => `note ${i}`);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), { ...success(T), notes });
      let kept = (await readingOf(store)).notes;
      equal(kept.length, READING_NOTES_MAX);
      equal(kept[0], "note 0");
      await store.polls.recordNotModified(a!, {
        at: T + MIN,
        latencyMs: 1,
        httpStatus: 304,
        nextPollAt: T + 2 * MIN,
        deadlineAt: T + 3 * MIN,
      });
      equal((await readingOf(store)).notes.length, READING_NOTES_MAX);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), {
        ...success(T + 2 * MIN),
        notes: ["only this"],
      });
      kept = (await readingOf(store)).notes;
      deepStrictEqual(kept, ["only this"]);
    },
  },
  {
    name: "every poll outcome is one row of the vendor's fetch log",
    async run(store) {
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T, { latencyMs: 12 }));
      await store.polls.recordNotModified(a!, {
        at: T + MIN,
        latencyMs: 7,
        httpStatus: 304,
        nextPollAt: T + 2 * MIN,
        deadlineAt: T + 3 * MIN,
      });
      await store.polls.recordFailure(a!, failure(T + 2 * MIN, "http_status", { httpStatus: 500 }));
      await store.polls.recordFailure(b!, failure(T + 2 * MIN, "timeout"));
      deepStrictEqual(await store.history.fetchLog("a", 0), [
        { at: T, outcome: "ok", httpStatus: 200, latencyMs: 12 },
        { at: T + MIN, outcome: "not_modified", httpStatus: 304, latencyMs: 7 },
        { at: T + 2 * MIN, outcome: "http_status", httpStatus: 500, latencyMs: 3 },
      ]);
      deepStrictEqual((await store.history.fetchLog("a", T + MIN)).length, 2);
      deepStrictEqual(await store.history.fetchLog("nobody", 0), []);
    },
  },
  {
    name:
      "polls.recordPulse: a success that schedules the next poll, counted in the latency summary, not logged",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T, { latencyMs: 12 }));
      await store.polls.recordFailure(a!, failure(T + MIN, "timeout"));
      await store.polls.recordPulse(a!, {
        at: T + 2 * MIN,
        latencyMs: 250,
        httpStatus: 304,
        nextPollAt: T + 3 * MIN,
        deadlineAt: T + 4 * MIN,
      });
      const reading = (await store.catalog.service("a"))!.reading;
      equal(reading.consecutiveFailures, 0);
      equal(reading.error, null);
      equal(reading.lastSuccessAt, T + 2 * MIN);
      equal((await store.polls.claimDue(T + 3 * MIN, 10)).length, 1);
      equal((await store.polls.claimDue(T + 3 * MIN - 1, 10)).length, 0);
      deepStrictEqual((await store.history.fetchLog("a", 0)).map((f) => f.outcome), [
        "ok",
        "timeout",
      ]);
      const sla = (await store.history.slaInputs("a", { start: T, end: T + DAY }, {
        start: T,
        end: T + DAY,
      }))!;
      deepStrictEqual(
        [...sla.latency].sort((x, y) => x[0] - y[0]),
        [...histogramOf([12, 250])].sort((x, y) => x[0] - y[0]),
      );
    },
  },
  {
    name:
      "polls: a full read's pulse fingerprint and time come back with the vendor; pulses and failures keep them, a full read without one clears the fingerprint",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      const due = async (at: number) => {
        const [v] = await store.polls.claimDue(at, 10);
        return { pulseFingerprint: v!.pulseFingerprint, lastFullAt: v!.lastFullAt };
      };
      deepStrictEqual(await due(T), { pulseFingerprint: null, lastFullAt: null }, "never read");
      await store.polls.recordSuccess(
        a!,
        snapshot("OPERATIONAL"),
        success(T, { pulseFingerprint: "none@2026-03-01T00:00:00Z" }),
      );
      deepStrictEqual(await due(T + MIN), {
        pulseFingerprint: "none@2026-03-01T00:00:00Z",
        lastFullAt: T,
      });
      const poll = (at: number) => ({
        at,
        latencyMs: 5,
        httpStatus: 304,
        nextPollAt: at + MIN,
        deadlineAt: at + 2 * MIN,
      });
      await store.polls.recordPulse(a!, poll(T + MIN));
      await store.polls.recordFailure(a!, failure(T + 2 * MIN, "timeout"));
      deepStrictEqual(await due(T + 3 * MIN), {
        pulseFingerprint: "none@2026-03-01T00:00:00Z",
        lastFullAt: T,
      }, "a pulse and a failure are not full reads");
      await store.polls.recordNotModified(a!, { ...poll(T + 3 * MIN), pulseFingerprint: "x@2" });
      deepStrictEqual(await due(T + 4 * MIN), { pulseFingerprint: "x@2", lastFullAt: T + 3 * MIN });
      await store.polls.recordNotModified(a!, poll(T + 4 * MIN));
      deepStrictEqual(await due(T + 5 * MIN), { pulseFingerprint: null, lastFullAt: T + 4 * MIN });
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T + 5 * MIN));
      deepStrictEqual(await due(T + 6 * MIN), { pulseFingerprint: null, lastFullAt: T + 5 * MIN });
    },
  },
  {
    name:
      "polls: records written at once each settle after their own commit, with their own changes; one that fails rejects alone",
    async run(store) {
      const { a, b, c } = await withVendors(store, [vendor("a"), vendor("b"), vendor("c")]);
      await read(store, c!, snapshot("OPERATIONAL"), T - DAY);
      const before = await store.changes.latestId();
      const told: Change[][] = [];
      const stop = store.changes.subscribe((batch) => told.push([...batch]));
      const missing = Math.max(a!, b!, c!) + 1000;
      // Not awaited one by one: an engine may commit them together (SQLite's group commit).
      const settled = await Promise.allSettled([
        store.polls.recordSuccess(a!, snapshot("MAJOR_OUTAGE"), success(T, { latencyMs: 11 })),
        store.polls.recordSuccess(missing, snapshot("MAJOR_OUTAGE"), success(T)),
        store.polls.recordPulse(b!, {
          at: T,
          latencyMs: 22,
          httpStatus: 200,
          nextPollAt: T + 5 * MIN,
          deadlineAt: T + 6 * MIN,
        }),
        store.polls.recordFailure(c!, failure(T, "network", { stale: true })),
      ]);
      stop();
      deepStrictEqual(settled.map((s) => s.status), [
        "fulfilled",
        "rejected",
        "fulfilled",
        "fulfilled",
      ]);
      const fromA = (settled[0] as PromiseFulfilledResult<readonly Change[]>).value;
      const fromC = (settled[3] as PromiseFulfilledResult<readonly Change[]>).value;
      deepStrictEqual(fromA.map((x) => [x.kind, x.slug, "to" in x ? x.to : null]), [[
        "status",
        "a",
        "MAJOR_OUTAGE",
      ]]);
      deepStrictEqual(fromC.map((x) => [x.kind, x.slug, "to" in x ? x.to : null]), [[
        "status",
        "c",
        "UNKNOWN",
      ]]);
      deepStrictEqual(
        told.flat().map((x) => x.id).sort((x, y) => x - y),
        [...fromA, ...fromC].map((x) => x.id).sort((x, y) => x - y),
        "subscribers hear each committed change once, none of the failed record",
      );
      deepStrictEqual(
        (await store.changes.after(before, 10)).map((x) => x.slug).sort(),
        ["a", "c"],
        "committed and readable once settled",
      );
      equal((await store.catalog.service("a"))!.currentStatus, "MAJOR_OUTAGE");
      equal((await readingOf(store, "b")).lastSuccessAt, T);
      equal((await store.polls.claimDue(T + 5 * MIN - 1, 10)).some((v) => v.slug === "b"), false);
      equal((await store.catalog.service("c"))!.currentStatus, "UNKNOWN");
      deepStrictEqual((await store.history.fetchLog("a", 0)).map((f) => f.latencyMs), [11]);
    },
  },
  {
    name:
      "polls: a record the store cannot write leaves no part of itself while others written with it land",
    async run(store) {
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL", [component("x")]), success(T));
      const before = await store.changes.latestId();
      const [broken, fine] = await Promise.allSettled([
        // A time that is not a number cannot be stored: the write fails part way through.
        store.polls.recordSuccess(
          a!,
          snapshot("MAJOR_OUTAGE", [component("x", "MAJOR_OUTAGE"), component("y")], [
            incident("i1", T + MIN),
          ]),
          success(Number.NaN, { latencyMs: 70 }),
        ),
        store.polls.recordSuccess(b!, snapshot("DEGRADED_PERFORMANCE"), success(T + MIN)),
      ]);
      equal(broken!.status, "rejected");
      equal(fine!.status, "fulfilled");
      const d = (await store.catalog.detail("a", ALL_TIME, 0))!;
      equal(d.service.currentStatus, "OPERATIONAL");
      deepStrictEqual(d.components.map((x) => [x.name, x.status]), [["X", "OPERATIONAL"]]);
      deepStrictEqual(d.incidents, []);
      equal((await readingOf(store, "a")).lastSuccessAt, T);
      equal((await store.history.fetchLog("a", 0)).length, 1);
      const sla = (await store.history.slaInputs("a", ALL_TIME, { start: T, end: T }))!;
      deepStrictEqual([...sla.latency.values()], [1], "only the first read is counted");
      deepStrictEqual((await store.changes.after(before, 100)).map((x) => x.slug), ["b"]);
      equal((await store.catalog.service("b"))!.currentStatus, "DEGRADED_PERFORMANCE");
    },
  },
];
