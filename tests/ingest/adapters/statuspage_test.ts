import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  COMPONENT_STATUS,
  IMPACT,
  INCIDENT_STATUS,
  INDICATOR,
  MAINTENANCE_STATUS,
  statuspage,
} from "../../../ingest/adapters/statuspage.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("statuspage", name);

/** A parse context pinned to a time taken from the data, collecting unknown values. */
const context = parseContext;

const github = () => context("https://www.githubstatus.com", "2022-11-25T15:50:05.892Z");

/** A minimal summary around the given parts. */
function summary(parts: Record<string, unknown>): string {
  return JSON.stringify({
    page: { id: "p", name: "P", url: "https://status.example.com" },
    status: { indicator: "none", description: "All Systems Operational" },
    components: [],
    incidents: [],
    scheduled_maintenances: [],
    ...parts,
  });
}

Deno.test("statuspage endpoint is the page's /api/v2/summary.json", () => {
  equal(
    statuspage.endpoint({ statusPageUrl: "https://www.githubstatus.com", slug: "github" }).href,
    "https://www.githubstatus.com/api/v2/summary.json",
  );
  equal(
    statuspage.endpoint({ statusPageUrl: "https://status.example.com/eu/", slug: "x" }).href,
    "https://status.example.com/eu/api/v2/summary.json",
  );
});

Deno.test("statuspage parse: GitHub summary with one partial_outage component and an open incident", () => {
  const { ctx, unknown } = github();
  const snap = statuspage.parse(read("github-summary-partial-outage-investigating.json"), ctx);
  equal(snap.indicator, "DEGRADED_PERFORMANCE");
  equal(snap.components.length, 11);
  deepStrictEqual(snap.components.find((c) => c.name === "Packages"), {
    externalId: "st3j38cctv9l",
    name: "Packages",
    group: null,
    status: "PARTIAL_OUTAGE",
  });
  equal(serviceStatus(snap), "PARTIAL_OUTAGE");
  equal(snap.incidents.length, 1);
  const inc = snap.incidents[0]!;
  equal(inc.externalId, "ljwdk6qml8z8");
  equal(inc.title, "Incident with Packages and Pages");
  equal(inc.status, "INVESTIGATING");
  equal(inc.impact, "MAJOR");
  equal(inc.startedAt, Date.UTC(2022, 10, 25, 14, 39, 9, 542));
  equal(inc.updatedAt, Date.UTC(2022, 10, 25, 15, 50, 4, 970));
  equal(inc.resolvedAt, null);
  equal(inc.url, "https://stspg.io/33vh8r7z43kh");
  deepStrictEqual(inc.componentIds, ["st3j38cctv9l", "vg70hn9s2tyj"]);
  equal(inc.updates.length, 7);
  equal(inc.updates[0]!.at, Date.UTC(2022, 10, 25, 14, 39, 9, 577));
  equal(inc.updates[6]!.at, Date.UTC(2022, 10, 25, 15, 50, 4, 967));
  ok(inc.updates.every((u, i, a) => i === 0 || a[i - 1]!.at <= u.at), "oldest first");
  ok(inc.updates.every((u) => u.status === "INVESTIGATING"));
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: Claude summary, all operational, empty incident lists", () => {
  const { ctx, unknown } = context("https://status.claude.com", "2026-09-15T19:04:31.001Z");
  const snap = statuspage.parse(read("claude-summary-all-operational-2026.json"), ctx);
  equal(snap.indicator, "OPERATIONAL");
  equal(snap.components.length, 6);
  ok(snap.components.every((c) => c.status === "OPERATIONAL" && c.group === null));
  equal(snap.components[2]!.name, "Claude API (api.anthropic.com)");
  deepStrictEqual(snap.incidents, []);
  equal(serviceStatus(snap), "OPERATIONAL");
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: status.json documents carry the indicator alone", () => {
  const { ctx } = github();
  const gh = statuspage.parse(read("github-status-none.json"), ctx);
  deepStrictEqual(gh, { indicator: "OPERATIONAL", components: [], incidents: [] });
  const mongo = statuspage.parse(read("mongodb-docs-status-none.json"), ctx);
  equal(mongo.indicator, "OPERATIONAL");
});

Deno.test("statuspage parse: groups are not components; children carry the group's name", () => {
  const { ctx, unknown } = context("https://status.hashicorp.com", "2021-08-06T23:51:55.230Z");
  const snap = statuspage.parse(read("hashicorp-components-groups-edited-statuses.json"), ctx);
  equal(snap.components.length, 54 - 6);
  ok(!snap.components.some((c) => c.name === "Terraform Cloud"), "group row dropped");
  deepStrictEqual(snap.components.find((c) => c.externalId === "7cgbxrw10wgr"), {
    externalId: "7cgbxrw10wgr",
    name: "Terraform Cloud UI and API",
    group: "Terraform Cloud",
    status: "DEGRADED_PERFORMANCE",
  });
  equal(
    snap.components.filter((c) => c.status === "UNDER_MAINTENANCE").length,
    3,
    "5 rows, 2 of them groups",
  );
  // components.json has no page indicator: the level is the worst component.
  equal(snap.indicator, "DEGRADED_PERFORMANCE");
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: a component whose group row is missing is shown without it, with a note", () => {
  const doc = jsonFixture("statuspage", "hashicorp-components-groups-edited-statuses.json");
  const group = doc.components.find((c: { group: boolean }) => c.group === true);
  doc.components = doc.components.filter((c: { id: string }) => c.id !== group.id);
  const { ctx, dropped } = context("https://status.hashicorp.com", "2021-08-06T23:51:55.230Z");
  const snap = statuspage.parse(JSON.stringify(doc), ctx);
  const orphans = snap.components.filter((c) =>
    doc.components.some((r: { id: string; group_id: string }) =>
      r.id === c.externalId && r.group_id === group.id
    )
  );
  ok(orphans.length > 0);
  ok(orphans.every((c) => c.group === null));
  deepStrictEqual(dropped, [
    `components[].group_id: group ${group.id} is named by components but not listed: they are ` +
    "shown without a group",
  ]);
  const { ctx: whole, dropped: none } = context(
    "https://status.hashicorp.com",
    "2021-08-06T23:51:55.230Z",
  );
  statuspage.parse(read("hashicorp-components-groups-edited-statuses.json"), whole);
  deepStrictEqual(none, []);
});

Deno.test("statuspage parse: incidents.json keeps resolved incidents with full timelines", () => {
  const { ctx, unknown } = context("https://status.claude.com", "2026-09-15T19:04:31.001Z");
  const snap = statuspage.parse(
    read("claude-incidents-major-resolved-reminder-intervals-string.json"),
    ctx,
  );
  equal(snap.incidents.length, 3);
  equal(snap.indicator, "OPERATIONAL", "no open incident, no page indicator");
  const first = snap.incidents[0]!;
  equal(first.status, "RESOLVED");
  equal(first.impact, "MAJOR");
  equal(first.resolvedAt, Date.UTC(2026, 8, 15, 11, 14, 44, 380));
  deepStrictEqual(first.updates.map((u) => u.status), [
    "INVESTIGATING",
    "INVESTIGATING",
    "MONITORING",
    "RESOLVED",
  ]);
  deepStrictEqual(first.componentIds, [
    "rwppv331jlwc",
    "k8w3r06qmzrp",
    "yyzkbfz2thpt",
    "bpp5gb3hpjcl",
  ]);
  // An edited update: display_at (15:54:10.000) is earlier than created_at; display_at wins.
  const edited = snap.incidents[1]!;
  equal(edited.updates[0]!.at, Date.UTC(2026, 8, 10, 15, 54, 10, 0));
  equal(edited.updates[0]!.status, "IDENTIFIED");
  equal(snap.incidents[2]!.updates.length, 5);
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: a backdated timeline is ordered by display_at, offsets honoured", () => {
  const { ctx, unknown } = context("https://status.myemma.com", "2019-02-21T08:31:24.239-06:00");
  const snap = statuspage.parse(read("emma-incidents-resolved-history-2019.json"), ctx);
  equal(snap.incidents.length, 22);
  const first = snap.incidents[0]!;
  equal(first.impact, "NONE");
  equal(first.startedAt, Date.UTC(2019, 1, 20, 18, 0, 19, 418), "-06:00 read as UTC+6h");
  equal(first.url, "http://stspg.io/7a0d3a4d2");
  deepStrictEqual(first.updates.map((u) => u.status), [
    "INVESTIGATING",
    "IDENTIFIED",
    "MONITORING",
    "RESOLVED",
  ]);
  const backfilled = snap.incidents.find((i) => i.externalId === "272vrysp78ds")!;
  deepStrictEqual(backfilled.updates.map((u) => [u.status, u.at]), [
    ["IDENTIFIED", Date.UTC(2017, 5, 12, 21, 45)],
    ["INVESTIGATING", Date.UTC(2017, 5, 12, 21, 52)],
    ["RESOLVED", Date.UTC(2017, 5, 12, 21, 53)],
  ]);
  deepStrictEqual(backfilled.componentIds, [], "the 'No components were affected' placeholder");
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: component ids come from affected_components when components is absent", () => {
  const { ctx } = context("https://www.cloudflarestatus.com", "2019-01-10T20:11:38.750Z");
  const snap = statuspage.parse(read("cloudflare-incidents-resolved-2019-trimmed.json"), ctx);
  equal(snap.incidents.length, 2);
  const api = snap.incidents[0]!;
  equal(api.impact, "MINOR");
  equal(api.startedAt, Date.UTC(2018, 8, 17, 19, 29, 21, 132), "no started_at: created_at");
  deepStrictEqual(api.componentIds, ["g4tb35rs9yw7"]);
  equal(api.updates.length, 4);

  const gh = statuspage.parse(read("github-incidents-resolved-2024-trimmed.json"), github().ctx);
  deepStrictEqual(gh.incidents[0]!.componentIds, ["br0l2tvcx85d", "vg70hn9s2tyj"]);
  ok(gh.incidents[1]!.updates.some((u) => u.body.includes("<br />")), "body kept as published");
  equal(gh.incidents[1]!.updates.length, 6);
});

Deno.test("statuspage parse: scheduled-maintenances.json maps maintenance words and impact", () => {
  const { ctx, unknown } = context("https://status.claude.com", "2026-09-15T11:14:48.639Z");
  const snap = statuspage.parse(read("claude-scheduled-maintenances-completed.json"), ctx);
  equal(snap.incidents.length, 2);
  const m = snap.incidents[0]!;
  equal(m.status, "COMPLETED");
  equal(m.impact, "MAINTENANCE");
  equal(m.startedAt, Date.UTC(2025, 7, 29, 1, 25), "scheduled_for");
  equal(m.scheduledStartAt, Date.UTC(2025, 7, 29, 1, 25), "scheduled_for is the planned start");
  equal(m.scheduledEndAt, Date.UTC(2025, 7, 29, 2, 40), "scheduled_until is the planned end");
  deepStrictEqual(
    [snap.incidents[1]!.scheduledStartAt, snap.incidents[1]!.scheduledEndAt],
    [Date.UTC(2024, 11, 15, 1, 0), Date.UTC(2024, 11, 15, 1, 30)],
  );
  equal(m.resolvedAt, Date.UTC(2025, 7, 29, 2, 40, 21, 277));
  deepStrictEqual(m.updates.map((u) => u.status), [
    "SCHEDULED",
    "IN_PROGRESS",
    "IN_PROGRESS",
    "COMPLETED",
  ]);
  equal(snap.indicator, "OPERATIONAL");
  deepStrictEqual(unknown, []);
});

Deno.test("statuspage parse: in the summary, in-progress and scheduled maintenances are kept, completed dropped", () => {
  const maintenance = (id: string, status: string) => ({
    id,
    name: `Maintenance ${id}`,
    status,
    impact: "maintenance",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-02T01:00:00.000Z",
    scheduled_for: "2026-01-02T00:00:00.000Z",
    scheduled_until: "2026-01-02T02:00:00.000Z",
    shortlink: null,
    incident_updates: [{
      id: `${id}u`,
      status,
      body: "Work",
      created_at: "2026-01-02T01:00:00.000Z",
      display_at: "2026-01-02T01:00:00.000Z",
    }],
  });
  const { ctx } = context("https://status.example.com", "2026-01-02T01:00:00.000Z");
  const snap = statuspage.parse(
    summary({
      status: { indicator: "maintenance" },
      scheduled_maintenances: [
        maintenance("a", "in_progress"),
        maintenance("b", "scheduled"),
        maintenance("c", "completed"),
      ],
    }),
    ctx,
  );
  equal(snap.indicator, "UNDER_MAINTENANCE");
  deepStrictEqual(snap.incidents.map((i) => [i.externalId, i.status, i.impact]), [
    ["a", "IN_PROGRESS", "MAINTENANCE"],
    ["b", "SCHEDULED", "MAINTENANCE"],
  ]);
  equal(snap.incidents[0]!.url, "https://status.example.com/incidents/a", "no shortlink");
});

Deno.test("statuspage mapping tables: every row", () => {
  const { ctx } = github();
  for (const [raw, level] of Object.entries(INDICATOR)) {
    equal(statuspage.parse(summary({ status: { indicator: raw } }), ctx).indicator, level, raw);
  }
  for (const [raw, level] of Object.entries(COMPONENT_STATUS)) {
    const snap = statuspage.parse(
      summary({ components: [{ id: "c", name: "C", status: raw, group: false }] }),
      ctx,
    );
    equal(snap.components[0]!.status, level, raw);
  }
  const incident = (status: string, impact: string) => ({
    id: "i",
    name: "I",
    status,
    impact,
    created_at: "2026-01-01T00:00:00Z",
    incident_updates: [{ id: "u", status, body: "b", created_at: "2026-01-01T00:00:00Z" }],
  });
  for (const [raw, status] of Object.entries(INCIDENT_STATUS)) {
    const inc = statuspage.parse(summary({ incidents: [incident(raw, "minor")] }), ctx)
      .incidents[0]!;
    equal(inc.status, status, raw);
    equal(inc.updates[0]!.status, status, raw);
  }
  for (const [raw, impact] of Object.entries(IMPACT)) {
    const inc = statuspage.parse(summary({ incidents: [incident("identified", raw)] }), ctx)
      .incidents[0]!;
    equal(inc.impact, impact, raw);
  }
  for (const [raw, status] of Object.entries(MAINTENANCE_STATUS)) {
    const snap = statuspage.parse(
      JSON.stringify({ scheduled_maintenances: [incident(raw, "maintenance")] }),
      ctx,
    );
    equal(snap.incidents[0]!.status, status, raw);
  }
});

Deno.test("statuspage parse: unknown values read UNKNOWN (or a safe default) and are reported", () => {
  const { ctx, unknown } = github();
  const snap = statuspage.parse(
    summary({
      status: { indicator: "apocalyptic" },
      components: [{ id: "c", name: "C", status: "on_fire", group: false }],
      incidents: [{
        id: "i",
        name: "I",
        status: "pondering",
        impact: "huge",
        created_at: "2026-01-01T00:00:00Z",
        incident_updates: [],
      }],
    }),
    ctx,
  );
  equal(snap.indicator, "UNKNOWN");
  equal(snap.components[0]!.status, "UNKNOWN");
  equal(snap.incidents[0]!.status, "INVESTIGATING", "an unknown incident status stays open");
  equal(snap.incidents[0]!.impact, "NONE");
  deepStrictEqual(unknown, [
    ["component.status", "on_fire"],
    ["incident.status", "pondering"],
    ["incident.impact", "huge"],
    ["status.indicator", "apocalyptic"],
  ]);
});

Deno.test("statuspage parse: an HTML 504 page is a PayloadError, not a crash", () => {
  const { ctx } = github();
  throws(
    () => statuspage.parse(read("cloudflare-error-504-gateway-timeout.html"), ctx),
    (e: unknown) =>
      e instanceof PayloadError && e.path === "$" && e.platform === "statuspage" &&
      /not JSON.*<html>/.test(e.message),
  );
});

Deno.test("statuspage parse: malformed payloads name the offending path", () => {
  const { ctx } = github();
  const cases: [string, string][] = [
    ["{", "$"],
    ["[]", "$"],
    ["{}", "$"],
    [summary({ status: { indicator: 3 } }), "status.indicator"],
    [summary({ incidents: "none" }), "incidents"],
    [summary({ components: { id: "c" } }), "components"],
  ];
  for (const [body, path] of cases) {
    throws(
      () => statuspage.parse(body, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path,
      `${body} → ${path}`,
    );
  }
});

Deno.test("statuspage parse: a component without status is dropped with a note, the rest is read", () => {
  const { ctx, dropped } = github();
  const doc = jsonFixture("statuspage", "github-summary-partial-outage-investigating.json");
  delete doc.components[2].status; // Webhooks
  const snap = statuspage.parse(JSON.stringify(doc), ctx);
  equal(snap.components.length, 10);
  ok(!snap.components.some((c) => c.name === "Webhooks"));
  equal(snap.components.find((c) => c.name === "Packages")?.status, "PARTIAL_OUTAGE");
  equal(snap.incidents.length, 1);
  deepStrictEqual(dropped, [
    "components[2].status: missing",
  ]);
});

Deno.test("statuspage parse: an incident without created_at is dropped, the others are read", () => {
  const { ctx, dropped } = context("https://status.claude.com", "2026-01-01T00:00:00Z");
  const doc = jsonFixture(
    "statuspage",
    "claude-incidents-major-resolved-reminder-intervals-string.json",
  );
  delete doc.incidents[1].created_at;
  const snap = statuspage.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.incidents.map((i) => i.externalId), ["6304r9jjhj34", "t33dncr5ydvl"]);
  equal(dropped.length, 1);
  ok(dropped[0]!.startsWith("incidents[1].created_at: "), dropped[0]);
});

Deno.test("statuspage parse: a malformed incident update is dropped, its incident kept", () => {
  const { ctx, dropped } = github();
  const doc = jsonFixture("statuspage", "github-summary-partial-outage-investigating.json");
  doc.incidents[0].incident_updates[0].created_at = "yesterday";
  const snap = statuspage.parse(JSON.stringify(doc), ctx);
  equal(snap.incidents.length, 1);
  equal(snap.incidents[0]!.updates.length, 6);
  deepStrictEqual(dropped, [
    'incidents[0].incident_updates[0].created_at: not a timestamp: "yesterday" (found string "yesterday")',
  ]);
});
