/**
 * One vendor cannot grow the SQLite database without bound across readings: churning component
 * ids, flapping components, re-timestamped timelines and churning incident ids all stay within
 * the documented per-vendor caps (domain STORE_LIMITS), counted in the tables themselves (the
 * port shows only what is current), and reads show only what is current. Engine-specific: the
 * readings go through the port, the counts look at SQLite's rows.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  type ComponentSnapshot,
  type IncidentSnapshot,
  MINUTE_MS,
  READING_LIMITS,
  type Snapshot,
  STORE_LIMITS,
} from "../../../domain/mod.ts";
import type { Store } from "../../../domain/mod.ts";
import { type Db, openDb } from "../../../store/sqlite/db.ts";
import { migrate } from "../../../store/sqlite/migrate.ts";
import { sqliteStoreOver } from "../../../store/sqlite/mod.ts";

const T = Date.UTC(2026, 2, 1);

async function setup(): Promise<{ db: Db; store: Store; id: number }> {
  const db = openDb(":memory:");
  migrate(db);
  const store = sqliteStoreOver(db);
  await store.catalog.sync([{
    name: "Churn",
    slug: "churn",
    statusPageUrl: "https://status.churn.test",
    platform: "statuspage",
    category: "other",
    provider: "churn",
    domains: [],
  }], T);
  return { db, store, id: (await store.catalog.service("churn"))!.id };
}

/** Records a reading through the port (as the poller would). */
function applySnapshot(store: Store, id: number, s: Snapshot, at: number) {
  return store.polls.recordSuccess(id, s, {
    at,
    latencyMs: 1,
    httpStatus: 200,
    nextPollAt: at + MINUTE_MS,
    deadlineAt: at + MINUTE_MS,
    etag: null,
    lastModified: null,
    notes: [],
  });
}

const count = (db: Db, sql: string, ...args: number[]) =>
  (db.prepare(sql).get(...args) as { n: number }).n;

function components(n: number, prefix: string, status: ComponentSnapshot["status"]) {
  return Array.from({ length: n }, (_, i) => ({
    externalId: `${prefix}-${i}`,
    name: `Component ${i}`,
    group: null,
    status,
  }));
}

function incident(id: string, over: Partial<IncidentSnapshot> = {}): IncidentSnapshot {
  return {
    externalId: id,
    title: `Incident ${id}`,
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: T - MINUTE_MS,
    updatedAt: T - MINUTE_MS,
    resolvedAt: null,
    url: null,
    componentIds: [],
    updates: [],
    ...over,
  };
}

const snap = (over: Partial<Snapshot>): Snapshot => ({
  indicator: "OPERATIONAL",
  components: [],
  incidents: [],
  ...over,
});

Deno.test("component ids churning every reading keep at most the cap of removed components", async () => {
  const { db, store, id } = await setup();
  try {
    const per = READING_LIMITS.components;
    for (let poll = 0; poll < 4; poll++) {
      await applySnapshot(
        store,
        id,
        snap({ components: components(per, `p${poll}`, "OPERATIONAL") }),
        T + poll * MINUTE_MS,
      );
    }
    equal(count(db, "SELECT COUNT(*) AS n FROM components WHERE removed_at IS NULL"), per);
    equal(
      count(db, "SELECT COUNT(*) AS n FROM components WHERE removed_at IS NOT NULL"),
      STORE_LIMITS.removedComponentsPerVendor,
    );
    // Transitions of deleted components went with them; each kept one has at most two.
    ok(
      count(db, "SELECT COUNT(*) AS n FROM transitions WHERE component_id IS NOT NULL") <=
        2 * (per + STORE_LIMITS.removedComponentsPerVendor),
    );
    const live = (await store.catalog.detail("churn", { start: 0, end: T }, 0))!.components;
    equal(live.length, per);
    ok(live.every((c) => c.name.startsWith("Component")));
    equal(
      count(
        db,
        "SELECT COUNT(*) AS n FROM components WHERE removed_at IS NULL AND external_id NOT LIKE 'p3-%'",
      ),
      0,
    );
  } finally {
    await store.close();
  }
});

Deno.test("a flapping component keeps only its newest status changes", async () => {
  const { db, store, id } = await setup();
  try {
    for (let poll = 0; poll < STORE_LIMITS.transitionsPerComponent * 2 + 3; poll++) {
      const status = poll % 2 === 0 ? "OPERATIONAL" : "MAJOR_OUTAGE";
      await applySnapshot(
        store,
        id,
        snap({ components: components(1, "c", status) }),
        T + poll * MINUTE_MS,
      );
    }
    const rows = db.prepare(
      "SELECT at FROM transitions WHERE component_id IS NOT NULL ORDER BY id",
    ).all() as { at: number }[];
    equal(rows.length, STORE_LIMITS.transitionsPerComponent);
    equal(rows.at(-1)!.at, T + (STORE_LIMITS.transitionsPerComponent * 2 + 2) * MINUTE_MS);
  } finally {
    await store.close();
  }
});

Deno.test("a timeline re-stamped every reading keeps only its newest entries", async () => {
  const { db, store, id } = await setup();
  try {
    for (let poll = 0; poll < STORE_LIMITS.updatesPerIncident + 20; poll++) {
      const at = T + poll * MINUTE_MS;
      await applySnapshot(
        store,
        id,
        snap({
          incidents: [incident("i", {
            updatedAt: at,
            updates: [{ at, status: "INVESTIGATING", body: "x".repeat(READING_LIMITS.bodyChars) }],
          })],
        }),
        at,
      );
    }
    equal(count(db, "SELECT COUNT(*) AS n FROM incident_updates"), STORE_LIMITS.updatesPerIncident);
    equal(
      count(db, "SELECT MAX(at) AS n FROM incident_updates"),
      T + (STORE_LIMITS.updatesPerIncident + 19) * MINUTE_MS,
    );
  } finally {
    await store.close();
  }
});

Deno.test("incident ids churning every reading keep the open ones and the newest closed, to the cap", async () => {
  const { db, store, id } = await setup();
  try {
    const per = READING_LIMITS.incidents;
    for (let poll = 0; poll < 4; poll++) {
      const at = T + poll * MINUTE_MS;
      const incidents = Array.from({ length: per }, (_, k) =>
        incident(`p${poll}-${k}`, {
          startedAt: at - 1000,
          updatedAt: at - 1000,
          updates: [{ at: at - 1000, status: "INVESTIGATING", body: "new" }],
        }));
      await applySnapshot(store, id, snap({ incidents }), at);
    }
    equal(count(db, "SELECT COUNT(*) AS n FROM incidents"), STORE_LIMITS.incidentsPerVendor);
    equal(
      count(db, "SELECT COUNT(*) AS n FROM incidents WHERE status = 'INVESTIGATING'"),
      per,
    );
    deepStrictEqual(
      db.prepare(
        "SELECT DISTINCT substr(external_id, 1, 2) AS p FROM incidents ORDER BY p",
      ).all().map((r) => r.p),
      ["p2", "p3"],
    );
    equal(
      count(
        db,
        "SELECT COUNT(*) AS n FROM incident_updates WHERE incident_id NOT IN (SELECT id FROM incidents)",
      ),
      0,
    );
  } finally {
    await store.close();
  }
});
