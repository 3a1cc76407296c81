import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  COMPONENT_STATUS,
  IMPACT,
  INCIDENT_STATUS,
  incidentio,
  INDICATOR,
  MAINTENANCE_STATUS,
  WIDGET_COMPONENT_STATUS,
  WIDGET_IMPACT,
  WIDGET_STATUS,
} from "../../../ingest/adapters/incidentio.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("incidentio", name);

const context = parseContext;

const openai = () => context("https://status.openai.com/", "2026-09-15T16:54:01Z");

/** A widget answer built from incident.io's documented shape (no populated live capture exists). */
function widget(parts: Record<string, unknown>): string {
  return JSON.stringify({
    page_title: "Example",
    page_url: "https://status.example.com",
    ongoing_incidents: [],
    in_progress_maintenances: [],
    scheduled_maintenances: [],
    ...parts,
  });
}

const widgetIncident = (over: Record<string, unknown> = {}) => ({
  id: "01H0QJ89CRW5BKTY9N89MSDT5S",
  name: "Login failing",
  status: "identified",
  url: "https://status.example.com/incidents/01H0QJ89CRW5BKTY9N89MSDT5S",
  last_update_at: "2026-01-26T02:11:43Z",
  last_update_message: "We found it",
  current_worst_impact: "partial_outage",
  affected_components: [
    { id: "c1", name: "Login", group_name: "Auth", current_status: "partial_outage" },
  ],
  ...over,
});

Deno.test("incident.io endpoint is the Statuspage-compatible summary", () => {
  equal(
    incidentio.endpoint({ statusPageUrl: "https://status.openai.com/", slug: "openai" }).href,
    "https://status.openai.com/api/v2/summary.json",
  );
});

Deno.test("incident.io parse: compat summary with no incidents keys at all", () => {
  const { ctx, unknown } = context("https://status.openai.com/", "2026-07-09T19:25:56Z");
  const snap = incidentio.parse(read("openai-compat-summary-operational.json"), ctx);
  equal(snap.indicator, "OPERATIONAL");
  equal(snap.components.length, 25);
  deepStrictEqual(snap.components[0], {
    externalId: "01JMXBRMFE4MAP2BHSJNZ787WX",
    name: "Images",
    group: null,
    status: "OPERATIONAL",
  });
  deepStrictEqual(snap.incidents, []);
  equal(serviceStatus(snap), "OPERATIONAL");
  deepStrictEqual(unknown, []);
});

Deno.test("incident.io parse: compat components.json without a page, duplicate names kept apart by id", () => {
  const { ctx } = openai();
  const snap = incidentio.parse(read("openai-compat-components-flat-duplicate-names.json"), ctx);
  equal(snap.components.length, 34);
  const logins = snap.components.filter((c) => c.name === "Login");
  equal(logins.length, 2);
  ok(logins[0]!.externalId !== logins[1]!.externalId);
  equal(snap.indicator, "OPERATIONAL", "worst component, no page indicator");
});

Deno.test("incident.io parse: compat incidents.json, a backfilled first update already monitoring", () => {
  const { ctx, unknown } = openai();
  const snap = incidentio.parse(
    read("openai-compat-incidents-resolved-monitoring-first-update.json"),
    ctx,
  );
  equal(snap.incidents.length, 3);
  const [first, second, third] = snap.incidents;
  equal(first!.status, "RESOLVED");
  equal(first!.impact, "MINOR");
  equal(first!.url, "https://status.openai.com/incidents/01M2JZR57HRQTKQGTCWG31M3AS");
  deepStrictEqual(first!.updates.map((u) => [u.status, u.at]), [
    ["MONITORING", Date.UTC(2026, 8, 15, 16, 52, 36)],
    ["RESOLVED", Date.UTC(2026, 8, 15, 16, 54, 1)],
  ]);
  equal(second!.updates.length, 3);
  deepStrictEqual(third!.updates.map((u) => u.status), ["MONITORING", "MONITORING", "RESOLVED"]);
  equal(third!.startedAt, Date.UTC(2026, 8, 14, 15, 58, 48), "no started_at: created_at");
  equal(third!.resolvedAt, Date.UTC(2026, 8, 15, 3, 11, 36));
  deepStrictEqual(third!.componentIds, []);
  equal(snap.indicator, "OPERATIONAL");
  deepStrictEqual(unknown, []);
});

Deno.test("incident.io parse: compat summary with incidents null is nothing", () => {
  const { ctx } = openai();
  const snap = incidentio.parse(
    JSON.stringify({
      page: { id: "p", name: "P" },
      status: { indicator: "minor" },
      components: [],
      incidents: null,
      scheduled_maintenances: null,
    }),
    ctx,
  );
  deepStrictEqual(snap, { indicator: "DEGRADED_PERFORMANCE", components: [], incidents: [] });
});

Deno.test("incident.io parse: widget API with nothing going on (Neon)", () => {
  const { ctx, unknown } = context(
    "https://neonstatus.com/aws-europe-frankfurt",
    "2026-01-01T00:00:00Z",
  );
  const snap = incidentio.parse(read("neon-widget-summary-operational.json"), ctx);
  deepStrictEqual(snap, { indicator: "OPERATIONAL", components: [], incidents: [] });
  deepStrictEqual(unknown, []);
});

Deno.test("incident.io parse: widget preview with an incident, an ongoing and a scheduled maintenance", () => {
  const { ctx, unknown } = context("https://status.fitnudge.app/", "2026-01-26T02:11:43Z");
  const snap = incidentio.parse(
    read("widget-api-preview-incident-and-maintenances-DOCSAMPLE.json"),
    ctx,
  );
  deepStrictEqual(snap.components, [{
    externalId: "01H0QJ1BXP0E76RGBYRDHKA2KQ",
    name: "Login",
    group: "Authentication",
    status: "PARTIAL_OUTAGE",
  }]);
  equal(snap.indicator, "PARTIAL_OUTAGE");
  deepStrictEqual(snap.incidents.map((i) => [i.title, i.status, i.impact]), [
    ["Login failing for some users", "IDENTIFIED", "MAJOR"],
    ["Database upgrade", "IN_PROGRESS", "MAINTENANCE"],
    ["Essential maintenance", "SCHEDULED", "MAINTENANCE"],
  ]);
  const inc = snap.incidents[0]!;
  equal(inc.updatedAt, Date.UTC(2026, 0, 26, 2, 11, 43));
  equal(inc.url, "https://status.fitnudge.app/incidents/01H0QJ89CRW5BKTY9N89MSDT5S");
  deepStrictEqual(inc.componentIds, ["01H0QJ1BXP0E76RGBYRDHKA2KQ"]);
  deepStrictEqual(inc.updates, [{
    at: Date.UTC(2026, 0, 26, 2, 11, 43),
    status: "IDENTIFIED",
    body: "...",
  }]);
  deepStrictEqual(unknown, []);
});

Deno.test("incident.io widget: an in-progress maintenance alone reads UNDER_MAINTENANCE, a scheduled one nothing", () => {
  const { ctx } = openai();
  const maint = (status: string) => ({
    id: "m",
    name: "M",
    status,
    last_update_at: "2026-01-26T02:11:43Z",
    affected_components: [],
    started_at: "2026-01-26T02:00:00Z",
  });
  equal(
    incidentio.parse(widget({ in_progress_maintenances: [maint("maintenance_in_progress")] }), ctx)
      .indicator,
    "UNDER_MAINTENANCE",
  );
  const scheduled = incidentio.parse(
    widget({ scheduled_maintenances: [maint("maintenance_scheduled")] }),
    ctx,
  );
  equal(scheduled.indicator, "OPERATIONAL");
  equal(scheduled.incidents[0]!.startedAt, Date.UTC(2026, 0, 26, 2));
});

Deno.test("incident.io mapping tables: every row", () => {
  const { ctx } = openai();
  const compat = (parts: Record<string, unknown>) =>
    incidentio.parse(
      JSON.stringify({ status: { indicator: "none" }, components: [], ...parts }),
      ctx,
    );
  for (const [raw, level] of Object.entries(INDICATOR)) {
    equal(compat({ status: { indicator: raw } }).indicator, level, raw);
  }
  for (const [raw, level] of Object.entries(COMPONENT_STATUS)) {
    equal(
      compat({ components: [{ id: "c", name: "C", status: raw }] }).components[0]!.status,
      level,
    );
  }
  const inc = (status: string, impact: string) => ({
    id: "i",
    name: "I",
    status,
    impact,
    created_at: "2026-01-01T00:00:00Z",
  });
  for (const [raw, status] of Object.entries(INCIDENT_STATUS)) {
    equal(compat({ incidents: [inc(raw, "minor")] }).incidents[0]!.status, status, raw);
  }
  for (const [raw, impact] of Object.entries(IMPACT)) {
    equal(compat({ incidents: [inc("identified", raw)] }).incidents[0]!.impact, impact, raw);
  }
  for (const [raw, status] of Object.entries(MAINTENANCE_STATUS)) {
    const all = incidentio.parse(
      JSON.stringify({ scheduled_maintenances: [inc(raw, "maintenance")] }),
      ctx,
    );
    equal(all.incidents[0]!.status, status, raw);
  }
  for (const [raw, level] of Object.entries(WIDGET_COMPONENT_STATUS)) {
    const snap = incidentio.parse(
      widget({
        ongoing_incidents: [widgetIncident({
          affected_components: [{ id: "c", name: "C", current_status: raw }],
          current_worst_impact: null,
        })],
      }),
      ctx,
    );
    equal(snap.components[0]!.status, level, raw);
  }
  for (const [raw, impact] of Object.entries(WIDGET_IMPACT)) {
    const snap = incidentio.parse(
      widget({
        ongoing_incidents: [widgetIncident({ current_worst_impact: raw, affected_components: [] })],
      }),
      ctx,
    );
    equal(snap.incidents[0]!.impact, impact, raw);
  }
  for (const [raw, status] of Object.entries(WIDGET_STATUS)) {
    const snap = incidentio.parse(
      widget({ ongoing_incidents: [widgetIncident({ status: raw })] }),
      ctx,
    );
    equal(snap.incidents[0]!.status, status, raw);
  }
});

Deno.test("incident.io widget: the indicator follows the worst ongoing impact (no page-level value)", () => {
  const { ctx } = openai();
  const snap = incidentio.parse(
    widget({
      ongoing_incidents: [
        widgetIncident({ current_worst_impact: "full_outage", affected_components: [] }),
      ],
    }),
    ctx,
  );
  equal(snap.indicator, "MAJOR_OUTAGE");
  equal(snap.incidents[0]!.impact, "CRITICAL");
});

Deno.test("incident.io parse: unknown widget values read UNKNOWN and are reported", () => {
  const { ctx, unknown } = openai();
  const snap = incidentio.parse(
    widget({
      ongoing_incidents: [widgetIncident({
        status: "triaging",
        current_worst_impact: "catastrophic",
        affected_components: [{ id: "c", name: "C", current_status: "melting" }],
      })],
    }),
    ctx,
  );
  equal(snap.components[0]!.status, "UNKNOWN");
  equal(snap.incidents[0]!.status, "INVESTIGATING");
  equal(snap.incidents[0]!.impact, "NONE");
  equal(snap.indicator, "OPERATIONAL", "nothing known is worse than operational");
  deepStrictEqual(unknown, [
    ["incident.status", "triaging"],
    ["incident.current_worst_impact", "catastrophic"],
    ["component.current_status", "melting"],
  ]);
});

Deno.test("incident.io parse: malformed payloads name the offending path", () => {
  const { ctx } = openai();
  const cases: [string, string][] = [
    ["<!DOCTYPE html><html></html>", "$"],
    ["not json", "$"],
    [widget({ ongoing_incidents: null }), "ongoing_incidents"],
    [widget({ ongoing_incidents: { id: "x" } }), "ongoing_incidents"],
    [JSON.stringify({ components: "none" }), "components"],
  ];
  for (const [body, path] of cases) {
    throws(
      () => incidentio.parse(body, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path && e.platform === "incidentio",
      `${body} → ${path}`,
    );
  }
});

Deno.test("incident.io parse: a widget item without last_update_at is dropped, the rest is read", () => {
  const { ctx, dropped } = openai();
  const doc = jsonFixture(
    "incidentio",
    "widget-api-preview-incident-and-maintenances-DOCSAMPLE.json",
  );
  delete doc.in_progress_maintenances[0].started_at;
  delete doc.in_progress_maintenances[0].last_update_at;
  const snap = incidentio.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.incidents.map((i) => i.status), ["IDENTIFIED", "SCHEDULED"]);
  equal(dropped.length, 1);
  ok(dropped[0]!.startsWith("in_progress_maintenances[0].last_update_at: "), dropped[0]);
});

Deno.test("incident.io parse: a malformed affected component is dropped, its incident kept", () => {
  const { ctx, dropped } = openai();
  const doc = jsonFixture(
    "incidentio",
    "widget-api-preview-incident-and-maintenances-DOCSAMPLE.json",
  );
  doc.ongoing_incidents[0].affected_components[0].id = 7;
  const snap = incidentio.parse(JSON.stringify(doc), ctx);
  equal(snap.incidents.length, 3);
  deepStrictEqual(snap.incidents[0]!.componentIds, []);
  deepStrictEqual(snap.components, []);
  deepStrictEqual(dropped, [
    "ongoing_incidents[0].affected_components[0].id: Invalid input: expected string, received number (found number 7)",
  ]);
});

Deno.test("incident.io parse: a compat incident without status is dropped, the others are read", () => {
  const { ctx, dropped } = openai();
  const doc = jsonFixture(
    "incidentio",
    "openai-compat-incidents-resolved-monitoring-first-update.json",
  );
  delete doc.incidents[0].status;
  const snap = incidentio.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.incidents.map((i) => i.externalId), [
    "01M2HYH64J2CZMZ63HEV2FCQFA",
    "01M2GA8XTS6VB3QCDEGZ0HNAQ5",
  ]);
  deepStrictEqual(dropped, [
    "incidents[0].status: missing",
  ]);
});
