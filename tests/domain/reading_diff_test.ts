/**
 * The reading diff (domain/reading_diff.ts): the rules every store persists, on plain values.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  diffReading,
  type IncidentSnapshot,
  serviceAfterReading,
  staleReading,
  type StoredIncident,
  type StoredReadingState,
} from "../../domain/mod.ts";

const T = 1_000_000;
const vendor = {
  slug: "acme",
  currentStatus: "OPERATIONAL" as const,
  lastSuccessAt: T - 60_000,
  lastChangedAt: T - 3_600_000,
};
const inc = (externalId: string, extra: Partial<IncidentSnapshot> = {}): IncidentSnapshot => ({
  externalId,
  title: externalId,
  status: "INVESTIGATING",
  impact: "MINOR",
  startedAt: T - 1000,
  updatedAt: T - 1000,
  resolvedAt: null,
  url: null,
  componentIds: [],
  updates: [],
  ...extra,
});
const stored = (i: IncidentSnapshot): StoredIncident => ({
  ...i,
  scheduledStartAt: i.scheduledStartAt ?? null,
  scheduledEndAt: i.scheduledEndAt ?? null,
  removedAt: null,
});

Deno.test("the first reading moves the level but not lastChangedAt; a later one moves both", () => {
  const first = { currentStatus: "UNKNOWN" as const, lastSuccessAt: null, lastChangedAt: null };
  deepStrictEqual(serviceAfterReading(first, "OPERATIONAL", T), {
    status: "OPERATIONAL",
    moved: true,
    lastChangedAt: null,
  });
  deepStrictEqual(serviceAfterReading(vendor, "MAJOR_OUTAGE", T), {
    status: "MAJOR_OUTAGE",
    moved: true,
    lastChangedAt: T,
  });
  deepStrictEqual(serviceAfterReading(vendor, "OPERATIONAL", T).moved, false);
});

Deno.test("an unchanged reading writes only the vendor's check time", () => {
  const state: StoredReadingState = {
    vendor,
    components: [{
      externalId: "api",
      name: "API",
      group: null,
      status: "OPERATIONAL",
      position: 0,
      removedAt: null,
    }],
    incidents: [],
  };
  const d = diffReading(state, {
    indicator: "OPERATIONAL",
    components: [{ externalId: "api", name: "API", group: null, status: "OPERATIONAL" }],
    incidents: [],
  }, T);
  deepStrictEqual([d.components, d.incidents, d.transitions, d.changes], [[], [], [], []]);
  deepStrictEqual(d.vendor, {
    currentStatus: "OPERATIONAL",
    indicator: "OPERATIONAL",
    lastChangedAt: T - 3_600_000,
    lastSuccessAt: T,
    lastCheckedAt: T,
  });
  deepStrictEqual(d.caps, {
    removedComponents: false,
    componentTransitions: [],
    incidents: false,
    timelines: [],
  });
});

Deno.test("vanished open incidents close (maintenance completes); closed ones stay; removed components end", () => {
  const state: StoredReadingState = {
    vendor,
    components: [
      {
        externalId: "web",
        name: "Web",
        group: null,
        status: "MAJOR_OUTAGE",
        position: 0,
        removedAt: null,
      },
      {
        externalId: "old",
        name: "Old",
        group: null,
        status: "OPERATIONAL",
        position: 1,
        removedAt: T - 5,
      },
    ],
    incidents: [
      stored(inc("gone")),
      stored(inc("work", { status: "IN_PROGRESS", impact: "NONE" })),
      stored(inc("done", { status: "RESOLVED", resolvedAt: T - 500 })),
    ],
  };
  const d = diffReading(state, { indicator: "OPERATIONAL", components: [], incidents: [] }, T);
  deepStrictEqual(d.incidents, [
    { kind: "close", externalId: "gone", status: "RESOLVED" },
    { kind: "close", externalId: "work", status: "COMPLETED" },
  ]);
  deepStrictEqual(d.components, [{ kind: "remove", externalId: "web" }]);
  deepStrictEqual(d.transitions, [{ component: "web", from: "MAJOR_OUTAGE", to: "UNKNOWN" }]);
  equal(d.caps.removedComponents, true);
  deepStrictEqual(d.changes.map((c) => c.kind === "incident" && c.status), [
    "RESOLVED",
    "COMPLETED",
  ]);
});

Deno.test("new timeline entries are added once; a new incident asks for the incident cap", () => {
  const known = inc("i", { updates: [{ at: T - 900, status: "INVESTIGATING", body: "a" }] });
  const next = inc("i", {
    updates: [
      { at: T - 900, status: "INVESTIGATING", body: "a" },
      { at: T - 100, status: "IDENTIFIED", body: "b" },
      { at: T - 100, status: "IDENTIFIED", body: "b" },
    ],
  });
  const d = diffReading(
    { vendor, components: [], incidents: [stored(known)] },
    { indicator: "OPERATIONAL", components: [], incidents: [next, inc("new")] },
    T,
  );
  deepStrictEqual(d.incidents[0], {
    kind: "update",
    incident: next,
    fields: false,
    updates: [{ at: T - 100, status: "IDENTIFIED", body: "b" }],
    revisions: [],
    restored: false,
  });
  equal(d.incidents[1]!.kind, "insert");
  deepStrictEqual([d.caps.incidents, d.caps.timelines], [true, ["i"]]);
});

Deno.test("stale: UNKNOWN once, with a transition and a change; nothing when already UNKNOWN", () => {
  deepStrictEqual(staleReading(vendor, T), {
    transition: { component: null, from: "OPERATIONAL", to: "UNKNOWN" },
    change: { kind: "status", slug: "acme", component: null, from: "OPERATIONAL", to: "UNKNOWN" },
    currentStatus: "UNKNOWN",
    lastChangedAt: T,
  });
  equal(staleReading({ ...vendor, currentStatus: "UNKNOWN" }, T).transition, null);
});
