import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  COMPONENT_STATUS,
  INCIDENT_IMPACT,
  INCIDENT_STATUS,
  instatus,
  MAINTENANCE_STATUS,
  PAGE_STATUS,
} from "../../../ingest/adapters/instatus.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("instatus", name);

const context = parseContext;

const docs = () => context("https://instat.us", "2022-06-11T19:00:00Z");

/** A summary body in the documented shape. */
const summary = (parts: Record<string, unknown>) =>
  JSON.stringify({ page: { name: "P", url: "https://p.instatus.com", status: "UP" }, ...parts });
const incident = (over: Record<string, unknown> = {}) => ({
  id: "inc1",
  name: "Issue",
  started: "2026-03-17T03:00:00.000Z",
  status: "INVESTIGATING",
  impact: "DEGRADEDPERFORMANCE",
  url: "https://p.instatus.com/inc1",
  ...over,
});

Deno.test("instatus endpoint is the page's /summary.json", () => {
  equal(
    instatus.endpoint({ statusPageUrl: "https://status.manychat.com", slug: "manychat" }).href,
    "https://status.manychat.com/summary.json",
  );
});

Deno.test("instatus parse: docs sample HASISSUES with a MAJOROUTAGE incident, Date.toString() times", () => {
  const { ctx, unknown } = docs();
  const snap = instatus.parse(read("instatus-docs-summary-hasissues.json"), ctx);
  equal(snap.indicator, "MAJOR_OUTAGE", "HASISSUES is a floor; the open incident says worse");
  deepStrictEqual(snap.components, []);
  equal(snap.incidents.length, 2);
  const [inc, maint] = snap.incidents;
  deepStrictEqual(inc, {
    externalId: "cl4a8n3070721qtmzvts760c4",
    title: "We're facing an issue with our API",
    status: "INVESTIGATING",
    impact: "CRITICAL",
    startedAt: Date.UTC(2022, 5, 11, 18, 55, 50),
    updatedAt: Date.UTC(2022, 5, 11, 18, 55, 50),
    resolvedAt: null,
    url: "https://testing-widget.instatus.com/incident/cl4a8n3070721qtmzvts760c4",
    componentIds: [],
    updates: [],
  });
  equal(maint!.status, "SCHEDULED");
  equal(maint!.impact, "MAINTENANCE");
  equal(maint!.startedAt, Date.UTC(2022, 5, 11, 18, 55, 54));
  equal(maint!.scheduledStartAt, Date.UTC(2022, 5, 11, 18, 55, 54), "start");
  equal(maint!.scheduledEndAt, Date.UTC(2022, 5, 11, 19, 55, 54), 'start + duration ("60" min)');
  equal(maint!.externalId, "cl4a8nlv50918qtmzdlw60ivu");
  deepStrictEqual(unknown, []);
});

Deno.test("instatus parse: UP with an open IDENTIFIED incident stays OPERATIONAL; the incident is listed", () => {
  const { ctx, unknown } = context("https://status.manychat.com", "2026-05-06T15:19:52.073Z");
  const snap = instatus.parse(read("manychat-summary-up-with-open-identified-incident.json"), ctx);
  equal(snap.indicator, "OPERATIONAL");
  equal(serviceStatus(snap), "OPERATIONAL");
  const inc = snap.incidents[0]!;
  equal(inc.externalId, "cmmxljn3s01ntuud42lsa7zud");
  equal(inc.status, "IDENTIFIED");
  equal(inc.impact, "MINOR");
  equal(inc.startedAt, Date.UTC(2026, 2, 17, 3));
  equal(inc.updatedAt, Date.UTC(2026, 4, 6, 15, 19, 52, 73));
  deepStrictEqual(unknown, []);
});

Deno.test("instatus parse: healthy pages without active keys (Recraft, Wistia)", () => {
  const { ctx } = docs();
  for (const name of ["recraft-summary-up-compact.json", "wistia-summary-up-no-active-keys.json"]) {
    deepStrictEqual(instatus.parse(read(name), ctx), {
      indicator: "OPERATIONAL",
      components: [],
      incidents: [],
    }, name);
  }
});

Deno.test("instatus parse: v2 components, the group parent is dropped and children name it", () => {
  const { ctx, unknown } = context(
    "https://arbitrum-internal.instatus.com",
    "2024-03-28T11:22:33Z",
  );
  const snap = instatus.parse(
    read("arbitrum-internal-v2-components-all-statuses-grouped.json"),
    ctx,
  );
  equal(snap.components.length, 5);
  ok(!snap.components.some((c) => c.externalId === "clu8llhf3128958bhocmy64uxes"));
  deepStrictEqual(snap.components.map((c) => [c.name, c.group, c.status]), [
    ["ARB1 - Sequencer", "ARB1", "UNDER_MAINTENANCE"],
    ["ARB1 - Batch Poster", "ARB1", "DEGRADED_PERFORMANCE"],
    ["ARB1 - Validator", "ARB1", "PARTIAL_OUTAGE"],
    ["ARB1 - Feed", "ARB1", "MAJOR_OUTAGE"],
    ["ARB1 - Arbiscan", "ARB1", "DEGRADED_PERFORMANCE"],
  ]);
  equal(serviceStatus(snap), "MAJOR_OUTAGE");
  deepStrictEqual(unknown, []);

  const wistia = instatus.parse(read("wistia-v3-components-operational-PARTIAL.json"), ctx);
  deepStrictEqual(wistia.components, [{
    externalId: "cm86c68hh003drlefrrklqlw1",
    name: "Group Record",
    group: null,
    status: "OPERATIONAL",
  }]);
});

Deno.test("instatus mapping tables: every row", () => {
  const { ctx } = docs();
  for (const [raw, level] of Object.entries(PAGE_STATUS)) {
    equal(instatus.parse(JSON.stringify({ page: { status: raw } }), ctx).indicator, level, raw);
  }
  for (const [raw, level] of Object.entries(COMPONENT_STATUS)) {
    const snap = instatus.parse(
      JSON.stringify({ components: [{ id: "c", name: "C", status: raw, group: null }] }),
      ctx,
    );
    equal(snap.components[0]!.status, level, raw);
  }
  for (const [raw, impact] of Object.entries(INCIDENT_IMPACT)) {
    const snap = instatus.parse(summary({ activeIncidents: [incident({ impact: raw })] }), ctx);
    equal(snap.incidents[0]!.impact, impact, raw);
  }
  for (const [raw, status] of Object.entries(INCIDENT_STATUS)) {
    const snap = instatus.parse(summary({ activeIncidents: [incident({ status: raw })] }), ctx);
    equal(snap.incidents[0]!.status, status, raw);
  }
  for (const [raw, status] of Object.entries(MAINTENANCE_STATUS)) {
    const snap = instatus.parse(
      summary({
        activeMaintenances: [{
          name: "M",
          start: "2026-01-01T00:00:00.000Z",
          status: raw,
          duration: "60",
        }],
      }),
      ctx,
    );
    equal(snap.incidents[0]!.status, status, raw);
  }
});

Deno.test("instatus: HASISSUES reads at least DEGRADED_PERFORMANCE, raised by open incidents' impact", () => {
  const { ctx } = docs();
  const level = (impact: string) =>
    instatus.parse(
      summary({ page: { status: "HASISSUES" }, activeIncidents: [incident({ impact })] }),
      ctx,
    ).indicator;
  equal(level("OPERATIONAL"), "DEGRADED_PERFORMANCE");
  equal(level("MINOROUTAGE"), "PARTIAL_OUTAGE");
  equal(level("MAJOROUTAGE"), "MAJOR_OUTAGE");
});

Deno.test("instatus parse: unknown values read UNKNOWN and are reported", () => {
  const { ctx, unknown } = docs();
  const snap = instatus.parse(
    summary({
      page: { status: "SIDEWAYS" },
      activeIncidents: [incident({ status: "HMM", impact: "BAD" })],
    }),
    ctx,
  );
  equal(snap.indicator, "UNKNOWN");
  equal(snap.incidents[0]!.status, "INVESTIGATING");
  equal(snap.incidents[0]!.impact, "NONE");
  const comps = instatus.parse(
    JSON.stringify({ components: [{ id: "c", name: "C", status: "WOBBLY", group: null }] }),
    ctx,
  );
  equal(comps.components[0]!.status, "UNKNOWN");
  deepStrictEqual(unknown, [
    ["incident.status", "HMM"],
    ["incident.impact", "BAD"],
    ["page.status", "SIDEWAYS"],
    ["component.status", "WOBBLY"],
  ]);
});

Deno.test("instatus parse: malformed payloads name the offending path", () => {
  const { ctx } = docs();
  const cases: [string, string][] = [
    ["<html><body>Not found</body></html>", "$"],
    ["[]", "$"],
    [JSON.stringify({ page: { status: 1 } }), "page.status"],
    [summary({ activeMaintenances: {} }), "activeMaintenances"],
    [JSON.stringify({ components: { id: "c" } }), "components"],
  ];
  for (const [body, path] of cases) {
    throws(
      () => instatus.parse(body, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path && e.platform === "instatus",
      `${body} → ${path}`,
    );
  }
});

Deno.test("instatus parse: a maintenance with no start is kept, dated from its last update or this reading, with a note", () => {
  const { ctx, dropped } = docs();
  const doc = jsonFixture("instatus", "instatus-docs-summary-hasissues.json");
  const whole = instatus.parse(JSON.stringify(doc), ctx);
  delete doc.activeMaintenances[0].start;
  const snap = instatus.parse(JSON.stringify(doc), ctx);
  equal(snap.indicator, whole.indicator);
  equal(snap.incidents.length, 2);
  const before = whole.incidents.find((i) => i.impact === "MAINTENANCE")!;
  const after = snap.incidents.find((i) => i.impact === "MAINTENANCE")!;
  deepStrictEqual(
    [after.externalId, after.status, after.startedAt, after.scheduledStartAt, after.scheduledEndAt],
    // The fixture's maintenance states no update time either: it is dated from this reading.
    [before.externalId, before.status, ctx.fetchedAt, null, null],
  );
  deepStrictEqual(dropped, [
    "activeMaintenances[0].start: missing: the maintenance is kept, dated from its last update (or this reading)",
  ]);
});

Deno.test("instatus parse: an incident with an unreadable start is dropped, the maintenance kept", () => {
  const { ctx, dropped } = docs();
  const doc = jsonFixture("instatus", "instatus-docs-summary-hasissues.json");
  doc.activeIncidents[0].started = "last tuesday";
  const snap = instatus.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.incidents.map((i) => i.impact), ["MAINTENANCE"]);
  deepStrictEqual(dropped, [
    'activeIncidents[0].started: not a timestamp: "last tuesday" (found string "last tuesday")',
  ]);
});

Deno.test("instatus parse: a component with a malformed group is dropped, the others read", () => {
  const { ctx, dropped } = docs();
  const doc = jsonFixture("instatus", "arbitrum-internal-v2-components-all-statuses-grouped.json");
  const all = instatus.parse(JSON.stringify(doc), ctx).components;
  const victim = doc.components.findIndex((c: { group?: unknown }) => c.group);
  const name = doc.components[victim].name;
  doc.components[victim].group = "g";
  const snap = instatus.parse(JSON.stringify(doc), ctx);
  ok(!snap.components.some((c) => c.name === name));
  ok(snap.components.length >= all.length - 1, `${snap.components.length} of ${all.length}`);
  equal(dropped.length, 1);
  ok(dropped[0]!.startsWith(`components[${victim}].group: `), dropped[0]);
});
