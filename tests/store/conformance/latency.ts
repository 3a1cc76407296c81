/**
 * Conformance: the latency summary (issue #15) as the port shows it. Every answered poll (full
 * read, not modified, pulse) counts its latency for its vendor and UTC day; failures do not;
 * `history.slaInputs` reads the whole UTC days its latency window touches; the summary outlives
 * the raw fetch log and is pruned by whole days.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  histogramOf,
  histogramSamples,
  type LatencyHistogram,
  type PollRecord,
  type Store,
  type TimeWindow,
} from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import { DAY, MIN, snapshot, success, T, vendor, withVendors } from "./_support.ts";

const HOUR = 60 * MIN;
const ago = (days: number) => T - days * DAY;

/** A histogram's buckets in order, to compare. */
function sorted(h: LatencyHistogram): [number, number][] {
  return [...h].sort((x, y) => x[0] - y[0]);
}

/** The poll facts of an answered pulse or unchanged document at `at`. */
function answered(at: number, latencyMs: number, httpStatus = 304): PollRecord {
  return { at, latencyMs, httpStatus, nextPollAt: at + MIN, deadlineAt: at + 2 * MIN };
}

/** The latency histogram `slaInputs` gives `slug` for the latency window `latency`. */
async function latencyOf(store: Store, slug: string, latency: TimeWindow) {
  return (await store.history.slaInputs(slug, latency, latency))!.latency;
}

export const latencyCases: Case[] = [
  {
    name:
      "latency summary: full reads, not-modified answers and pulses count, failures do not; per vendor; equal latencies add up",
    async run(store) {
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T, { latencyMs: 120 }));
      await store.polls.recordNotModified(a!, answered(T + MIN, 120));
      await store.polls.recordPulse(a!, answered(T + 2 * MIN, 120, 200));
      await store.polls.recordPulse(a!, answered(T + 3 * MIN, 480, 200));
      await store.polls.recordFailure(a!, {
        ...answered(T + 4 * MIN, 9_000, 503),
        outcome: "http_status",
        detail: "503",
        stale: false,
        platformMiss: false,
      });
      await store.polls.recordSuccess(b!, snapshot("OPERATIONAL"), success(T, { latencyMs: 7 }));
      const day = { start: T, end: T + HOUR };
      deepStrictEqual(
        sorted(await latencyOf(store, "a", day)),
        sorted(histogramOf([120, 120, 120, 480])),
      );
      deepStrictEqual(sorted(await latencyOf(store, "b", day)), sorted(histogramOf([7])));
    },
  },
  {
    name:
      "latency summary: slaInputs reads the whole UTC days its latency window touches, and no other day",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      // The last millisecond of the day before T, T itself, the end of T's day, the next day.
      const reads: [number, number][] = [[T - 1, 10], [T, 20], [T + DAY - 1, 30], [T + DAY, 40]];
      for (const [at, latencyMs] of reads) {
        await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(at, { latencyMs }));
      }
      const noon = T + 12 * HOUR;
      deepStrictEqual(
        sorted(await latencyOf(store, "a", { start: noon, end: noon + HOUR })),
        sorted(histogramOf([20, 30])),
        "a window inside one day reads that whole day",
      );
      deepStrictEqual(
        sorted(await latencyOf(store, "a", { start: T - 1, end: T })),
        sorted(histogramOf([10, 20, 30])),
        "a window across midnight reads both days",
      );
      deepStrictEqual(
        sorted(await latencyOf(store, "a", { start: T + 3 * DAY, end: T + 4 * DAY })),
        [],
        "days without answers read empty",
      );
    },
  },
  {
    name:
      "latency summary outlives the fetch log: pruning the log leaves SLA latencies, pruning the summary leaves the log",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      for (const days of [30, 20, 11, 10, 1]) {
        await store.polls.recordSuccess(
          a!,
          snapshot("OPERATIONAL"),
          success(ago(days) + HOUR, { latencyMs: 50 }),
        );
      }
      let removed = 0;
      for (let n; (n = await store.retention.pruneFetchLog(ago(14))) > 0;) removed += n;
      equal(removed, 2);
      deepStrictEqual((await store.history.fetchLog("a", 0)).map((f) => f.at), [
        ago(11) + HOUR,
        ago(10) + HOUR,
        ago(1) + HOUR,
      ]);
      const quarter = { start: ago(90), end: T };
      equal(histogramSamples(await latencyOf(store, "a", quarter)), 5, "every day still counted");
      // The cutoff falls at noon of the day 10 days ago: that day is kept whole, day 11 goes.
      let days = 0;
      for (let n; (n = await store.retention.pruneLatencyDays(ago(10) + 12 * HOUR)) > 0;) {
        days += n;
      }
      equal(days, 3, "the days 30, 20 and 11 ago (one latency bucket each)");
      equal(histogramSamples(await latencyOf(store, "a", quarter)), 2);
      equal((await store.history.fetchLog("a", 0)).length, 3, "the fetch log is untouched");
    },
  },
];
