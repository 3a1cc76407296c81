import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  boundSnapshot,
  cutText,
  DAY_MS,
  type IncidentSnapshot,
  READING_LIMITS,
  type Snapshot,
} from "../../domain/mod.ts";

const NOW = Date.UTC(2026, 10, 20, 12);

function incident(over: Partial<IncidentSnapshot> = {}): IncidentSnapshot {
  return {
    externalId: "inc-1",
    title: "Elevated errors",
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: NOW - 3_600_000,
    updatedAt: NOW - 60_000,
    resolvedAt: null,
    url: "https://status.example.com/incidents/1",
    componentIds: ["api"],
    updates: [
      { at: NOW - 3_600_000, status: "INVESTIGATING", body: "Looking into it" },
      { at: NOW - 60_000, status: "IDENTIFIED", body: "Found it" },
    ],
    ...over,
  };
}

function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    indicator: "OPERATIONAL",
    components: [{ externalId: "api", name: "API", group: null, status: "OPERATIONAL" }],
    incidents: [incident()],
    ...over,
  };
}

function bound(s: Snapshot) {
  const notes: string[] = [];
  const out = boundSnapshot(s, NOW, (path, reason) => notes.push(`${path}: ${reason}`));
  return { out, notes };
}

Deno.test("a plausible snapshot passes unchanged and without notes", () => {
  const s = snapshot();
  const { out, notes } = bound(s);
  deepStrictEqual(out, s);
  deepStrictEqual(notes, []);
});

Deno.test("an out-of-range start falls back to the first update; without one the item goes", () => {
  const { out, notes } = bound(snapshot({
    incidents: [
      incident({ externalId: "a", startedAt: 9e15 }),
      incident({ externalId: "b", startedAt: -1, updates: [] }),
      incident({ externalId: "c", startedAt: Date.UTC(1970, 0, 2) }),
    ],
  }));
  deepStrictEqual(out.incidents.map((i) => [i.externalId, i.startedAt]), [
    ["a", NOW - 3_600_000],
    ["c", NOW - 3_600_000],
  ]);
  equal(notes.length, 3);
  ok(notes[0]!.startsWith("incidents[0].startedAt: 9000000000000000 is out of range"));
  ok(notes[1]!.startsWith("incidents[1]: startedAt -1 is out of range"));
});

Deno.test("bad update, updated and resolved times are dropped or replaced, each with a note", () => {
  const { out, notes } = bound(snapshot({
    incidents: [incident({
      status: "RESOLVED",
      updatedAt: NaN,
      resolvedAt: NOW + 30 * DAY_MS,
      updates: [
        { at: 9e15, status: "INVESTIGATING", body: "from the far future" },
        { at: NOW - 60_000, status: "RESOLVED", body: "Fixed" },
      ],
    })],
  }));
  const i = out.incidents[0]!;
  deepStrictEqual(i.updates, [{ at: NOW - 60_000, status: "RESOLVED", body: "Fixed" }]);
  equal(i.updatedAt, NOW - 60_000);
  equal(i.resolvedAt, NOW - 60_000);
  deepStrictEqual(notes.map((n) => n.split(":")[0]), [
    "incidents[0].updates[0]",
    "incidents[0].updatedAt",
    "incidents[0].resolvedAt",
  ]);
});

Deno.test("a maintenance may be planned months ahead; an incident may not", () => {
  const ahead = NOW + 90 * DAY_MS;
  const { out, notes } = bound(snapshot({
    incidents: [
      incident({ externalId: "m", status: "SCHEDULED", impact: "MAINTENANCE", startedAt: ahead }),
      incident({ externalId: "i", startedAt: ahead }),
    ],
  }));
  deepStrictEqual(out.incidents.map((i) => [i.externalId, i.startedAt]), [
    ["m", ahead],
    ["i", NOW - 3_600_000],
  ]);
  equal(notes.length, 1);
});

Deno.test("components beyond the cap are left out but still count for the indicator", () => {
  const many = Array.from({ length: READING_LIMITS.components + 10 }, (_, i) => ({
    externalId: `c${i}`,
    name: `Component ${i}`,
    group: null,
    status: i === READING_LIMITS.components + 5 ? "MAJOR_OUTAGE" as const : "OPERATIONAL" as const,
  }));
  const { out, notes } = bound(snapshot({ components: many }));
  equal(out.components.length, READING_LIMITS.components);
  equal(out.indicator, "MAJOR_OUTAGE");
  deepStrictEqual(notes, [
    `components: 10 of ${
      READING_LIMITS.components + 10
    } left out (at most ${READING_LIMITS.components} per reading)`,
  ]);
});

Deno.test("incidents beyond the cap: open and recent ones are kept, in page order", () => {
  const n = READING_LIMITS.incidents + 5;
  const all = Array.from({ length: n }, (_, k) =>
    incident({
      externalId: `i${k}`,
      status: k === 0 ? "INVESTIGATING" : "RESOLVED",
      resolvedAt: k === 0 ? null : NOW - 1000,
      updatedAt: NOW - (k === 0 ? 10 * DAY_MS : k * 1000),
    }));
  const { out, notes } = bound(snapshot({ incidents: all }));
  equal(out.incidents.length, READING_LIMITS.incidents);
  equal(out.incidents[0]!.externalId, "i0", "the open one stays though it is the oldest");
  equal(out.incidents.at(-1)!.externalId, `i${READING_LIMITS.incidents - 1}`);
  ok(notes[0]!.startsWith("incidents: 5 of"));
});

Deno.test("long texts are cut, long ids and URLs drop what carries them, notes stay bounded", () => {
  const huge = "x".repeat(1_000_000);
  const { out, notes } = bound(snapshot({
    components: [
      { externalId: "ok", name: huge, group: huge, status: "OPERATIONAL" },
      { externalId: huge, name: "Bad id", group: null, status: "OPERATIONAL" },
    ],
    incidents: [incident({
      title: huge,
      url: `https://x.example/${huge}`,
      updates: Array.from({ length: 200 }, (_, k) => ({
        at: NOW - (200 - k) * 1000,
        status: "INVESTIGATING" as const,
        body: huge,
      })),
    })],
  }));
  const c = out.components;
  deepStrictEqual(c.map((x) => [x.externalId, x.name.length, x.group?.length]), [["ok", 255, 255]]);
  ok(c[0]!.name.endsWith("…"));
  const i = out.incidents[0]!;
  equal(i.title.length, READING_LIMITS.titleChars);
  equal(i.url, null);
  ok(i.updates.length <= READING_LIMITS.updatesPerIncident);
  ok(i.updates.reduce((n, u) => n + u.body.length, 0) <= READING_LIMITS.timelineChars);
  equal(i.updates.at(-1)!.at, NOW - 1000, "the newest entries are kept");
  ok(notes.length <= 51, `${notes.length} notes`);
  ok(notes.every((n) => n.length < 300));
});

Deno.test("cutText never splits a surrogate pair", () => {
  equal(cutText("ab😀cd", 4), "ab…");
  equal(cutText("abc", 5), "abc");
  equal(cutText("abcdef", 4), "abc…");
});

Deno.test("a reading keeps at most its text budget of timelines, open incidents first", () => {
  const body = "y".repeat(READING_LIMITS.bodyChars);
  const n = READING_LIMITS.incidents;
  const all = Array.from({ length: n }, (_, k) =>
    incident({
      externalId: `i${k}`,
      status: k === n - 1 ? "INVESTIGATING" : "RESOLVED",
      resolvedAt: k === n - 1 ? null : NOW - 1000,
      updates: [{ at: NOW - 1000, status: "INVESTIGATING", body }],
    }));
  const { out } = bound(snapshot({ incidents: all }));
  const total = out.incidents.reduce(
    (s, i) => s + i.updates.reduce((t, u) => t + u.body.length, 0),
    0,
  );
  ok(total <= READING_LIMITS.readingTextChars, `${total}`);
  equal(out.incidents.length, n, "incidents are kept, only their timelines are emptied");
  equal(out.incidents.at(-1)!.updates[0]!.body, body, "the open incident keeps its text");
});

Deno.test("a maintenance window within the horizon is kept; one past it is left out with a note", () => {
  const start = NOW + 10 * DAY_MS;
  const { out, notes } = bound(snapshot({
    incidents: [
      incident({
        externalId: "m",
        status: "SCHEDULED",
        impact: "MAINTENANCE",
        startedAt: start,
        scheduledStartAt: start,
        scheduledEndAt: 9e15,
      }),
    ],
  }));
  equal(out.incidents[0]!.scheduledStartAt, start);
  equal(out.incidents[0]!.scheduledEndAt, null);
  deepStrictEqual(notes.length, 1);
  ok(notes[0]!.includes("scheduledEndAt"), notes[0]);
});
