/**
 * Conformance: `store.changes` (the durable feed: ids, resume, subscribers after commit).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { Change } from "../../../domain/mod.ts";
import type { Case } from "./_support.ts";
import { component, MIN, snapshot, success, T, vendor, withVendors } from "./_support.ts";

export const changeCases: Case[] = [
  {
    name: "changes: increasing ids, resumed after an id in order and in chunks, newest id",
    async run(store) {
      equal(await store.changes.latestId(), 0);
      deepStrictEqual(await store.changes.after(0, 10), []);
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      const first = await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T));
      const second = await store.polls.recordSuccess(
        b!,
        snapshot("MAJOR_OUTAGE", [component("x", "MAJOR_OUTAGE")]),
        success(T + MIN),
      );
      const third = await store.polls.recordSuccess(
        a!,
        snapshot("PARTIAL_OUTAGE", [component("y", "PARTIAL_OUTAGE")]),
        success(T + 2 * MIN),
      );
      const all = [...first, ...second, ...third];
      equal(all.length, 3);
      ok(all.every((c, i) => i === 0 || c.id > all[i - 1]!.id), "ids increase");
      equal(await store.changes.latestId(), all[2]!.id);
      deepStrictEqual(await store.changes.after(0, 100), all);
      deepStrictEqual(await store.changes.after(all[0]!.id, 1), [all[1]]);
      deepStrictEqual(await store.changes.after(all[2]!.id, 100), []);
      deepStrictEqual(all.map((c) => [c.slug, c.at]), [["a", T], ["b", T + MIN], [
        "a",
        T + 2 * MIN,
      ]]);
    },
  },
  {
    name:
      "changes.subscribe is told every committed batch once, after the commit; a throwing subscriber breaks nothing",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a")]);
      const seen: Change[][] = [];
      // What the store answers, asked the moment a batch is told (awaited below: on PostgreSQL
      // the answer takes a round trip).
      const newestWhenTold: Promise<number>[] = [];
      const stop = store.changes.subscribe((batch) => {
        seen.push([...batch]);
        newestWhenTold.push(store.changes.latestId());
      });
      store.changes.subscribe(() => {
        throw new Error("a broken subscriber");
      });
      const committed = await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T));
      await store.polls.recordSuccess(a!, snapshot("OPERATIONAL"), success(T + MIN));
      const failed = await store.polls.recordFailure(a!, {
        at: T + 2 * MIN,
        latencyMs: 1,
        httpStatus: null,
        nextPollAt: T + 3 * MIN,
        deadlineAt: T + 3 * MIN,
        outcome: "network",
        detail: "down",
        stale: true,
        platformMiss: false,
      });
      await new Promise((r) => setTimeout(r, 0));
      deepStrictEqual(seen, [[...committed], [...failed]], "no empty batch; every batch once");
      equal(
        await newestWhenTold.at(-1),
        failed[0]!.id,
        "told after the commit: the change is readable",
      );
      stop();
      await store.polls.recordSuccess(a!, snapshot("MAJOR_OUTAGE"), success(T + 3 * MIN));
      equal(seen.length, 2, "unsubscribed");
    },
  },
];
