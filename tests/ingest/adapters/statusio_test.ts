import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { serviceStatus } from "../../../domain/mod.ts";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  INCIDENT_STATE,
  MAINTENANCE_STATE,
  MESSAGE_IMPACT,
  STATUS_CODE,
  statusio,
} from "../../../ingest/adapters/statusio.ts";
import { fixture, jsonFixture, parseContext } from "../../support/adapters.ts";

const read = (name: string) => fixture("statusio", name);

const NINTEX = "https://status.nintex.com/pages/566925105401bb333d000014";

const context = (fetchedAt: string, page = NINTEX) => parseContext(page, fetchedAt);

/** A body in the documented shape (kb.status.io public status API). */
function body(result: Record<string, unknown>): string {
  return JSON.stringify({
    result: {
      status_overall: {
        updated: "2026-01-01T00:00:00.000Z",
        status: "Operational",
        status_code: 100,
      },
      status: [],
      incidents: [],
      maintenance: { active: [], upcoming: [] },
      ...result,
    },
  });
}
const event = (messages: Record<string, unknown>[], over: Record<string, unknown> = {}) => ({
  _id: "e1",
  name: "Event",
  datetime_open: "2026-01-01T00:00:00.000Z",
  current_active: true,
  messages,
  containers_affected: [],
  components_affected: [],
  ...over,
});
const msg = (state: number, status: number, datetime = "2026-01-01T00:00:00.000Z") => ({
  details: "d",
  state,
  status,
  datetime,
});

Deno.test("status.io endpoint: the public API for the page id in the status page URL", () => {
  equal(
    statusio.endpoint({ statusPageUrl: NINTEX, slug: "nintex" }).href,
    "https://api.status.io/1.0/status/566925105401bb333d000014",
  );
  equal(
    statusio.endpoint({
      statusPageUrl: "https://status.nintex.com/1.0/status/566925105401bb333d000014",
      slug: "nintex",
    }).href,
    "https://status.nintex.com/1.0/status/566925105401bb333d000014",
  );
  equal(
    statusio.endpoint({ statusPageUrl: "https://dynatrace.status.io", slug: "dynatrace" }).href,
    "https://dynatrace.status.io/",
    "no id: the page itself (discovery finds the API; parse refuses a page with a hint)",
  );
});

Deno.test("status.io discovery: needed only when the status page URL carries no page id", () => {
  const needed = (statusPageUrl: string) =>
    statusio.discovery!.needed({ statusPageUrl, slug: "x" });
  equal(needed(NINTEX), false);
  equal(needed("https://status.nintex.com/1.0/status/566925105401bb333d000014"), false);
  equal(needed("https://status.gitlab.com"), true);
  equal(needed("https://www.dockerstatus.com/"), true);
  equal(needed("https://dynatrace.status.io"), true);
});

// No real status.io page HTML is recorded (tests/fixtures, shared/fixtures): these snippets are
// built for the test from the documented embeds (FORMATS.md §4: an
// `https://api.status.io/1.0/status/<id>` URL, or the id near `statuspage_id`).
const ID = "566925105401bb333d000014";
const API = `https://api.status.io/1.0/status/${ID}`;
const find = (html: string, page = "https://status.gitlab.com/") =>
  statusio.discovery!.find(html, new URL(page))?.href ?? null;

Deno.test("status.io discovery: the API URL embedded in the page", () => {
  equal(find(`<script src="${API}"></script>`), API);
  equal(find(`<script>fetch("//api.status.io/1.0/status/${ID}")</script>`), API);
  equal(find(`<script>var u = 'api.status.io/1.0/status/${ID}';</script>`), API);
  equal(
    find(`<script>{"api":"https:\\/\\/api.status.io\\/1.0\\/status\\/${ID}"}</script>`),
    API,
    "JSON-escaped slashes",
  );
  equal(find(`<script>\nvar statuspage_id = "${ID}";\n</script>`), API);
  equal(find(`<div data-statuspageid='${ID}'></div>`), API);
});

Deno.test("status.io discovery: the page's own origin is kept, any other host only lends its id", () => {
  equal(
    find(`<a href="/1.0/status/${ID}">API</a>`, "https://status.nintex.com/"),
    `https://status.nintex.com/1.0/status/${ID}`,
    "root-relative: a custom domain serving the same API",
  );
  equal(
    find(
      `<script src="http://127.0.0.1:8080/v/acme/1.0/status/${ID}?x=1"></script>`,
      "http://127.0.0.1:8080/v/acme",
    ),
    `http://127.0.0.1:8080/v/acme/1.0/status/${ID}`,
    "same origin, absolute, query dropped",
  );
  equal(
    find(`<script src="https://evil.example/1.0/status/${ID}"></script>`),
    API,
    "a third host is not followed",
  );
});

Deno.test("status.io discovery: null when the page names no page id", () => {
  equal(find("<html><body>Gateway Timeout</body></html>"), null);
  equal(
    find(`<a href="https://api.status.io/1.0/status/566925105401bb333d00001">short id</a>`),
    null,
  );
  equal(find(`<p>statuspage_id: none</p>`), null);
});

Deno.test("status.io parse: docs example, all operational", () => {
  const { ctx, unknown } = context("2016-01-29T22:57:03.079Z");
  const snap = statusio.parse(read("statusio-docs-example-operational.json"), ctx);
  deepStrictEqual(snap, {
    indicator: "OPERATIONAL",
    components: [{
      externalId: "56a807c7b62d59d808000010",
      name: "Website",
      group: null,
      status: "OPERATIONAL",
    }],
    incidents: [],
  });
  deepStrictEqual(unknown, []);
});

Deno.test("status.io parse: Nintex all operational, 27 components", () => {
  const { ctx } = context("2026-04-15T06:34:18.642Z");
  const snap = statusio.parse(read("nintex-status-operational.json"), ctx);
  equal(snap.indicator, "OPERATIONAL");
  equal(snap.components.length, 27);
  equal(snap.components[4]!.name, "Nintex Workflow for Office 365 -  Store");
  deepStrictEqual(snap.incidents, []);
});

Deno.test("status.io parse: overall 100 while an incident is current_active (listed, not raising)", () => {
  const { ctx, unknown } = context("2026-04-29T16:59:58.694Z");
  const snap = statusio.parse(read("nintex-status-incident-monitoring.json"), ctx);
  equal(snap.indicator, "OPERATIONAL");
  equal(serviceStatus(snap), "OPERATIONAL");
  equal(snap.incidents.length, 1);
  const inc = snap.incidents[0]!;
  equal(inc.externalId, "69f236c044970a0506e59c9e");
  equal(inc.title, "NA1 and CAN1 Regions - Status Endpoint Issues");
  equal(inc.status, "MONITORING");
  equal(inc.impact, "MAJOR", "peak message status 400");
  equal(inc.startedAt, Date.UTC(2026, 3, 29, 16, 50, 8, 970));
  equal(inc.updatedAt, Date.UTC(2026, 3, 29, 16, 59, 58, 558));
  equal(inc.resolvedAt, null);
  deepStrictEqual(inc.componentIds, ["59f90b7550230b4d0f0a5305"]);
  deepStrictEqual(inc.updates.map((u) => u.status), ["INVESTIGATING", "MONITORING"]);
  equal(
    inc.url,
    "https://status.io/pages/incident/566925105401bb333d000014/69f236c044970a0506e59c9e",
    "status.io's page of the incident, as its feeds link it",
  );
  deepStrictEqual(unknown, []);
});

Deno.test("status.io parse: links take the page id from the API URL read when the page URL has none", () => {
  const body = read("nintex-status-planned-maintenance-no-incidents-key.json");
  const { ctx } = context("2026-06-30T23:01:43.387Z", "https://status.nintex.com/");
  deepStrictEqual(statusio.parse(body, ctx).incidents.map((i) => i.url), [null, null, null]);
  const withApi = {
    ...ctx,
    documentUrl: new URL("https://status.nintex.com/1.0/status/566925105401bb333d000014"),
  };
  equal(
    statusio.parse(body, withApi).incidents[0]!.url,
    "https://status.io/pages/maintenance/566925105401bb333d000014/6a42fa8376286d0608722f9b",
  );
});

Deno.test("status.io parse: planned maintenance, a component raised by one container", () => {
  const { ctx, unknown } = context("2026-06-30T23:01:43.387Z");
  const snap = statusio.parse(read("nintex-status-planned-maintenance-no-incidents-key.json"), ctx);
  equal(snap.indicator, "UNDER_MAINTENANCE");
  equal(snap.components.length, 20);
  equal(snap.components.find((c) => c.name === "Nintex DocGen API")!.status, "UNDER_MAINTENANCE");
  equal(snap.incidents.length, 3);
  const active = snap.incidents[0]!;
  equal(active.status, "IN_PROGRESS");
  equal(active.impact, "MAINTENANCE");
  equal(active.startedAt, Date.UTC(2026, 5, 30, 23), "planned start");
  deepStrictEqual(
    [active.scheduledStartAt, active.scheduledEndAt],
    [Date.UTC(2026, 5, 30, 23), Date.UTC(2026, 6, 1, 3)],
    "datetime_planned_start and datetime_planned_end",
  );
  deepStrictEqual(active.updates.map((u) => [u.status, u.at]), [
    ["SCHEDULED", Date.UTC(2026, 5, 29, 23, 6, 43, 77)],
    ["IN_PROGRESS", Date.UTC(2026, 5, 30, 23, 1, 43, 284)],
  ]);
  ok(active.updates[0]!.body.includes("\r\n"), "details kept as published");
  deepStrictEqual(snap.incidents.slice(1).map((m) => m.status), ["SCHEDULED", "SCHEDULED"]);
  deepStrictEqual(unknown, []);
});

Deno.test("status.io parse: service disruption, component at its worst container", () => {
  const { ctx } = context("2026-05-21T05:32:42.376Z");
  const snap = statusio.parse(read("nintex-status-service-disruption-no-incidents-key.json"), ctx);
  equal(snap.indicator, "MAJOR_OUTAGE");
  equal(snap.components.find((c) => c.name === "Nintex Automation Cloud")!.status, "MAJOR_OUTAGE");
  equal(snap.components.find((c) => c.name === "Nintex K2 Cloud")!.status, "UNDER_MAINTENANCE");
  equal(serviceStatus(snap), "MAJOR_OUTAGE");
  deepStrictEqual(snap.incidents.map((i) => i.status), ["IN_PROGRESS", "SCHEDULED"]);
});

Deno.test("status.io: a container worse than its component raises the component", () => {
  const { ctx } = context("2026-01-01T00:00:00Z");
  const snap = statusio.parse(
    body({
      status: [{
        id: "c",
        name: " Padded ",
        status_code: 100,
        containers: [{ id: "r", name: "EU", status_code: 400 }],
      }],
    }),
    ctx,
  );
  deepStrictEqual(snap.components[0], {
    externalId: "c",
    name: "Padded",
    group: null,
    status: "PARTIAL_OUTAGE",
  });
});

Deno.test("status.io mapping tables: every row", () => {
  const { ctx } = context("2026-01-01T00:00:00Z");
  for (const [raw, level] of Object.entries(STATUS_CODE)) {
    const snap = statusio.parse(
      body({
        status_overall: { status_code: Number(raw) },
        status: [{ id: "c", name: "C", status_code: Number(raw), containers: [] }],
      }),
      ctx,
    );
    equal(snap.indicator, level, raw);
    equal(snap.components[0]!.status, level, raw);
  }
  for (const [raw, impact] of Object.entries(MESSAGE_IMPACT)) {
    const snap = statusio.parse(body({ incidents: [event([msg(100, Number(raw))])] }), ctx);
    equal(snap.incidents[0]!.impact, impact, raw);
  }
  for (const [raw, status] of Object.entries(INCIDENT_STATE)) {
    const snap = statusio.parse(body({ incidents: [event([msg(Number(raw), 300)])] }), ctx);
    equal(snap.incidents[0]!.status, status, raw);
    equal(snap.incidents[0]!.updates[0]!.status, status, raw);
  }
  for (const [raw, status] of Object.entries(MAINTENANCE_STATE)) {
    const snap = statusio.parse(
      body({ maintenance: { active: [event([msg(Number(raw), 200)])], upcoming: [] } }),
      ctx,
    );
    equal(snap.incidents[0]!.updates[0]!.status, status, raw);
  }
  const closed = statusio.parse(
    body({
      incidents: [event([msg(300, 100, "2026-01-01T01:00:00.000Z")], { current_active: false })],
    }),
    ctx,
  ).incidents[0]!;
  equal(closed.status, "RESOLVED", "current_active false");
  equal(closed.resolvedAt, Date.UTC(2026, 0, 1, 1));
});

Deno.test("status.io parse: unknown codes read UNKNOWN and are reported", () => {
  const { ctx, unknown } = context("2026-01-01T00:00:00Z");
  const snap = statusio.parse(
    body({
      status_overall: { status_code: 700 },
      status: [{ id: "c", name: "C", status_code: 150, containers: [] }],
      incidents: [event([msg(400, 800)])],
    }),
    ctx,
  );
  equal(snap.indicator, "UNKNOWN");
  equal(snap.components[0]!.status, "UNKNOWN");
  equal(snap.incidents[0]!.status, "INVESTIGATING");
  equal(snap.incidents[0]!.impact, "NONE");
  deepStrictEqual(unknown.map((u) => u.join("=")).sort(), [
    "component.status_code=150",
    "incident_message.state=400",
    "message.status=800",
    "status_overall.status_code=700",
  ]);
});

Deno.test("status.io parse: the page HTML instead of the API names the page id to configure", () => {
  const { ctx } = context("2026-01-01T00:00:00Z");
  // Built for this test: a page fragment with the API link status.io pages embed (FORMATS §4).
  const page = `<!DOCTYPE html><html><head><script>
var statuspage_id = "566925105401bb333d000014";
</script></head><body></body></html>`;
  throws(
    () => statusio.parse(page, ctx),
    (e: unknown) =>
      e instanceof PayloadError && e.path === "$" &&
      e.message.includes("https://api.status.io/1.0/status/566925105401bb333d000014"),
  );
  throws(
    () => statusio.parse("<html><body>Gateway Timeout</body></html>", ctx),
    (e: unknown) => e instanceof PayloadError && /no status.io page id/.test(e.message),
  );
});

Deno.test("status.io parse: malformed payloads name the offending path", () => {
  const { ctx } = context("2026-01-01T00:00:00Z");
  const cases: [string, string][] = [
    ["<html>502</html>", "$"],
    ['{"result":', "$"],
    ["{}", "result"],
    [body({ status_overall: { status_code: "100" } }), "result.status_overall.status_code"],
    [body({ status: { id: "c" } }), "result.status"],
    [body({ incidents: "none" }), "result.incidents"],
  ];
  for (const [text, path] of cases) {
    throws(
      () => statusio.parse(text, ctx),
      (e: unknown) => e instanceof PayloadError && e.path === path && e.platform === "statusio",
      `${text} → ${path}`,
    );
  }
});

Deno.test("status.io parse: a malformed component or message is dropped with a note, the rest read", () => {
  const { ctx, dropped } = context("2026-01-01T00:00:00Z");
  const doc = jsonFixture("statusio", "nintex-status-incident-monitoring.json");
  const whole = statusio.parse(JSON.stringify(doc), ctx);
  delete doc.result.status[0].name;
  doc.result.incidents[0].messages[0].datetime = "2026-13-01T00:00:00Z";
  const snap = statusio.parse(JSON.stringify(doc), ctx);
  deepStrictEqual(snap.components, whole.components.slice(1));
  equal(snap.incidents.length, 1);
  equal(snap.incidents[0]!.updates.length, whole.incidents[0]!.updates.length - 1);
  deepStrictEqual(dropped.toSorted(), [
    'result.incidents[0].messages[0].datetime: not a timestamp: "2026-13-01T00:00:00Z" (found string "2026-13-01T00:00:00Z")',
    "result.status[0].name: missing",
  ]);
});
