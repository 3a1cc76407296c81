/**
 * Conformance cases for `store.warnings`: probe rounds claimed once per interval (monitored
 * vendors or all), the warning memory and its phase, finished episodes within the window,
 * members' reports, and when the vendor admitted trouble.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { QUIET, REPORTS_KEPT_PER_ACCOUNT } from "../../../domain/mod.ts";
import { episodeAt, finishedAt, openState } from "../../support/warnings.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { DAY, incident, MIN, read, snapshot, T, vendor, withVendors } from "./_support.ts";

/** Suspected at T: 2 of 2 probes failing since a minute before. */
const suspected = openState(episodeAt(T - MIN, { suspectedAt: T, hosts: ["api.a.test"] }));

export const warningCases: readonly Case[] = [
  {
    name:
      "warnings: a round is claimed once per interval; monitored scope sees watched vendors only",
    async run(store) {
      await withVendors(store, [vendor("a", { domains: ["a.test"] }), vendor("b"), vendor("c")]);
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const mon = {
        accountId: "a1",
        components: [],
        label: null,
        slaTarget: null,
        createdAt: T,
      };
      await store.monitors.create({ ...mon, id: "m-a", serviceSlug: "a", paused: false }, 10);
      await store.monitors.create({ ...mon, id: "m-b", serviceSlug: "b", paused: true }, 10);
      const first = await store.warnings.claimDue(T, 10, "monitored", MIN);
      deepStrictEqual(first.map((d) => d.slug), ["a"], "paused monitors do not count");
      deepStrictEqual(first[0]!.domains, ["a.test"]);
      deepStrictEqual(first[0]!.state, QUIET);
      deepStrictEqual(first[0]!.answered, {});
      // Claimed: nobody else gets it before its next round.
      deepStrictEqual(await store.warnings.claimDue(T, 10, "monitored", MIN), []);
      deepStrictEqual(
        (await store.warnings.claimDue(T, 10, "all", MIN)).map((d) => d.slug),
        ["b", "c"],
      );
      deepStrictEqual(
        (await store.warnings.claimDue(T + MIN, 10, "all", MIN)).map((d) => d.slug),
        ["a", "b", "c"],
      );
      // Two claims at once never share a vendor.
      const [x, y] = await Promise.all([
        store.warnings.claimDue(T + 2 * MIN, 10, "all", MIN),
        store.warnings.claimDue(T + 2 * MIN, 10, "all", MIN),
      ]);
      equal(x.length + y.length, 3);
      equal(new Set([...x, ...y].map((d) => d.slug)).size, 3);
      equal(
        (await store.warnings.claimDue(T + 3 * MIN, 2, "all", MIN)).length,
        2,
        "at most `limit`",
      );
      // A vendor a member reported lately is watched too.
      await store.warnings.addReport({
        id: "r1",
        accountId: "a1",
        reporter: "one@x.test",
        slug: "c",
        component: null,
        note: "",
        at: T + 3 * MIN,
      }, 0);
      deepStrictEqual(
        (await store.warnings.claimDue(T + 5 * MIN, 10, "monitored", MIN)).map((d) => d.slug)
          .sort(),
        ["a", "c"],
      );
      deepStrictEqual(
        (await store.warnings.claimDue(T + 40 * MIN, 10, "monitored", MIN)).map((d) => d.slug),
        ["a"],
        "a report older than the window is not",
      );
    },
  },
  {
    name: "warnings: a round's memory and phase are kept; finished episodes within 90 days",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b")]);
      equal(await store.warnings.of("a"), null);
      await store.warnings.record(
        ids.a!,
        { answered: { "https://a.test/": T }, state: suspected, finished: [] },
        T,
      );
      deepStrictEqual(await store.warnings.of("a"), { slug: "a", state: suspected, updatedAt: T });
      deepStrictEqual((await store.warnings.open()).map((w) => w.slug), ["a"]);
      const due = await store.warnings.claimDue(T, 10, "all", MIN);
      deepStrictEqual(due.find((d) => d.slug === "a")!.answered, { "https://a.test/": T });
      deepStrictEqual(due.find((d) => d.slug === "a")!.state, suspected);

      await store.warnings.record(
        ids.a!,
        {
          answered: {},
          state: QUIET,
          finished: [
            finishedAt(T - 100 * DAY, 20),
            finishedAt(T - 2 * DAY, 240, false),
            finishedAt(T - DAY, 20),
          ],
        },
        T,
      );
      deepStrictEqual(await store.warnings.open(), []);
      deepStrictEqual(await store.warnings.episodes("a", T - 90 * DAY), [
        { firstEvidenceAt: T - 2 * DAY, delayMs: 240 * MIN, acknowledged: false },
        { firstEvidenceAt: T - DAY, delayMs: 20 * MIN, acknowledged: true },
      ]);
      deepStrictEqual(await store.warnings.episodes("b", 0), []);
    },
  },
  {
    name: "warnings: reports count distinct members in the window; an account lists its own",
    async run(store) {
      const ids = await withVendors(store, [vendor("a")]);
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const report = (id: string, accountId: string, reporter: string, at: number) => ({
        id,
        accountId,
        reporter,
        slug: "a",
        component: id === "r3" ? "API" : null,
        note: `note ${id}`,
        at,
      });
      equal(await store.warnings.recentReports(ids.a!, T - 30 * MIN), null);
      equal(await store.warnings.addReport(report("r0", "a1", "one@x.test", T - DAY), 0), true);
      equal(await store.warnings.addReport(report("r1", "a1", "one@x.test", T - 5 * MIN), 0), true);
      equal(await store.warnings.addReport(report("r2", "a1", "one@x.test", T - 4 * MIN), 0), true);
      equal(await store.warnings.addReport(report("r3", "a2", "two@x.test", T - MIN), 0), true);
      equal(
        await store.warnings.addReport({ ...report("r4", "a1", "x", T), slug: "nope" }, 0),
        false,
      );
      deepStrictEqual(await store.warnings.recentReports(ids.a!, T - 30 * MIN), {
        reporters: 2,
        firstAt: T - 5 * MIN,
        lastAt: T - MIN,
        component: "API",
      });
      deepStrictEqual((await store.warnings.reportsOf("a1", 10)).map((r) => r.id), [
        "r2",
        "r1",
        "r0",
      ]);
      deepStrictEqual(await store.warnings.reportsOf("a2", 10), [
        {
          id: "r3",
          reporter: "two@x.test",
          slug: "a",
          component: "API",
          note: "note r3",
          at: T - MIN,
        },
      ]);
      // Older reports of the vendor go when a new one comes.
      await store.warnings.addReport(report("r5", "a2", "two@x.test", T), T - 10 * MIN);
      deepStrictEqual((await store.warnings.reportsOf("a1", 10)).map((r) => r.id), ["r2", "r1"]);
      // An account keeps its newest reports only.
      for (let i = 0; i < REPORTS_KEPT_PER_ACCOUNT; i++) {
        await store.warnings.addReport(report(`m${i}`, "a2", "two@x.test", T + 1 + i), 0);
      }
      const kept = await store.warnings.reportsOf("a2", REPORTS_KEPT_PER_ACCOUNT + 10);
      equal(kept.length, REPORTS_KEPT_PER_ACCOUNT);
      equal(kept.at(-1)!.id, "m0", "the oldest kept is the first of the new ones");
      equal((await store.warnings.reportsOf("a1", 10)).length, 2, "another account keeps its own");
    },
  },
  {
    name:
      "warnings: the vendor admits trouble by its level or an incident, dated by its first update",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c")]);
      // a: calm, then an incident first written 20 min after T (started, it says, at T).
      await read(store, ids.a!, snapshot("OPERATIONAL"), T - DAY);
      equal(await store.warnings.acknowledgedAt(ids.a!, T - 30 * MIN, T + MIN), null);
      await read(
        store,
        ids.a!,
        snapshot("OPERATIONAL", [], [
          incident("i1", T, {
            updates: [{ at: T + 20 * MIN, status: "INVESTIGATING", body: "Looking" }],
            updatedAt: T + 20 * MIN,
          }),
        ]),
        T + 21 * MIN,
      );
      equal(await store.warnings.acknowledgedAt(ids.a!, T - 30 * MIN, T + MIN), T + 20 * MIN);
      equal(
        await store.warnings.acknowledgedAt(ids.a!, T - 30 * MIN, T - 10 * MIN),
        null,
        "an incident that started after `until` covers nothing",
      );
      // b: its level turned at T + 5 min.
      await read(store, ids.b!, snapshot("OPERATIONAL"), T - DAY);
      await read(store, ids.b!, snapshot("MAJOR_OUTAGE"), T + 5 * MIN);
      equal(await store.warnings.acknowledgedAt(ids.b!, T, T + 10 * MIN), T + 5 * MIN);
      // c: in trouble since long before (the vendor was first).
      await read(store, ids.c!, snapshot("OPERATIONAL"), T - 2 * DAY);
      await read(store, ids.c!, snapshot("PARTIAL_OUTAGE"), T - DAY);
      equal(await store.warnings.acknowledgedAt(ids.c!, T, T + 10 * MIN), T - DAY);
    },
  },
  {
    name:
      "warnings: a round's changes go to the change log in the same act, and subscribers hear them",
    async run(store) {
      const ids = await withVendors(store, [vendor("a")]);
      const heard: string[] = [];
      const stop = store.changes.subscribe((cs) => {
        for (const c of cs) if (c.kind === "early_warning") heard.push(`${c.slug} ${c.phase}`);
      });
      try {
        const change = {
          kind: "early_warning" as const,
          slug: "a",
          phase: "suspected" as const,
          since: new Date(T - MIN).toISOString(),
          summary: "statusd's own checks have seen errors",
        };
        await store.warnings.record(ids.a!, {
          answered: {},
          state: suspected,
          finished: [],
          changes: [change],
        }, T);
        const logged = await store.changes.after(0, 100);
        equal(logged.length, 1);
        deepStrictEqual({ ...logged[0]!, id: 0 }, { ...change, id: 0, at: T });
        equal(await store.changes.latestId(), logged[0]!.id);
        deepStrictEqual(heard, ["a suspected"]);
      } finally {
        stop();
      }
    },
  },
];
