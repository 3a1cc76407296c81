/**
 * Retention on a fake clock over rows written directly: what is older than the reported
 * windows goes, what a report can still read stays, and the reports read the same before and
 * after a run.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  type AppContext,
  pruneExpired,
  serviceHistory,
  serviceUptime,
  slaReport,
  startRetention,
} from "../../app/mod.ts";
import { DAY_MS, type Principal, RETENTION, type StatusLevel } from "../../domain/mod.ts";
import { type Db, pruneChangeFeed, serviceTransitions } from "../../store/mod.ts";
import {
  addComponent,
  addIncident,
  addTransitions,
  addVendor,
  apiRig,
  T0,
} from "../support/api.ts";

const ago = (days: number) => T0 - days * DAY_MS;
const count = (db: Db, sql: string) => (db.prepare(sql).get() as { n: number }).n;
const ats = (db: Db, sql: string) =>
  db.prepare(sql).all().map((r) => Math.round((T0 - (r as { at: number }).at) / DAY_MS));

function seed(db: Db) {
  const a = addVendor(db, { slug: "a" });
  const b = addVendor(db, { slug: "b" });
  const c = addVendor(db, { slug: "c" });
  // a: recovered 120 days ago, an outage spanning the 97-day cutoff, recovered 50 days ago.
  addTransitions(db, a, [
    [ago(200), "OPERATIONAL"],
    [ago(150), "MAJOR_OUTAGE"],
    [ago(120), "OPERATIONAL"],
    [ago(100), "MAJOR_OUTAGE"],
    [ago(50), "OPERATIONAL"],
  ]);
  // b: down since first seen 300 days ago, recovered 10 days ago (no recovery before the cutoff).
  addTransitions(db, b, [[ago(300), "MAJOR_OUTAGE"], [ago(200), "PARTIAL_OUTAGE"], [
    ago(10),
    "OPERATIONAL",
  ]]);
  // c: its last recovery before the cutoff is older than a year.
  addTransitions(db, c, [
    [ago(500), "OPERATIONAL"],
    [ago(450), "MAJOR_OUTAGE"],
    [ago(400), "OPERATIONAL"],
    [ago(380), "MAJOR_OUTAGE"],
    [ago(10), "OPERATIONAL"],
  ]);
  for (const [id, days] of [[a, 91], [a, 89], [b, 1]] as const) {
    db.prepare(
      "INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status) VALUES (?, ?, 12, 'ok', 200)",
    ).run(id, ago(days));
  }
  for (const days of [8, 6, 0]) {
    db.prepare("INSERT INTO changes (at, kind, vendor_slug, data) VALUES (?, 'status', 'a', '{}')")
      .run(ago(days));
  }
  const closed = (externalId: string, days: number, status = "RESOLVED" as const) =>
    addIncident(db, a, {
      externalId,
      title: externalId,
      status,
      impact: "MINOR",
      startedAt: ago(days + 1),
      resolvedAt: ago(days),
      updates: [{ at: ago(days + 1), status: "INVESTIGATING", body: "x" }],
    });
  closed("closed-98", 98);
  closed("closed-96", 96);
  addIncident(db, a, {
    externalId: "open-200",
    title: "still open",
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: ago(200),
    updates: [{ at: ago(200), status: "INVESTIGATING", body: "y" }],
  });
  const removed = (externalId: string, days: number | null) => {
    const id = addComponent(db, a, { externalId, name: externalId, status: "OPERATIONAL" });
    db.prepare("UPDATE components SET removed_at = ? WHERE id = ?").run(
      days === null ? null : ago(days),
      id,
    );
    db.prepare(
      "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, ?, 'UNKNOWN', 'OPERATIONAL', ?)",
    ).run(a, id, ago(days === null ? 99 : days + 1));
    db.prepare(
      "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, ?, 'OPERATIONAL', 'UNKNOWN', ?)",
    ).run(a, id, ago(days ?? 5));
    return id;
  };
  removed("gone-98", 98);
  removed("gone-10", 10);
  removed("live", null);
  return [a, b, c];
}

/** The transitions each report reads for `ids` (7/30/90-day windows; SLA lookbacks). */
function reportInputs(db: Db, ids: number[]) {
  const out: Record<string, [number, StatusLevel, StatusLevel][]> = {};
  for (const days of [7, 30, 90]) {
    for (const [id, ts] of serviceTransitions(db, ids, T0 - days * DAY_MS, T0)) {
      out[`last ${days} ${id}`] = ts.map((t) => [t.at, t.from, t.to]);
    }
    const start = T0 - (days + 7) * DAY_MS;
    for (const [id, ts] of serviceTransitions(db, ids, start, T0, "recovery")) {
      out[`recovery ${days} ${id}`] = ts.map((t) => [t.at, t.from, t.to]);
    }
  }
  return out;
}

const PRO: Principal = {
  kind: "session",
  account: { id: "acc", name: "Acme", plan: "PRO", slaTarget: 99.9, createdAt: T0 },
  member: { id: "m", accountId: "acc", email: "a@example.test", role: "OWNER" },
};

/** What users read: uptime and MTTR, 90-day history, SLA reports over 1, 30 and 90 days. */
function reports(ctx: AppContext) {
  return ["a", "b", "c"].map((slug) => ({
    uptime: serviceUptime(ctx, slug),
    history: serviceHistory(ctx, slug, 90),
    sla: [1, 30, 90].map((days) => slaReport(ctx, PRO, slug, days)),
  }));
}

Deno.test("retention deletes what no report reads and keeps what they do", async () => {
  const rig = apiRig();
  try {
    const [a, b] = seed(rig.db);
    const inputs = reportInputs(rig.db, [a!, b!]);
    const read = reports(rig.ctx);

    const report = await pruneExpired(rig.ctx);

    deepStrictEqual(reports(rig.ctx), read, "every report reads the same");
    // a and b lose nothing a report reads; c loses its recovery of 400 days ago, older than
    // the one-year bound, and its reports are still the same (the level held then is kept).
    deepStrictEqual(reportInputs(rig.db, [a!, b!]), inputs);
    const service = (slug: string) =>
      ats(
        rig.db,
        `SELECT t.at FROM transitions t JOIN vendors v ON v.id = t.vendor_id
         WHERE v.slug = '${slug}' AND t.component_id IS NULL ORDER BY t.at`,
      );
    deepStrictEqual(service("a"), [120, 100, 50]);
    deepStrictEqual(service("b"), [300, 200, 10]);
    deepStrictEqual(service("c"), [380, 10]);
    deepStrictEqual(ats(rig.db, "SELECT at FROM fetches ORDER BY at"), [89, 1]);
    deepStrictEqual(ats(rig.db, "SELECT at FROM changes ORDER BY at"), [6, 0]);
    deepStrictEqual(
      rig.db.prepare("SELECT external_id FROM incidents ORDER BY external_id").all().map((r) =>
        r.external_id
      ),
      ["closed-96", "open-200"],
    );
    equal(count(rig.db, "SELECT COUNT(*) AS n FROM incident_updates"), 2);
    deepStrictEqual(
      rig.db.prepare("SELECT external_id FROM components ORDER BY external_id").all().map((r) =>
        r.external_id
      ),
      ["gone-10", "live"],
    );
    // The live component's change of 99 days ago is older than the cutoff: component history
    // is not reported, so it goes too; the removed one's 5 and 11-day-old changes stay.
    equal(count(rig.db, "SELECT COUNT(*) AS n FROM transitions WHERE component_id IS NOT NULL"), 3);
    deepStrictEqual(report, {
      fetches: 1,
      changes: 1,
      transitions: 6,
      incidents: 1,
      components: 1,
    });

    deepStrictEqual(await pruneExpired(rig.ctx), {
      fetches: 0,
      changes: 0,
      transitions: 0,
      incidents: 0,
      components: 0,
    });
  } finally {
    await rig.close();
  }
});

Deno.test("the change feed keeps at most its row cap, the newest", () => {
  const rig = apiRig();
  try {
    for (let i = 0; i < 30; i++) {
      rig.db.prepare(
        "INSERT INTO changes (at, kind, vendor_slug, data) VALUES (?, 'status', 'a', '{}')",
      ).run(T0);
    }
    let removed = 0;
    for (let n; (n = pruneChangeFeed(rig.db, ago(RETENTION.changeFeedDays), 10, 7)) > 0;) {
      removed += n;
    }
    equal(removed, 20);
    deepStrictEqual(
      { ...rig.db.prepare("SELECT MIN(id) AS lo, MAX(id) AS hi FROM changes").get() },
      { lo: 21, hi: 30 },
    );
  } finally {
    rig.close();
  }
});

Deno.test("the retention job runs at start and stops cleanly", async () => {
  const rig = apiRig();
  try {
    const a = addVendor(rig.db, { slug: "a" });
    rig.db.prepare(
      "INSERT INTO fetches (vendor_id, at, latency_ms, outcome, http_status) VALUES (?, ?, 12, 'ok', 200)",
    ).run(a, ago(RETENTION.fetchLogDays + 1));
    const job = startRetention(rig.ctx);
    const report = await job.runNow();
    equal(report?.fetches, 1);
    await job.stop();
    equal(count(rig.db, "SELECT COUNT(*) AS n FROM fetches"), 0);
  } finally {
    await rig.close();
  }
});
