/**
 * Retention on a fake clock over a history recorded through the store's port (readings at past
 * times): what is older than the reported windows goes, what a report can still read stays, and
 * the reports read the same before and after a run.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  type AppContext,
  pruneExpired,
  serviceHistory,
  serviceUptime,
  slaReport,
  startRetention,
} from "../../app/mod.ts";
import {
  ANONYMOUS,
  DAY_MS,
  latencyBucket,
  type Principal,
  RETENTION,
  type Store,
  utcDayStart,
} from "../../domain/mod.ts";
import { addIncident, addTransitions, addVendor, apiRig, setStatus, T0 } from "../support/api.ts";
import { addComponent, recordReading, removeComponent } from "../support/seed.ts";

const ago = (days: number) => T0 - days * DAY_MS;
const ALL = { start: ago(1000), end: T0 + DAY_MS };

async function seed(store: Store) {
  for (const slug of ["a", "b", "c", "d"]) await addVendor(store, { slug });
  // a: recovered 120 days ago, an outage spanning the 97-day cutoff, recovered 50 days ago.
  await addTransitions(store, "a", [
    [ago(200), "OPERATIONAL"],
    [ago(150), "MAJOR_OUTAGE"],
    [ago(120), "OPERATIONAL"],
    [ago(100), "MAJOR_OUTAGE"],
    [ago(50), "OPERATIONAL"],
  ]);
  // b: down since first seen 300 days ago, recovered 10 days ago (no recovery before the cutoff).
  await addTransitions(store, "b", [
    [ago(300), "MAJOR_OUTAGE"],
    [ago(200), "PARTIAL_OUTAGE"],
    [ago(10), "OPERATIONAL"],
  ]);
  // c: its last recovery before the cutoff is older than a year.
  await addTransitions(store, "c", [
    [ago(500), "OPERATIONAL"],
    [ago(450), "MAJOR_OUTAGE"],
    [ago(400), "OPERATIONAL"],
    [ago(380), "MAJOR_OUTAGE"],
    [ago(10), "OPERATIONAL"],
  ]);
  // a's incidents, on its page as read 50 days ago: two closed around the cutoff, one open.
  const closed = (externalId: string, days: number) =>
    addIncident(store, "a", {
      externalId,
      title: externalId,
      status: "RESOLVED",
      impact: "MINOR",
      startedAt: ago(days + 1),
      resolvedAt: ago(days),
      updates: [{ at: ago(days + 1), status: "INVESTIGATING", body: "x" }],
    }, ago(50));
  await closed("closed-98", 98);
  await closed("closed-96", 96);
  await addIncident(store, "a", {
    externalId: "open-200",
    title: "still open",
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: ago(200),
    updates: [{ at: ago(200), status: "INVESTIGATING", body: "y" }],
  }, ago(50));
  // d: three components read 120 days ago; one left the page 98 days ago, one 10 days ago.
  await setStatus(store, "d", "OPERATIONAL", ago(120));
  for (const c of ["gone-98", "gone-10", "live"]) {
    await addComponent(store, "d", { externalId: c, name: c, status: "OPERATIONAL" }, ago(120));
  }
  await removeComponent(store, "d", "gone-98", ago(98));
  await removeComponent(store, "d", "gone-10", ago(10));
}

const PRO: Principal = {
  kind: "session",
  account: { id: "acc", name: "Acme", plan: "PRO", slaTarget: 99.9, createdAt: T0 },
  member: { id: "m", accountId: "acc", email: "a@example.test", role: "OWNER" },
};

/** What users read: uptime and MTTR, 90-day history, SLA reports over 1, 30 and 90 days. */
async function reports(ctx: AppContext) {
  const out = [];
  for (const slug of ["a", "b", "c", "d"]) {
    out.push({
      uptime: await serviceUptime(ctx, ANONYMOUS, slug),
      history: await serviceHistory(ctx, ANONYMOUS, slug, 90),
      sla: await Promise.all([1, 30, 90].map((days) => slaReport(ctx, PRO, slug, days))),
    });
  }
  return out;
}

/** Days ago of each service-level transition of `slug`. */
async function serviceDays(store: Store, slug: string) {
  return (await store.history.timeline(slug, ALL, "last"))!.transitions.map((t) =>
    Math.round((T0 - t.at) / DAY_MS)
  );
}

Deno.test("retention deletes what no report reads and keeps what they do", async () => {
  const rig = apiRig();
  try {
    await seed(rig.store);
    const read = await reports(rig.ctx);
    const fetchesBefore = await Promise.all(
      ["a", "b", "c", "d"].map((s) => rig.store.history.fetchLog(s, 0)),
    );
    const changesBefore = await rig.store.changes.after(0, 10_000);

    const report = await pruneExpired(rig.ctx);

    deepStrictEqual(await reports(rig.ctx), read, "every report reads the same");
    // a and b lose nothing a report reads; c loses its recovery of 400 days ago, older than
    // the one-year bound, and its reports are still the same (the level held then is kept).
    deepStrictEqual(await serviceDays(rig.store, "a"), [120, 100, 50]);
    deepStrictEqual(await serviceDays(rig.store, "b"), [300, 200, 10]);
    deepStrictEqual(await serviceDays(rig.store, "c"), [380, 10]);
    deepStrictEqual(await serviceDays(rig.store, "d"), [120]);
    // The fetch log keeps 14 days, the change feed 7.
    const fetchesAfter = await Promise.all(
      ["a", "b", "c", "d"].map((s) => rig.store.history.fetchLog(s, 0)),
    );
    deepStrictEqual(
      fetchesAfter,
      fetchesBefore.map((log) => log.filter((f) => f.at >= ago(RETENTION.fetchLogDays))),
    );
    const gone = fetchesBefore.flat().length - fetchesAfter.flat().length;
    ok(gone > 0);
    deepStrictEqual(
      await rig.store.changes.after(0, 10_000),
      changesBefore.filter((c) => c.at >= ago(RETENTION.changeFeedDays)),
    );
    // Closed incidents live 97 days after closing; open ones always.
    deepStrictEqual(
      (await rig.store.incidents.page({}, { page: 0, limit: 10 }))!.items.map((i) => i.title)
        .sort(),
      ["closed-96", "still open"],
    );
    // The latency summary keeps the days of the 90-day window: one row per vendor, day and
    // bucket of the answered fetches before it went.
    const expiredDays = new Set(
      fetchesBefore.flatMap((log, i) =>
        log.filter((f) =>
          (f.outcome === "ok" || f.outcome === "not_modified") &&
          f.at < utcDayStart(ago(RETENTION.latencySummaryDays))
        ).map((f) => `${i}|${utcDayStart(f.at)}|${latencyBucket(f.latencyMs)}`)
      ),
    );
    ok(expiredDays.size > 0);
    deepStrictEqual(report, {
      fetches: gone,
      latencyDays: expiredDays.size,
      changes: changesBefore.length - changesBefore.filter((c) => c.at >= ago(7)).length,
      // a 2, c 3 service transitions; the component history of d older than 97 days: live and
      // gone-10 read 120 days ago (gone-98 left with its two).
      transitions: 7,
      incidents: 1,
      components: 1,
    });
    // The component removed 98 days ago is forgotten: back on the page it is new (no change);
    // the one removed 10 days ago comes back from UNKNOWN (a change).
    const back = await recordReading(rig.store, "d", {
      indicator: "OPERATIONAL",
      components: ["gone-98", "gone-10", "live"].map((c) => ({
        externalId: c,
        name: c,
        group: null,
        status: "OPERATIONAL" as const,
      })),
      incidents: [],
    }, T0);
    deepStrictEqual(back.map((c) => c.kind === "status" && c.component), ["gone-10"]);

    deepStrictEqual(await pruneExpired(rig.ctx), {
      fetches: 0,
      latencyDays: 0,
      changes: 0,
      transitions: 0,
      incidents: 0,
      components: 0,
    });
  } finally {
    await rig.close();
  }
});

Deno.test("the retention job runs at start and stops cleanly", async () => {
  const rig = apiRig();
  try {
    await addVendor(rig.store, {
      slug: "a",
      status: "OPERATIONAL",
      at: ago(RETENTION.fetchLogDays + 1),
    });
    const job = startRetention(rig.ctx);
    const report = await job.runNow();
    equal(report?.fetches, 1);
    await job.stop();
    deepStrictEqual(await rig.store.history.fetchLog("a", 0), []);
  } finally {
    await rig.close();
  }
});
