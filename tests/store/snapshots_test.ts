import { deepStrictEqual, equal } from "node:assert/strict";
import type { IncidentSnapshot, Snapshot } from "../../domain/mod.ts";
import { applySnapshot, type Db, syncCatalog, vendorIdBySlug } from "../../store/mod.ts";
import { memoryStore } from "../support/store.ts";

const T = Date.UTC(2026, 2, 1);
const incident: IncidentSnapshot = {
  externalId: "inc-1",
  title: "Elevated errors",
  status: "INVESTIGATING",
  impact: "MINOR",
  startedAt: T - 60_000,
  updatedAt: T - 60_000,
  resolvedAt: null,
  url: "https://status.acme.test/incidents/inc-1",
  componentIds: ["api"],
  updates: [{ at: T - 60_000, status: "INVESTIGATING", body: "Looking into it" }],
};
const calm: Snapshot = {
  indicator: "OPERATIONAL",
  components: [
    { externalId: "api", name: "API", group: null, status: "OPERATIONAL" },
    { externalId: "web", name: "Web", group: "Apps", status: "OPERATIONAL" },
  ],
  incidents: [],
};

function setup(): { db: Db; id: number } {
  const db = memoryStore();
  syncCatalog(db, [{
    name: "Acme",
    slug: "acme",
    statusPageUrl: "https://status.acme.test",
    platform: "statuspage",
    category: "other",
    provider: "acme",
    domains: [],
  }], T);
  return { db, id: vendorIdBySlug(db, "acme")! };
}

const counts = (db: Db) => ({
  ...db.prepare(
    `SELECT (SELECT COUNT(*) FROM transitions) AS transitions, (SELECT COUNT(*) FROM components) AS components,
        (SELECT COUNT(*) FROM incidents) AS incidents, (SELECT COUNT(*) FROM incident_updates) AS updates,
        (SELECT COUNT(*) FROM changes) AS changes`,
  ).get(),
});

const strip = (changes: ReturnType<typeof applySnapshot>) =>
  changes.map(({ id: _id, at: _at, ...c }) => c);

Deno.test("the first snapshot stores components, a service transition and one status change", () => {
  const { db, id } = setup();
  try {
    deepStrictEqual(strip(applySnapshot(db, id, calm, T)), [
      { kind: "status", slug: "acme", component: null, from: "UNKNOWN", to: "OPERATIONAL" },
    ]);
    deepStrictEqual(counts(db), {
      transitions: 3,
      components: 2,
      incidents: 0,
      updates: 0,
      changes: 1,
    });
  } finally {
    db.close();
  }
});

Deno.test("an unchanged snapshot writes nothing but the check time", () => {
  const { db, id } = setup();
  try {
    applySnapshot(db, id, calm, T);
    const before = counts(db);
    deepStrictEqual(applySnapshot(db, id, calm, T + 60_000), []);
    deepStrictEqual(counts(db), before);
    deepStrictEqual(
      {
        ...db.prepare("SELECT last_checked_at, last_changed_at FROM vendors WHERE id = ?").get(id),
      },
      { last_checked_at: T + 60_000, last_changed_at: null },
    );
  } finally {
    db.close();
  }
});

Deno.test("a degraded component, a new incident and its next update are stored as changes", () => {
  const { db, id } = setup();
  try {
    applySnapshot(db, id, calm, T);
    const degraded: Snapshot = {
      indicator: "DEGRADED_PERFORMANCE",
      components: [{ ...calm.components[0]!, status: "DEGRADED_PERFORMANCE" }, calm.components[1]!],
      incidents: [incident],
    };
    deepStrictEqual(strip(applySnapshot(db, id, degraded, T + 60_000)), [
      {
        kind: "status",
        slug: "acme",
        component: null,
        from: "OPERATIONAL",
        to: "DEGRADED_PERFORMANCE",
      },
      {
        kind: "status",
        slug: "acme",
        component: "API",
        from: "OPERATIONAL",
        to: "DEGRADED_PERFORMANCE",
      },
      {
        kind: "incident",
        slug: "acme",
        incidentId: "inc-1",
        title: "Elevated errors",
        status: "INVESTIGATING",
        impact: "MINOR",
        latestUpdate: "Looking into it",
      },
    ]);
    const identified = {
      ...incident,
      status: "IDENTIFIED" as const,
      updates: [...incident.updates, {
        at: T + 90_000,
        status: "IDENTIFIED" as const,
        body: "Fix rolling out",
      }],
    };
    const changes = applySnapshot(db, id, { ...degraded, incidents: [identified] }, T + 120_000);
    deepStrictEqual(changes.map((c) => c.kind === "incident" && c.latestUpdate), [
      "Fix rolling out",
    ]);
    const timeline = db.prepare("SELECT status, body FROM incident_updates ORDER BY at").all()
      .map((r) => ({ ...r }));
    deepStrictEqual(timeline, [
      { status: "INVESTIGATING", body: "Looking into it" },
      { status: "IDENTIFIED", body: "Fix rolling out" },
    ]);
    deepStrictEqual(
      { ...db.prepare("SELECT current_status, last_changed_at FROM vendors WHERE id = ?").get(id) },
      { current_status: "DEGRADED_PERFORMANCE", last_changed_at: T + 60_000 },
    );
  } finally {
    db.close();
  }
});

Deno.test("an open incident the page stops showing is closed; a vanished component ends its history", () => {
  const { db, id } = setup();
  try {
    applySnapshot(db, id, { ...calm, incidents: [incident] }, T);
    const changes = applySnapshot(
      db,
      id,
      { ...calm, components: [calm.components[0]!] },
      T + 60_000,
    );
    deepStrictEqual(changes.map((c) => c.kind === "incident" && c.status), ["RESOLVED"]);
    deepStrictEqual(
      { ...db.prepare("SELECT status, resolved_at FROM incidents").get() },
      { status: "RESOLVED", resolved_at: T + 60_000 },
    );
    const web = db.prepare("SELECT removed_at FROM components WHERE external_id = 'web'").get() as {
      removed_at: number;
    };
    equal(web.removed_at, T + 60_000);
    const last = db.prepare(
      "SELECT to_status FROM transitions WHERE component_id = (SELECT id FROM components WHERE external_id = 'web') ORDER BY id DESC",
    ).get() as { to_status: string };
    equal(last.to_status, "UNKNOWN");
  } finally {
    db.close();
  }
});
