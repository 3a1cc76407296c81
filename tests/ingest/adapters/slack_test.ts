import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  INCIDENT_STATUS,
  PAGE_STATUS,
  slackAdapter,
  TYPE_IMPACT,
} from "../../../ingest/adapters/slack.ts";
import { fixture } from "../../support/adapters.ts";

const read = (name: string) => fixture("slack", name);
const ctx = (seen: string[] = []) => ({
  pageUrl: new URL("https://slack-status.com"),
  fetchedAt: Date.parse("2018-09-08T02:00:00Z"),
  unknownValue: (f: string, v: string) => seen.push(`${f}=${v}`),
});

Deno.test("Slack: ok (docs and live 2026) → OPERATIONAL, nothing listed", () => {
  for (const f of ["slack-docs-current-ok.json", "slack-live-current-ok-2026.json"]) {
    const s = slackAdapter.parse(read(f), ctx());
    equal(s.indicator, "OPERATIONAL", f);
    deepStrictEqual(s.incidents, []);
    deepStrictEqual(s.components, []);
  }
});

Deno.test("Slack: an active incident → PARTIAL_OUTAGE on the page and the service it names", () => {
  const seen: string[] = [];
  const s = slackAdapter.parse(read("slack-docs-current-active-incident.json"), ctx(seen));
  equal(s.indicator, "PARTIAL_OUTAGE");
  equal(s.incidents.length, 1);
  const i = s.incidents[0]!;
  equal(i.externalId, "546");
  equal(i.status, "INVESTIGATING");
  equal(i.impact, "MAJOR");
  equal(i.startedAt, Date.parse("2018-09-07T21:35:00Z")); // 14:35 -07:00
  equal(i.updatedAt, Date.parse("2018-09-08T01:34:15Z"));
  equal(i.url, "https://slack-status.com/2018-09/7dea1cd14cd0f657");
  equal(i.updates.length, 1);
  equal(i.updates[0]!.body.startsWith("Technical Summary:\r\nOn September 7th"), true);
  deepStrictEqual(s.components, [{
    externalId: "Apps/Integrations/APIs",
    name: "Apps/Integrations/APIs",
    group: null,
    status: "PARTIAL_OUTAGE",
  }]);
  deepStrictEqual(seen, []);
});

Deno.test("Slack: outage, notice, maintenance and unknown values", () => {
  const doc = JSON.parse(read("slack-docs-current-active-incident.json"));
  const variant = (type: string, status: string) =>
    JSON.stringify({ ...doc, active_incidents: [{ ...doc.active_incidents[0], type, status }] });
  equal(slackAdapter.parse(variant("outage", "active"), ctx()).indicator, "MAJOR_OUTAGE");
  equal(slackAdapter.parse(variant("notice", "active"), ctx()).indicator, "OPERATIONAL");
  const planned = slackAdapter.parse(variant("incident", "scheduled"), ctx());
  equal(planned.indicator, "OPERATIONAL");
  equal(planned.incidents[0]!.impact, "MAINTENANCE");
  const seen: string[] = [];
  const odd = slackAdapter.parse(variant("meteor", "smouldering"), ctx(seen));
  deepStrictEqual(seen, ["incident status=smouldering", "type=meteor"]);
  equal(odd.indicator, "DEGRADED_PERFORMANCE");
  const unknownPage = slackAdapter.parse('{"status":"weird","active_incidents":[]}', ctx());
  equal(unknownPage.indicator, "UNKNOWN");
});

Deno.test("Slack mapping tables", () => {
  deepStrictEqual(PAGE_STATUS, { ok: "OPERATIONAL", active: "DEGRADED_PERFORMANCE" });
  deepStrictEqual(TYPE_IMPACT, { notice: "NONE", incident: "MAJOR", outage: "CRITICAL" });
  deepStrictEqual(INCIDENT_STATUS, {
    active: "INVESTIGATING",
    resolved: "RESOLVED",
    scheduled: "SCHEDULED",
    completed: "COMPLETED",
    cancelled: "COMPLETED",
  });
});

Deno.test("Slack: wrong shapes are PayloadErrors naming the path", () => {
  throws(() => slackAdapter.parse("<html></html>", ctx()), PayloadError);
  throws(
    () => slackAdapter.parse("{}", ctx()),
    (e) => e instanceof PayloadError && e.path === "$.status",
  );
  throws(
    () => slackAdapter.parse('{"status":"active","active_incidents":{}}', ctx()),
    (e) => e instanceof PayloadError && e.path === "$.active_incidents",
  );
  equal(
    slackAdapter.endpoint({ statusPageUrl: "https://status.slack.com", slug: "slack" }).href,
    "https://slack-status.com/api/v2.0.0/current",
  );
});

Deno.test("Slack: an unreadable active incident is dropped with a note; 'active' still reads degraded", () => {
  const dropped: string[] = [];
  const c = {
    ...ctx(),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const doc = JSON.parse(read("slack-docs-current-active-incident.json"));
  doc.active_incidents[0].date_created = "Monday";
  const s = slackAdapter.parse(JSON.stringify(doc), c);
  equal(s.incidents.length, 0);
  equal(s.indicator, "DEGRADED_PERFORMANCE");
  equal(dropped.length, 1);
  equal(dropped[0]!.split(":")[0], "active_incidents[0].date_created");

  const notes = JSON.parse(read("slack-docs-current-active-incident.json"));
  delete notes.active_incidents[0].notes[0].body;
  const withIncident = slackAdapter.parse(JSON.stringify(notes), c);
  equal(withIncident.incidents.length, 1);
  deepStrictEqual(withIncident.incidents[0]!.updates, []);
  equal(dropped[1], "active_incidents[0].notes[0].body: missing");
});
