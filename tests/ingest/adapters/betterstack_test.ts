import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  AGGREGATE_STATE,
  betterstack,
  REPORT_IMPACT,
  REPORT_OPEN,
  RESOURCE_STATUS,
} from "../../../ingest/adapters/betterstack.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("betterstack", name);

const context = parseContext;

const quiet = () => context("https://status.example.com", "2026-09-04T20:00:00Z");

/** An index.json in the documented JSON:API shape, with the given `included[]`. */
function index(included: unknown[], state = "operational"): string {
  return JSON.stringify({
    data: {
      id: "1",
      type: "status_page",
      attributes: { company_name: "X", aggregate_state: state },
    },
    included,
  });
}
const resource = (id: string, status: string, section = 10) => ({
  id,
  type: "status_page_resource",
  attributes: { public_name: `R${id}`, status, status_page_section_id: section },
});
const report = (attrs: Record<string, unknown>, updateIds: string[] = []) => ({
  id: "900",
  type: "status_report",
  attributes: {
    title: "Trouble",
    report_type: "manual",
    starts_at: "2026-09-04T13:50:00.000Z",
    ends_at: null,
    aggregate_state: "degraded",
    affected_resources: [{ status_page_resource_id: "5", status: "degraded" }],
    ...attrs,
  },
  relationships: {
    status_updates: { data: updateIds.map((id) => ({ id, type: "status_update" })) },
  },
});
const update = (id: string, at: string, message = "m") => ({
  id,
  type: "status_update",
  attributes: { message, published_at: at, affected_resources: [] },
});

Deno.test("better stack endpoint is the page's /index.json", () => {
  equal(
    betterstack.endpoint({ statusPageUrl: "https://status.together.ai", slug: "together" }).href,
    "https://status.together.ai/index.json",
  );
});

Deno.test("better stack parse: Together AI, sections as groups, a completed maintenance report", () => {
  const { ctx, unknown } = context("https://status.together.ai", "2026-09-15T19:17:46.264Z");
  const snap = betterstack.parse(
    read("together-ai-index-operational-maintenance-report-resolved.json"),
    ctx,
  );
  equal(snap.indicator, "OPERATIONAL");
  deepStrictEqual(snap.components, [
    { externalId: "8475065", name: "Website", group: "Website", status: "OPERATIONAL" },
    { externalId: "8475068", name: "Playground", group: "Website", status: "OPERATIONAL" },
  ]);
  equal(snap.incidents.length, 1);
  const m = snap.incidents[0]!;
  equal(m.externalId, "941865");
  equal(m.title, "Scheduled network maintenance");
  equal(m.status, "COMPLETED");
  equal(m.impact, "MAINTENANCE");
  equal(m.startedAt, Date.UTC(2026, 6, 3, 4, 0, 59));
  equal(m.resolvedAt, Date.UTC(2026, 6, 3, 6, 59), "ends_at");
  equal(m.componentIds.length, 8, "resource ids kept although not in included[]");
  deepStrictEqual(m.updates.map((u) => [u.status, u.at, u.body.slice(0, 17)]), [
    ["IN_PROGRESS", Date.UTC(2026, 6, 3, 4, 0, 59), "We will be perfor"],
    ["COMPLETED", Date.UTC(2026, 6, 3, 6, 59), "Maintenance ended"],
  ]);
  equal(serviceStatus(snap), "OPERATIONAL");
  deepStrictEqual(unknown, []);
});

Deno.test("better stack parse: resolved manual report with ends_at null; section name trimmed", () => {
  const { ctx, unknown } = context("https://status.betterstack.com", "2026-09-23T00:00:00Z");
  const snap = betterstack.parse(
    read("betterstack-index-operational-resolved-report-PARTIAL.json"),
    ctx,
  );
  equal(snap.indicator, "OPERATIONAL");
  deepStrictEqual(snap.components, [
    { externalId: "4018902", name: "Better Stack", group: "Better Stack", status: "OPERATIONAL" },
  ]);
  const inc = snap.incidents[0]!;
  equal(inc.status, "RESOLVED");
  equal(inc.impact, "MINOR", "an update marked the resource degraded");
  equal(inc.startedAt, Date.UTC(2026, 8, 4, 13, 50));
  equal(inc.resolvedAt, Date.UTC(2026, 8, 4, 19, 53), "no ends_at: the last update");
  deepStrictEqual(inc.updates.map((u) => u.status), ["RESOLVED"]);
  deepStrictEqual(inc.componentIds, ["4188758"]);
  deepStrictEqual(unknown, []);
});

Deno.test("better stack: an open incident report is INVESTIGATING; a future maintenance SCHEDULED", () => {
  const { ctx } = quiet();
  const snap = betterstack.parse(
    index([
      resource("5", "downtime"),
      report({ aggregate_state: "downtime" }, ["u1", "u2"]),
      update("u2", "2026-09-04T14:30:00.000Z", "second"),
      update("u1", "2026-09-04T14:00:00.000Z", "first"),
      {
        ...report({
          report_type: "maintenance",
          aggregate_state: "maintenance",
          starts_at: "2026-09-05T00:00:00Z",
        }),
        id: "901",
      },
    ], "downtime"),
    ctx,
  );
  equal(snap.indicator, "MAJOR_OUTAGE");
  equal(snap.components[0]!.status, "MAJOR_OUTAGE");
  equal(snap.components[0]!.group, null, "section not in included[]");
  const [inc, maint] = snap.incidents;
  equal(inc!.status, "INVESTIGATING");
  equal(inc!.impact, "CRITICAL");
  equal(inc!.resolvedAt, null);
  deepStrictEqual(inc!.updates.map((u) => u.body), ["first", "second"], "oldest first");
  equal(inc!.updatedAt, Date.UTC(2026, 8, 4, 14, 30));
  equal(maint!.status, "SCHEDULED", "starts after fetchedAt");
  equal(maint!.impact, "MAINTENANCE");
});

Deno.test("better stack mapping tables: every row", () => {
  const { ctx } = quiet();
  for (const [raw, level] of Object.entries(AGGREGATE_STATE)) {
    equal(betterstack.parse(index([], raw), ctx).indicator, level, raw);
  }
  for (const [raw, level] of Object.entries(RESOURCE_STATUS)) {
    equal(betterstack.parse(index([resource("5", raw)]), ctx).components[0]!.status, level, raw);
  }
  for (const [raw, impact] of Object.entries(REPORT_IMPACT)) {
    const snap = betterstack.parse(
      index([report({ aggregate_state: raw, affected_resources: [] })]),
      ctx,
    );
    equal(snap.incidents[0]!.impact, impact, raw);
  }
  for (const [raw, open] of Object.entries(REPORT_OPEN)) {
    const snap = betterstack.parse(index([report({ aggregate_state: raw })]), ctx);
    equal(snap.incidents[0]!.status, open ? "INVESTIGATING" : "RESOLVED", raw);
  }
});

Deno.test("better stack parse: unknown values read UNKNOWN and are reported", () => {
  const { ctx, unknown } = quiet();
  const snap = betterstack.parse(
    index([
      resource("5", "exploding"),
      report({ aggregate_state: "weird", affected_resources: [] }),
    ], "odd"),
    ctx,
  );
  equal(snap.indicator, "UNKNOWN");
  equal(snap.components[0]!.status, "UNKNOWN");
  equal(snap.incidents[0]!.status, "INVESTIGATING", "an unknown report state stays open");
  deepStrictEqual(unknown.map((u) => u.join("=")).sort(), [
    "aggregate_state=odd",
    "report.aggregate_state=weird",
    "report.status=weird",
    "resource.status=exploding",
  ]);
});

Deno.test("better stack parse: malformed payloads name the offending path", () => {
  const { ctx } = quiet();
  const cases: [string, string][] = [
    ["<!doctype html><div id=app></div>", "$"],
    [
      JSON.stringify({
        data: { id: "1", type: "monitor", attributes: { aggregate_state: "operational" } },
      }),
      "data.type",
    ],
    [
      JSON.stringify({
        data: { id: "1", type: "status_page", attributes: { aggregate_state: "operational" } },
        included: { id: "5" },
      }),
      "included",
    ],
    [
      JSON.stringify({ data: { id: "1", type: "status_page", attributes: {} } }),
      "data.attributes.aggregate_state",
    ],
  ];
  for (const [body, path] of cases) {
    throws(
      () => betterstack.parse(body, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path && e.platform === "betterstack",
      `${body} → ${path}`,
    );
  }
});

Deno.test("better stack parse: a resource without public_name is dropped with a note, the rest is read", () => {
  const { ctx, dropped } = quiet();
  const doc = jsonFixture(
    "betterstack",
    "together-ai-index-operational-maintenance-report-resolved.json",
  );
  const kept = betterstack.parse(JSON.stringify(doc), ctx).components;
  delete doc.included[2].attributes.public_name;
  const snap = betterstack.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.components, kept.filter((c) => c.externalId !== "8475068"));
  equal(snap.incidents.length, 1);
  deepStrictEqual(dropped, [
    "included[2].attributes.public_name: missing",
  ]);
});

Deno.test("better stack parse: a report with a bad starts_at is dropped, the components are read", () => {
  const { ctx, dropped } = quiet();
  const doc = jsonFixture(
    "betterstack",
    "together-ai-index-operational-maintenance-report-resolved.json",
  );
  doc.included[5].attributes.starts_at = "tomorrow";
  const snap = betterstack.parse(JSON.stringify(doc), ctx);
  equal(snap.incidents.length, 0);
  equal(snap.components.length, 2);
  equal(dropped.length, 1);
  ok(dropped[0]!.startsWith("included[5].attributes.starts_at: not a timestamp"), dropped[0]);
});
