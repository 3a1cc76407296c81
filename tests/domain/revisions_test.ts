import { deepStrictEqual } from "node:assert/strict";
import { type IncidentSnapshot, revisionsOf, type StoredIncident } from "../../domain/mod.ts";

const T = Date.UTC(2026, 10, 28, 10);
const MIN = 60_000;

const stored: StoredIncident = {
  externalId: "i1",
  title: "Payments",
  status: "RESOLVED",
  impact: "MAJOR",
  startedAt: T,
  updatedAt: T + 30 * MIN,
  resolvedAt: T + 30 * MIN,
  url: null,
  componentIds: [],
  scheduledStartAt: null,
  scheduledEndAt: null,
  removedAt: null,
  updates: [
    { at: T, status: "INVESTIGATING", body: "Payments fail." },
    { at: T + 30 * MIN, status: "RESOLVED", body: "Fixed." },
  ],
};
const read = (over: Partial<IncidentSnapshot>): IncidentSnapshot => ({
  externalId: "i1",
  title: stored.title,
  status: stored.status,
  impact: stored.impact,
  startedAt: stored.startedAt,
  updatedAt: stored.updatedAt,
  resolvedAt: stored.resolvedAt,
  url: null,
  componentIds: [],
  updates: stored.updates,
  ...over,
});

Deno.test("what counts as a vendor's rewrite, and what does not", () => {
  const table: [string, Partial<IncidentSnapshot>, Partial<StoredIncident>, string[]][] = [
    ["the same incident again", {}, {}, []],
    [
      "an update's text edited",
      {
        updates: [{ ...stored.updates[0]!, body: "Some payments slow." }, stored.updates[1]!],
      },
      {},
      ["update_edited"],
    ],
    [
      "a new update is not an edit",
      {
        updates: [...stored.updates, { at: T + 40 * MIN, status: "RESOLVED", body: "Postmortem." }],
      },
      {},
      [],
    ],
    ["impact lowered after the end", { impact: "MINOR" }, {}, ["impact_lowered"]],
    [
      "impact lowered while it runs is the vendor's assessment, not a rewrite",
      {
        status: "MONITORING",
        impact: "MINOR",
        resolvedAt: null,
      },
      { status: "MONITORING", resolvedAt: null },
      [],
    ],
    ["impact raised is not lowered", { impact: "CRITICAL" }, {}, []],
    ["start moved earlier", { startedAt: T - 20 * MIN }, {}, ["start_moved"]],
    [
      "start moved later while the old start is still in the timeline",
      {
        startedAt: T + 20 * MIN,
      },
      {},
      ["start_moved"],
    ],
    [
      "start later because the oldest entries rolled off a feed",
      {
        startedAt: T + 30 * MIN,
        updates: [stored.updates[1]!],
      },
      {},
      [],
    ],
    ["a start within the slack of a minute-precise feed", { startedAt: T + 2 * MIN }, {}, []],
  ];
  for (const [what, now, before, kinds] of table) {
    deepStrictEqual(
      revisionsOf({ ...stored, ...before }, read(now)).map((r) => r.kind),
      kinds,
      what,
    );
  }
});
