import { deepStrictEqual, equal } from "node:assert/strict";
import { type Incident, maintenanceOverrun } from "../../domain/mod.ts";
import { incidentSummary } from "../../routes/mcp/tools/_shapes.ts";

const HOUR = 3_600_000;
const END = Date.UTC(2026, 10, 20, 12);

const maintenance = (over: Partial<Incident> = {}): Incident => ({
  id: "1",
  serviceSlug: "acme",
  title: "Storage upgrade",
  status: "IN_PROGRESS",
  impact: "MAINTENANCE",
  startedAt: END - 2 * HOUR,
  updatedAt: END - 2 * HOUR,
  resolvedAt: null,
  url: null,
  components: [],
  updates: [],
  scheduledStartAt: END - 2 * HOUR,
  scheduledEndAt: END,
  ...over,
});

Deno.test("a maintenance overran only when it is open and past its announced end", () => {
  const table: [string, Partial<Incident>, number, ReturnType<typeof maintenanceOverrun>][] = [
    ["before its end", {}, END - 1, null],
    ["at its end", {}, END, null],
    ["past its end", {}, END + 3 * HOUR, { since: END, byMs: 3 * HOUR }],
    ["scheduled, never started, past its end", { status: "SCHEDULED" }, END + HOUR, {
      since: END,
      byMs: HOUR,
    }],
    ["completed", { status: "COMPLETED", resolvedAt: END + HOUR }, END + 3 * HOUR, null],
    ["no announced end", { scheduledEndAt: null }, END + 3 * HOUR, null],
    [
      "an incident, not a maintenance",
      { impact: "MAJOR", status: "INVESTIGATING" },
      END + HOUR,
      null,
    ],
  ];
  for (const [what, over, now, want] of table) {
    deepStrictEqual(maintenanceOverrun(maintenance(over), now), want, what);
  }
});

Deno.test("MCP incidents say by how much a maintenance overran", () => {
  deepStrictEqual(incidentSummary(maintenance(), END + 90 * 60_000).overrun, {
    since: "2026-11-20T12:00:00.000Z",
    seconds: 5400,
  });
  equal(incidentSummary(maintenance(), END - 1).overrun, null);
});
