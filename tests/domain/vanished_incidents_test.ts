/**
 * Settling the open incidents a summary stopped listing against the vendor's history document
 * (domain/vanished_incidents.ts): a removal is claimed only for an incident the vendor deleted,
 * and always for one the history should still list; a resolution is the vendor's own.
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  historyCutoff,
  type IncidentSnapshot,
  settleVanished,
  type VanishedIncident,
} from "../../domain/mod.ts";

const T = Date.UTC(2026, 10, 29, 10);
const MIN = 60_000;

function incident(id: string, start: number, resolvedAt: number | null): IncidentSnapshot {
  return {
    externalId: id,
    title: `Incident ${id}`,
    status: resolvedAt === null ? "INVESTIGATING" : "RESOLVED",
    impact: "MINOR",
    startedAt: start,
    updatedAt: resolvedAt ?? start,
    resolvedAt,
    url: `https://status.example.com/incidents/${id}`,
    componentIds: [],
    updates: [
      { at: start, status: "INVESTIGATING", body: "Looking." },
      ...(resolvedAt === null
        ? []
        : [{ at: resolvedAt, status: "RESOLVED" as const, body: "Fixed." }]),
    ],
  };
}

const vanishedOf = (i: IncidentSnapshot): VanishedIncident => ({
  externalId: i.externalId,
  title: i.title,
  url: i.url,
  startedAt: i.startedAt,
});

Deno.test("a vanished incident the history lists resolved is resolved at the vendor's time, in its words", () => {
  const gone = incident("b", T + 60 * MIN, T + 90 * MIN);
  const history = [incident("a", T, T + 10 * MIN), gone, incident("c", T + 120 * MIN, null)];
  const settled = settleVanished([vanishedOf(gone)], history);
  deepStrictEqual(settled.resolved, [gone]);
  deepStrictEqual(settled.removed, []);
});

Deno.test("one the history no longer lists while older ones stay was removed; older than the history, nothing is claimed", () => {
  const deleted = incident("b", T + 60 * MIN, null);
  const ancient = incident("z", T - 10_000 * MIN, null);
  const history = [incident("a", T, T + 10 * MIN), incident("c", T + 120 * MIN, T + 130 * MIN)];
  const settled = settleVanished([vanishedOf(deleted), vanishedOf(ancient)], history);
  deepStrictEqual(settled, { resolved: [], removed: ["b"] });
});

Deno.test("listed still open, listed under another id, or a history with nothing closed: no claim", () => {
  const open = incident("b", T + 60 * MIN, null);
  const renamed = { ...incident("c2", T + 70 * MIN, T + 80 * MIN), title: "Incident c" };
  const c = incident("c", T + 70 * MIN, null);
  const history = [incident("a", T, T + 10 * MIN), open, renamed];
  deepStrictEqual(settleVanished([vanishedOf(open), vanishedOf(c)], history), {
    resolved: [],
    removed: [],
  });
  deepStrictEqual(settleVanished([vanishedOf(c)], [open]), { resolved: [], removed: [] });
  deepStrictEqual(settleVanished([vanishedOf(c)], []), { resolved: [], removed: [] });
});

/** A vendor's incidents: each opened at some minute, then left open, resolved or deleted. */
const vendorHistory = fc.uniqueArray(
  fc.record({
    start: fc.integer({ min: 0, max: 5_000 }),
    fate: fc.constantFrom("open", "resolved", "deleted"),
    lasted: fc.integer({ min: 1, max: 600 }),
    seenOpen: fc.boolean(),
  }),
  { minLength: 1, maxLength: 60, selector: (x) => x.start },
);

Deno.test("property: removed only what the vendor deleted, and every deletion the history proves", () => {
  fc.assert(
    fc.property(
      vendorHistory,
      fc.integer({ min: 1, max: 50 }),
      fc.constantFrom("started", "updated"),
      (incidents, keep, order) => {
        const all = incidents.map((x, n) => ({
          ...x,
          snap: incident(
            `i${n}`,
            T + x.start * MIN,
            x.fate === "resolved" ? T + (x.start + x.lasted) * MIN : null,
          ),
        }));
        // The history document: the vendor's incidents it still shows, the newest `keep` of them
        // by start or by last update (Statuspage lists its 50 newest).
        const shown = all.filter((x) => x.fate !== "deleted").map((x) => x.snap);
        const key = (i: IncidentSnapshot) => order === "started" ? i.startedAt : i.updatedAt;
        const history = [...shown].sort((a, b) => key(b) - key(a)).slice(0, keep);
        // What statusd held open and the summary no longer lists: resolved or deleted since.
        const vanished = all.filter((x) => x.seenOpen && x.fate !== "open");
        const settled = settleVanished(vanished.map((x) => vanishedOf(x.snap)), history);
        const fate = new Map(all.map((x) => [x.snap.externalId, x.fate]));
        for (const id of settled.removed) equal(fate.get(id), "deleted", `${id} was not deleted`);
        for (const i of settled.resolved) {
          equal(fate.get(i.externalId), "resolved");
          ok(history.includes(i), "as the history lists it");
        }
        const cutoff = historyCutoff({ keepsHistory: true, incidents: history });
        for (const x of vanished) {
          const proven = x.fate === "deleted" && cutoff !== null && x.snap.startedAt > cutoff;
          equal(settled.removed.includes(x.snap.externalId), proven, x.snap.externalId);
          const listed = x.fate === "resolved" && history.includes(x.snap);
          equal(settled.resolved.includes(x.snap), listed, x.snap.externalId);
        }
      },
    ),
    { numRuns: 300 },
  );
});
