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
        standingSince: T + 3 * MIN - 7 * DAY,
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
      deepStrictEqual(await store.warnings.of("a"), {
        vendorId: ids.a!,
        slug: "a",
        state: suspected,
        updatedAt: T,
      });
      deepStrictEqual(await store.warnings.targets("a"), {
        domains: [],
        statusPageUrl: "https://status.a.test",
        probes: null,
        lastAnswers: {},
      });
      await store.warnings.record(ids.a!, {
        answered: { "https://a.test/": T },
        lastAnswers: { "https://a.test/": { answer: "up", since: T - MIN } },
        state: suspected,
        finished: [],
      }, T);
      deepStrictEqual(
        (await store.warnings.targets("a"))!.lastAnswers,
        { "https://a.test/": { answer: "up", since: T - MIN } },
      );
      await store.warnings.record(ids.a!, {
        answered: { "https://a.test/": T },
        state: suspected,
        finished: [],
      }, T);
      deepStrictEqual(
        (await store.warnings.claimDue(T, 10, "all", MIN)).find((d) => d.slug === "a")!
          .lastAnswers,
        { "https://a.test/": { answer: "up", since: T - MIN } },
        "a round that says nothing of them keeps them",
      );
      equal(await store.warnings.targets("nope"), null);
      deepStrictEqual((await store.warnings.open()).map((w) => w.slug), ["a"]);
      const due = await store.warnings.claimDue(T + MIN, 10, "all", MIN);
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
    name:
      "warnings: in public, reports count once per account of standing; an account lists its own",
    async run(store) {
      const ids = await withVendors(store, [vendor("a")]);
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      await store.accounts.create(accountOf("a3"), memberOf("m3", "a3", "three@x.test"));
      const mon = { components: [], label: null, slaTarget: null, paused: false };
      // a1 and a2 have monitored the vendor for a week; a3 only since yesterday.
      const since: [string, number][] = [["a1", T - 8 * DAY], ["a2", T - 7 * DAY - DAY / 2], [
        "a3",
        T - DAY,
      ]];
      for (const [accountId, createdAt] of since) {
        await store.monitors.create({
          ...mon,
          id: `mon-${accountId}`,
          accountId,
          serviceSlug: "a",
          createdAt,
        }, 10);
      }
      const report = (id: string, accountId: string, reporter: string, at: number) => ({
        id,
        accountId,
        reporter,
        slug: "a",
        component: id === "r3" ? "API" : null,
        note: `note ${id}`,
        at,
        standingSince: at - 7 * DAY,
      });
      equal(await store.warnings.recentReports(ids.a!, T - 30 * MIN), null);
      equal(await store.warnings.addReport(report("r0", "a1", "one@x.test", T - DAY), 0), true);
      equal(await store.warnings.addReport(report("r1", "a1", "one@x.test", T - 5 * MIN), 0), true);
      equal(await store.warnings.addReport(report("r2", "a1", "key k1", T - 4 * MIN), 0), true);
      equal(await store.warnings.addReport(report("r3", "a2", "two@x.test", T - MIN), 0), true);
      equal(await store.warnings.addReport(report("r6", "a3", "three@x.test", T), 0), true);
      equal(
        await store.warnings.addReport({ ...report("r4", "a1", "x", T), slug: "nope" }, 0),
        false,
      );
      deepStrictEqual(
        await store.warnings.recentReports(ids.a!, T - 30 * MIN),
        { accounts: 2, firstAt: T - 5 * MIN, lastAt: T - MIN },
        "a1's two reporters count once; a3 has not monitored it long enough",
      );
      deepStrictEqual(await store.warnings.accountReports(T - 30 * MIN), [
        {
          accountId: "a1",
          slug: "a",
          reporters: 2,
          firstAt: T - 5 * MIN,
          lastAt: T - 4 * MIN,
          component: null,
        },
        {
          accountId: "a2",
          slug: "a",
          reporters: 1,
          firstAt: T - MIN,
          lastAt: T - MIN,
          component: "API",
        },
        { accountId: "a3", slug: "a", reporters: 1, firstAt: T, lastAt: T, component: null },
      ]);
      deepStrictEqual(
        (await store.warnings.accountReports(T - 30 * MIN, { accountId: "a3", slug: "a" }))
          .map((r) => r.accountId),
        ["a3"],
      );
      deepStrictEqual(
        (await store.warnings.reportsSince("a1", T - 30 * MIN)).map((r) => [r.reporter, r.at]),
        [["one@x.test", T - 5 * MIN], ["key k1", T - 4 * MIN]],
      );
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
      "warnings: the vendor admits trouble when statusd first sees it, never by the dates it writes",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c"), vendor("d")]);
      // a: calm, then an incident first listed at T + 21 min (started, it says, at T).
      await read(store, ids.a!, snapshot("OPERATIONAL"), T - DAY);
      equal(await store.warnings.acknowledgedAt(ids.a!, T, T + MIN), null);
      await read(
        store,
        ids.a!,
        snapshot("OPERATIONAL", [], [incident("i1", T)]),
        T + 21 * MIN,
      );
      deepStrictEqual(
        await store.warnings.acknowledgedAt(ids.a!, T, T + 30 * MIN),
        { at: T + 21 * MIN, claimedStartAt: T },
        "seen at the reading that listed it; the start it gives kept beside",
      );
      equal(
        await store.warnings.acknowledgedAt(ids.a!, T, T + 10 * MIN),
        null,
        "listed after `until`: it covers nothing yet",
      );
      // b: its level turned at T + 5 min.
      await read(store, ids.b!, snapshot("OPERATIONAL"), T - DAY);
      await read(store, ids.b!, snapshot("MAJOR_OUTAGE"), T + 5 * MIN);
      deepStrictEqual(
        await store.warnings.acknowledgedAt(ids.b!, T, T + 10 * MIN),
        { at: T + 5 * MIN, claimedStartAt: null },
      );
      // c: in trouble since long before (the vendor was first).
      await read(store, ids.c!, snapshot("OPERATIONAL"), T - 2 * DAY);
      await read(store, ids.c!, snapshot("PARTIAL_OUTAGE"), T - DAY);
      deepStrictEqual(
        await store.warnings.acknowledgedAt(ids.c!, T, T + 10 * MIN),
        { at: T - DAY, claimedStartAt: null },
      );
      // d: a level and an incident both over before the evidence began acknowledge nothing.
      await read(store, ids.d!, snapshot("OPERATIONAL"), T - DAY);
      await read(
        store,
        ids.d!,
        snapshot("PARTIAL_OUTAGE", [], [incident("i2", T - 25 * MIN)]),
        T - 25 * MIN,
      );
      await read(
        store,
        ids.d!,
        snapshot("OPERATIONAL", [], [
          incident("i2", T - 25 * MIN, {
            status: "RESOLVED",
            resolvedAt: T - 10 * MIN,
            updatedAt: T - 10 * MIN,
          }),
        ]),
        T - 10 * MIN,
      );
      equal(await store.warnings.acknowledgedAt(ids.d!, T, T + 10 * MIN), null);
      deepStrictEqual(
        (await store.warnings.acknowledgedAt(ids.d!, T - 20 * MIN, T + 10 * MIN))?.at,
        T - 25 * MIN,
        "an episode that began while they lasted: the vendor was first",
      );
    },
  },
  {
    name:
      "warnings: an incident whose start is before the reading that did not list it is back-dated",
    async run(store) {
      const ids = await withVendors(store, [vendor("e")]);
      await read(store, ids.e!, snapshot("OPERATIONAL"), T);
      await read(store, ids.e!, snapshot("OPERATIONAL"), T + 5 * MIN);
      const early = incident("early", T + MIN, { title: "Says it began before" });
      await read(store, ids.e!, snapshot("OPERATIONAL", [], [early]), T + 10 * MIN);
      const fair = incident("fair", T + 12 * MIN);
      const planned = incident("planned", T, { impact: "MAINTENANCE", status: "SCHEDULED" });
      await read(store, ids.e!, snapshot("OPERATIONAL", [], [early, fair, planned]), T + 15 * MIN);
      deepStrictEqual(await store.warnings.backdated("e", T - DAY, 5), {
        total: 1,
        latest: [{
          title: "Says it began before",
          claimedStart: T + MIN,
          firstListedAt: T + 10 * MIN,
          priorReadAt: T + 5 * MIN,
        }],
      });
      deepStrictEqual(await store.warnings.backdated("e", T + 11 * MIN, 5), {
        total: 0,
        latest: [],
      });
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
