import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  cachet,
  cachetEndpointFromPage,
  cachetUpdates,
  COMPONENT_STATUS,
  INCIDENT_STATUS,
} from "../../../ingest/adapters/cachet.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("cachet", name);

const context = parseContext;

const demo = () => context("https://status.example.com", "2017-01-06T02:27:32Z");

/** A 2.x list body (the documented Fractal envelope). */
const list = (data: unknown[]) =>
  JSON.stringify({ meta: { pagination: { total: data.length, per_page: "20" } }, data });
const component = (status: number, over: Record<string, unknown> = {}) => ({
  id: 1,
  name: "API",
  status,
  group_id: 0,
  enabled: true,
  created_at: "2017-01-05 16:52:00",
  updated_at: "2017-01-06 02:27:32",
  ...over,
});
const incident = (status: number) => ({
  id: 9,
  component_id: 0,
  name: "Slow",
  status,
  message: "m",
  created_at: "2015-08-01 12:00:00",
  updated_at: "2015-08-01 13:00:00",
  scheduled_at: "2015-08-02 00:00:00",
  human_status: "x",
});

Deno.test("cachet endpoint is the page's components API", () => {
  equal(
    cachet.endpoint({ statusPageUrl: "https://status.example.com", slug: "x" }).href,
    "https://status.example.com/api/v1/components?per_page=100",
  );
});

Deno.test("cachet parse: 2.x components list, one Operational component", () => {
  const { ctx, unknown } = demo();
  const snap = cachet.parse(read("cachet-v2-components-list-operational.json"), ctx);
  deepStrictEqual(snap, {
    indicator: "OPERATIONAL",
    components: [{
      externalId: "1",
      name: "Example",
      group: null,
      status: "OPERATIONAL",
      groupRef: "1",
    }],
    incidents: [],
  });
  deepStrictEqual(unknown, []);
});

Deno.test("cachet parse: 2.x names groups by id only (the poller reads their names); same-named components stay apart", () => {
  const { ctx, dropped } = demo();
  cachet.parse(read("cachet-v2-components-list-operational.json"), ctx);
  deepStrictEqual(dropped, [], "no note: the poller fills the names");
  // The recorded component twice more, in two other groups, and once ungrouped.
  const recorded = jsonFixture("cachet", "cachet-v2-components-list-operational.json");
  const base = recorded.data[0];
  const body = JSON.stringify({
    ...recorded,
    data: [
      base,
      { ...base, id: 2, group_id: 2, status: 4 },
      { ...base, id: 3, group_id: 0 },
      { ...base, id: 4, name: "Other", group_id: 2 },
    ],
  });
  const snap = cachet.parse(body, demo().ctx);
  deepStrictEqual(snap.components.map((c) => [c.externalId, c.name, c.status, c.groupRef]), [
    ["1", "Example (group 1)", "OPERATIONAL", "1"],
    ["2", "Example (group 2)", "MAJOR_OUTAGE", "2"],
    ["3", "Example", "OPERATIONAL", undefined],
    ["4", "Other", "OPERATIONAL", "2"],
  ]);
  // The groups document, in 2.x's list envelope (a malformed group is left out).
  const groups = cachet.groupNames!;
  deepStrictEqual(
    [...groups.parse(JSON.stringify({
      meta: {},
      data: [{ id: 1, name: " Websites ", order: 0 }, { id: "2", name: "APIs" }, { id: 3 }],
    }))],
    [["1", "Websites"], ["2", "APIs"]],
  );
  equal(
    groups.endpoint(new URL("https://status.acme.test/api/v1/components?per_page=100")).href,
    "https://status.acme.test/api/v1/components/groups?per_page=100",
  );
});

Deno.test("cachet parse: pre-1.0 components with a display string and status_id", () => {
  const { ctx, unknown } = demo();
  const snap = cachet.parse(read("cachet-v0-docs-components-mixed.json"), ctx);
  deepStrictEqual(snap.components.map((c) => [c.externalId, c.name, c.status]), [
    ["5", "Example Component", "OPERATIONAL"],
    ["2", "Second Example Components", "MAJOR_OUTAGE"],
  ]);
  equal(serviceStatus(snap), "MAJOR_OUTAGE");
  deepStrictEqual(unknown, []);
});

Deno.test("cachet parse: incidents lists (2.x SQL times as UTC, pre-1.0 epoch seconds)", () => {
  const { ctx } = demo();
  const v2 = cachet.parse(read("cachet-v2-incidents-list-fixed.json"), ctx);
  equal(v2.indicator, "UNKNOWN", "an incidents list carries no level");
  deepStrictEqual(v2.incidents, [{
    externalId: "1",
    title: "Incident Name",
    status: "RESOLVED",
    impact: "NONE",
    startedAt: Date.UTC(2015, 7, 1, 12),
    updatedAt: Date.UTC(2015, 7, 1, 12),
    resolvedAt: Date.UTC(2015, 7, 1, 12),
    url: "https://status.example.com/incidents/1",
    componentIds: [],
    updates: [],
  }]);
  const v0 = cachet.parse(read("cachet-v0-docs-incidents-investigating-and-fixed.json"), ctx);
  deepStrictEqual(v0.incidents.map((i) => [i.externalId, i.status, i.startedAt, i.resolvedAt]), [
    ["6", "INVESTIGATING", 1420036705000, null],
    ["7", "RESOLVED", 1420038898000, 1420038898000],
  ]);
});

Deno.test("cachet updates: timelines per incident, oldest first", () => {
  const { ctx, unknown } = demo();
  const byIncident = cachetUpdates(read("cachet-v2-incident-updates-timeline.json"), ctx);
  deepStrictEqual([...byIncident.keys()], ["2", "1"]);
  const one = byIncident.get("1")!;
  deepStrictEqual(one.map((u) => u.status), ["IDENTIFIED", "MONITORING", "RESOLVED"]);
  equal(one[0]!.at, Date.UTC(2016, 11, 5, 19, 37, 20));
  equal(one[2]!.body, "The monkeys are back and rested!");
  deepStrictEqual(byIncident.get("2")!.map((u) => u.status), ["MONITORING"]);
  deepStrictEqual(unknown, []);
  throws(
    () => cachet.parse(read("cachet-v2-incident-updates-timeline.json"), ctx),
    (e: unknown) => e instanceof PayloadError && e.path === "data[0].incident_id",
  );
});

Deno.test("cachet mapping tables: every row", () => {
  const { ctx, unknown } = demo();
  for (const [raw, level] of Object.entries(COMPONENT_STATUS)) {
    equal(cachet.parse(list([component(Number(raw))]), ctx).components[0]!.status, level, raw);
    const v3 = JSON.stringify({
      data: [{
        id: "1",
        type: "components",
        attributes: { name: "API", status: { human: "x", value: Number(raw) }, enabled: true },
      }],
    });
    equal(cachet.parse(v3, ctx).components[0]!.status, level, `3.x ${raw}`);
  }
  for (const [raw, status] of Object.entries(INCIDENT_STATUS)) {
    const inc = cachet.parse(list([incident(Number(raw))]), ctx).incidents[0]!;
    equal(inc.status, status, raw);
    equal(inc.impact, status === "SCHEDULED" ? "MAINTENANCE" : "NONE", raw);
  }
  deepStrictEqual(unknown, [], "0 is Cachet's own Unknown, not an unmapped value");
  const scheduled = cachet.parse(list([incident(0)]), ctx).incidents[0]!;
  equal(scheduled.startedAt, Date.UTC(2015, 7, 2), "scheduled_at");
});

Deno.test("cachet parse: disabled components are skipped; an empty list knows nothing", () => {
  const { ctx } = demo();
  const snap = cachet.parse(
    list([component(4, { enabled: false }), component(2, { id: 2, name: "Web" })]),
    ctx,
  );
  deepStrictEqual(snap.components.map((c) => c.name), ["Web"]);
  equal(snap.indicator, "DEGRADED_PERFORMANCE");
  deepStrictEqual(cachet.parse(list([]), ctx), {
    indicator: "UNKNOWN",
    components: [],
    incidents: [],
  });
});

Deno.test("cachet parse: unknown codes read UNKNOWN and are reported", () => {
  const { ctx, unknown } = demo();
  equal(cachet.parse(list([component(7)]), ctx).components[0]!.status, "UNKNOWN");
  equal(cachet.parse(list([incident(9)]), ctx).incidents[0]!.status, "INVESTIGATING");
  deepStrictEqual(unknown, [["component.status", "7"], ["incident.status", "9"]]);
});

Deno.test("cachet parse: malformed payloads name the offending path", () => {
  const { ctx } = demo();
  const cases: [string, string][] = [
    ["<html><title>404</title></html>", "$"],
    [JSON.stringify({ data: {} }), "data"],
    [JSON.stringify({ components: [] }), "data"],
  ];
  for (const [body, path] of cases) {
    throws(
      () => cachet.parse(body, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path && e.platform === "cachet",
      `${body} → ${path}`,
    );
  }
});

Deno.test("cachet parse: a malformed 2.x item is dropped with a note, the others are read", () => {
  const { ctx, dropped } = demo();
  const doc = jsonFixture("cachet", "cachet-v0-docs-components-mixed.json");
  delete doc.data[1].status_id;
  const snap = cachet.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.components.map((c) => c.externalId), ["5"]);
  equal(snap.indicator, "OPERATIONAL");
  deepStrictEqual(dropped, ["data[1].status_id: missing"]);

  const incidents = jsonFixture("cachet", "cachet-v0-docs-incidents-investigating-and-fixed.json");
  incidents.data[0].created_at = "01/08/2015";
  const read = cachet.parse(JSON.stringify(incidents), ctx);
  deepStrictEqual(read.incidents.map((i) => i.externalId), ["7"]);
  ok(dropped[1]!.startsWith("data[0].created_at: not a timestamp"), dropped[1]);

  const updates = jsonFixture("cachet", "cachet-v2-incident-updates-timeline.json");
  delete updates.data[0].status;
  const byIncident = cachetUpdates(JSON.stringify(updates), ctx);
  equal([...byIncident.values()].flat().length, updates.data.length - 1);
  equal(dropped[2], "data[0].status: missing");
});

Deno.test("cachet 3.x parse: JSON:API components with {human, value} statuses", () => {
  const { ctx, unknown } = demo();
  const snap = cachet.parse(read("cachet-v3-components-RECONSTRUCTED.json"), ctx);
  deepStrictEqual(snap.components, [
    // latest_status (2, incidents applied) wins over the set status (1)
    { externalId: "1", name: "Documentation", group: null, status: "DEGRADED_PERFORMANCE" },
    { externalId: "2", name: "Website", group: null, status: "MAJOR_OUTAGE" },
    { externalId: "3", name: "Blog", group: null, status: "UNDER_MAINTENANCE" },
  ], "the disabled Legacy API is not shown");
  equal(snap.indicator, "MAJOR_OUTAGE");
  equal(serviceStatus(snap), "MAJOR_OUTAGE");
  deepStrictEqual(unknown, []);
});

Deno.test("cachet 3.x parse: the documented incidents list (Investigating, Fixed)", () => {
  const { ctx, unknown } = context("https://v3.cachethq.io", "2024-10-27T09:06:00Z");
  const snap = cachet.parse(read("cachet-v3-docs-incidents-investigating-and-fixed.json"), ctx);
  equal(snap.indicator, "UNKNOWN", "an incidents list carries no level");
  deepStrictEqual(snap.incidents, [{
    externalId: "2",
    title: "Documentation Performance Degradation",
    status: "INVESTIGATING",
    impact: "NONE",
    startedAt: Date.UTC(2024, 9, 27, 8, 31, 59),
    updatedAt: Date.UTC(2024, 9, 27, 8, 31, 59),
    resolvedAt: null,
    url: "https://v3.cachethq.io/incidents/2",
    componentIds: [],
    updates: [],
  }, {
    externalId: "1",
    title: "DNS Provider Outage",
    status: "RESOLVED",
    impact: "NONE",
    startedAt: Date.UTC(2024, 9, 26, 9, 1, 59),
    updatedAt: Date.UTC(2024, 9, 26, 9, 1, 59),
    resolvedAt: Date.UTC(2024, 9, 26, 9, 1, 59),
    url: "https://v3.cachethq.io/incidents/1",
    componentIds: [],
    updates: [],
  }]);
  deepStrictEqual(unknown, []);
});

Deno.test("cachet 3.x parse: a component without a status value is dropped with a note", () => {
  const { ctx, dropped } = demo();
  const doc = jsonFixture("cachet", "cachet-v3-components-RECONSTRUCTED.json");
  delete doc.data[1].attributes.status.value;
  const snap = cachet.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.components.map((c) => c.name), ["Documentation", "Blog"]);
  deepStrictEqual(dropped, ["data[1].attributes.status.value: missing"]);
  const incidents = jsonFixture("cachet", "cachet-v3-docs-incidents-investigating-and-fixed.json");
  incidents.data[1].attributes.created.string = "yesterday";
  deepStrictEqual(
    cachet.parse(JSON.stringify(incidents), ctx).incidents.map((i) => i.title),
    ["Documentation Performance Degradation"],
  );
  ok(dropped[1]!.startsWith("data[1].attributes.created.string: not a timestamp"), dropped[1]);
});

Deno.test("cachet discovery: a 3.x page (assets under vendor/cachethq/cachet/) reads /api/components", () => {
  const vendor = { statusPageUrl: "https://status.example.com", slug: "x" };
  ok(cachet.discovery!.needed(vendor));
  const head = (extra = "") =>
    `<html><head>${extra}<link rel="shortcut icon" href="https://status.example.com/vendor/cachethq/cachet/favicon.ico" /></head></html>`;
  equal(
    cachetEndpointFromPage(head(), new URL("https://status.example.com/")).href,
    "https://status.example.com/api/components?per_page=100",
  );
  // Cachet mounted under a path (CACHET_PATH): og:url gives its root
  equal(
    cachetEndpointFromPage(
      head('<meta property="og:url" content="https://example.com/status" />'),
      new URL("https://example.com/status/incidents"),
    ).href,
    "https://example.com/status/api/components?per_page=100",
  );
  // another host's og:url is not followed
  equal(
    cachetEndpointFromPage(
      head('<meta property="og:url" content="https://evil.example/x" />'),
      new URL("https://status.example.com/"),
    ).href,
    "https://status.example.com/api/components?per_page=100",
  );
});

Deno.test("cachet discovery: a 2.x page (or any other) keeps the 2.x /api/v1/components", () => {
  const page = new URL("https://status.example.com/");
  const v2 = `<footer>Powered by <a href="https://cachethq.io" class="links">Cachet</a>.</footer>`;
  equal(
    cachetEndpointFromPage(v2, page).href,
    cachet.endpoint({ statusPageUrl: page.href, slug: "x" }).href,
  );
  equal(
    cachetEndpointFromPage("<html></html>", page).href,
    "https://status.example.com/api/v1/components?per_page=100",
  );
  // a page URL that is the API itself needs no discovery
  const api = { statusPageUrl: "https://status.example.com/api/components", slug: "x" };
  equal(cachet.discovery!.needed(api), false);
  equal(cachet.endpoint(api).href, "https://status.example.com/api/components?per_page=100");
});
