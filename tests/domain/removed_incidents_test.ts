/**
 * An incident the vendor takes off a page that keeps history is marked removed, never
 * mistaken for one that aged out, resolved off a page of open incidents, or got a new id.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import {
  diffReading,
  historyCutoff,
  type IncidentSnapshot,
  REMOVED_WORDS,
  type Snapshot,
  type StoredIncident,
} from "../../domain/mod.ts";

const T = Date.UTC(2026, 10, 28, 10);
const HOUR = 3_600_000;

/** An incident that started `h` hours after T, closed an hour later unless `open`. */
function snap(id: string, h: number, over: Partial<IncidentSnapshot> = {}): IncidentSnapshot {
  const open = over.status !== undefined && over.status !== "RESOLVED";
  const start = T + h * HOUR;
  return {
    externalId: id,
    title: `Incident ${id}`,
    status: "RESOLVED",
    impact: "MINOR",
    startedAt: start,
    updatedAt: start + HOUR,
    resolvedAt: open ? null : start + HOUR,
    url: `https://status.example.com/incidents/${id}`,
    componentIds: [],
    updates: [{ at: start, status: "INVESTIGATING", body: "Looking." }],
    ...over,
  };
}

const stored = (i: IncidentSnapshot, removedAt: number | null = null): StoredIncident => ({
  ...i,
  scheduledStartAt: null,
  scheduledEndAt: null,
  removedAt,
});

const state = (incidents: StoredIncident[]) => ({
  vendor: {
    slug: "acme",
    currentStatus: "OPERATIONAL" as const,
    lastSuccessAt: T,
    lastChangedAt: T,
  },
  components: [],
  incidents,
});

const feed = (incidents: IncidentSnapshot[], keepsHistory = true): Snapshot => ({
  indicator: "OPERATIONAL",
  components: [],
  incidents,
  keepsHistory,
});

const AT = T + 48 * HOUR;

/** The kinds of write each stored or read incident gets, by id. */
function writes(before: StoredIncident[], now: Snapshot) {
  return Object.fromEntries(
    diffReading(state(before), now, AT).incidents.map((w) => [
      "externalId" in w ? w.externalId : w.incident.externalId,
      w.kind === "remove"
        ? `remove${w.close ? ` (close ${w.close})` : ""}`
        : w.kind === "update"
        ? `update${w.restored ? " (restored)" : ""} ${w.revisions.map((r) => r.kind).join(",")}`
          .trim()
        : w.kind,
    ]),
  );
}

Deno.test("the cutoff of a history document is the later of its closed incidents' earliest start and update", () => {
  const slack = 5 * 60_000;
  equal(historyCutoff(feed([snap("a", 0), snap("b", 10)])), T + HOUR + slack);
  equal(
    historyCutoff(feed([snap("a", 0, { updatedAt: T + 30 * HOUR }), snap("b", 10)])),
    T + 11 * HOUR + slack,
  );
  // Open ones do not count: documents of "open, plus resolved lately" list them at any age.
  equal(
    historyCutoff(feed([snap("a", -100, { status: "MONITORING" }), snap("b", 10)])),
    T + 11 * HOUR + slack,
  );
  equal(
    historyCutoff(feed([snap("a", 0, { status: "MONITORING" })])),
    null,
    "nothing closed listed",
  );
  equal(historyCutoff(feed([snap("a", 0)], false)), null, "a document of open incidents");
});

Deno.test("what a history document's missing incident means", () => {
  const a = snap("a", 0);
  const b = snap("b", 5);
  const c = snap("c", 10);
  const table: [string, StoredIncident[], Snapshot, Record<string, string>][] = [
    ["all still listed", [stored(a), stored(b), stored(c)], feed([a, b, c]), {}],
    [
      "a closed one between listed ones is removed (not closed again)",
      [stored(a), stored(b), stored(c)],
      feed([a, c]),
      { b: "remove" },
    ],
    [
      "an open one taken off the page is removed and closed",
      [stored(a), stored({ ...b, status: "IDENTIFIED", resolvedAt: null })],
      feed([a, c]),
      { b: "remove (close RESOLVED)", c: "insert" },
    ],
    [
      "the oldest one rolling off the bottom is not removed",
      [stored(a), stored(b), stored(c)],
      feed([b, c]),
      {},
    ],
    [
      "a page of open incidents only: a vanished open one is closed, not removed",
      [stored(a), stored({ ...b, status: "IDENTIFIED", resolvedAt: null })],
      feed([a, c], false),
      { b: "close", c: "insert" },
    ],
    [
      "no listed id is stored (the ids changed): nothing is judged",
      [stored(a), stored(b), stored(c)],
      feed([snap("x", 0), snap("y", 10)]),
      { x: "insert", y: "insert" },
    ],
    [
      "the same title under a new id is not a removal",
      [stored(a), stored(b), stored(c)],
      feed([a, snap("b2", 5, { title: b.title, url: null }), c]),
      { b2: "insert" },
    ],
    [
      "the same title under a new id, both stored (the vendor renumbered), is not a removal",
      [stored(a), stored(b), stored({ ...c, externalId: "c2" }), stored(c)],
      feed([a, b, { ...c, externalId: "c2" }]),
      {},
    ],
    [
      "the same link under a new id is not a removal",
      [stored(a), stored(b), stored(c)],
      feed([a, snap("b2", 5, { title: "Renamed", url: b.url }), c]),
      { b2: "insert" },
    ],
    [
      "one already removed is not removed again",
      [stored(a), stored(b, T), stored(c)],
      feed([a, c]),
      {},
    ],
    [
      "one removed and listed again is restored",
      [stored(a), stored(b, T), stored(c)],
      feed([a, b, c]),
      { b: "update (restored) restored" },
    ],
  ];
  for (const [what, before, now, expected] of table) {
    deepStrictEqual(writes(before, now), expected, what);
  }
});

Deno.test("subscribers read that an open incident was removed, not that it was resolved", () => {
  const open = snap("b", 5, { status: "IDENTIFIED" });
  const diff = diffReading(
    state([stored(snap("a", 0)), stored(open)]),
    feed([snap("a", 0), snap("c", 10)]),
    AT,
  );
  const change = diff.changes.find((c) => c.kind === "incident" && c.incidentId === "b");
  deepStrictEqual(change && "status" in change ? [change.status, change.latestUpdate] : null, [
    "RESOLVED",
    REMOVED_WORDS,
  ]);
  const removal = diff.incidents.find((w) => w.kind === "remove");
  deepStrictEqual(removal?.kind === "remove" ? removal.revision : null, {
    kind: "removed",
    before: "Incident b",
    after: "",
  });
});

/** One thing a vendor does to its page between two readings. */
type VendorStep =
  | { kind: "open" }
  | { kind: "resolve"; pick: number }
  | { kind: "update"; pick: number }
  | { kind: "delete"; pick: number };

Deno.test("property: statusd never says removed of an incident the vendor did not delete", () => {
  const pick = (kind: "resolve" | "update" | "delete") =>
    fc.nat(20).map((n): VendorStep => ({ kind, pick: n }));
  const step = fc.oneof(
    { arbitrary: fc.constant<VendorStep>({ kind: "open" }), weight: 3 },
    { arbitrary: pick("resolve"), weight: 3 },
    { arbitrary: pick("update"), weight: 1 },
    { arbitrary: pick("delete"), weight: 1 },
  );
  fc.assert(
    fc.property(
      fc.record({
        keep: fc.integer({ min: 1, max: 5 }),
        sortBy: fc.constantFrom("start", "update"),
        shape: fc.constantFrom("newest", "open", "open and recent"),
        steps: fc.array(fc.tuple(step, fc.integer({ min: 1, max: 600 })), {
          minLength: 5,
          maxLength: 40,
        }),
      }),
      ({ keep, sortBy, shape, steps }) => {
        // The vendor's page: every incident it shows, and the ids it deleted.
        const page = new Map<string, IncidentSnapshot>();
        const deleted = new Set<string>();
        let rows: StoredIncident[] = [];
        let at = T;
        let n = 0;
        const listed = () => [...page.values()];
        const key = (i: IncidentSnapshot) => sortBy === "start" ? i.startedAt : i.updatedAt;
        for (const [s, minutes] of steps) {
          at += minutes * 60_000;
          const ids = listed().map((i) => i.externalId);
          const id = "pick" in s && ids.length ? ids[s.pick % ids.length]! : null;
          if (s.kind === "open") {
            const i = snap(`i${n++}`, (at - T) / HOUR, { status: "INVESTIGATING", updatedAt: at });
            page.set(i.externalId, i);
          } else if (id !== null && s.kind === "delete") {
            page.delete(id);
            deleted.add(id);
          } else if (id !== null) {
            const i = page.get(id)!;
            const status = s.kind === "resolve" ? "RESOLVED" : i.status;
            page.set(id, {
              ...i,
              status,
              resolvedAt: i.resolvedAt ?? (status === "RESOLVED" ? at : null),
              updatedAt: at,
              updates: [...i.updates, { at, status, body: "More." }],
            });
          }
          // What the document shows: the newest `keep` by its sort key, open ones only, or open
          // ones and those resolved in the last 12 hours.
          const shown = shape === "newest"
            ? listed().sort((a, b) => key(b) - key(a)).slice(0, keep)
            : listed().filter((i) =>
              i.resolvedAt === null || (shape !== "open" && at - i.resolvedAt < 12 * HOUR)
            );
          const diff = diffReading(state(rows), feed(shown, shape !== "open"), at);
          rows = applied(rows, diff.incidents, at);
          for (const i of rows) {
            if (i.removedAt !== null && !deleted.has(i.externalId)) {
              throw new Error(`${i.externalId} read as removed, but it only left the document`);
            }
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

/** The stored incidents after `writes` (what a store does with them). */
function applied(
  before: StoredIncident[],
  writes: ReturnType<typeof diffReading>["incidents"],
  at: number,
): StoredIncident[] {
  const byId = new Map(before.map((i) => [i.externalId, i]));
  for (const w of writes) {
    if (w.kind === "insert") byId.set(w.incident.externalId, stored(w.incident));
    else if (w.kind === "update") {
      const old = byId.get(w.incident.externalId)!;
      byId.set(w.incident.externalId, {
        ...stored(w.incident),
        updates: [...old.updates, ...w.updates],
        removedAt: w.restored ? null : old.removedAt,
      });
    } else {
      const old = byId.get(w.externalId)!;
      const close = w.kind === "close" ? w.status : w.close;
      byId.set(w.externalId, {
        ...old,
        status: close ?? old.status,
        resolvedAt: close === null ? old.resolvedAt : at,
        removedAt: w.kind === "remove" ? at : old.removedAt,
      });
    }
  }
  return [...byId.values()];
}
