import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import { COLOUR_LEVEL, herokuAdapter, UPDATE_STATUS } from "../../../ingest/adapters/heroku.ts";
import { fixture } from "../../support/adapters.ts";

const read = (name: string) => fixture("heroku", name);
const ctx = (seen: string[] = []) => ({
  pageUrl: new URL("https://status.heroku.com"),
  fetchedAt: Date.parse("2026-09-23T12:00:00Z"),
  unknownValue: (f: string, v: string) => seen.push(`${f}=${v}`),
});

Deno.test("Heroku v4: green systems and a stale upcoming maintenance → OPERATIONAL", () => {
  const seen: string[] = [];
  const s = herokuAdapter.parse(
    read("heroku-v4-current-status-green-stale-scheduled-PARTIAL.json"),
    ctx(seen),
  );
  equal(s.indicator, "OPERATIONAL");
  deepStrictEqual(s.components.map((c) => [c.name, c.status]), [
    ["Apps", "OPERATIONAL"],
    ["Data", "OPERATIONAL"],
    ["Tools", "OPERATIONAL"],
  ]);
  equal(s.incidents.length, 1);
  const m = s.incidents[0]!;
  equal(m.externalId, "2959");
  equal(m.status, "SCHEDULED");
  equal(m.impact, "MAINTENANCE");
  equal(m.url, "https://status.heroku.com/incidents/2959");
  equal(m.updates.length, 2);
  equal(m.updates[1]!.body, "Maintenance is complete");
  equal(m.updatedAt, Date.parse("2026-07-15T21:23:52.796Z"));
  deepStrictEqual(seen, []);
});

Deno.test("Heroku v3: green current-status, and a resolved issue's timeline", () => {
  const green = herokuAdapter.parse(read("heroku-v3-docs-current-status-green.json"), ctx());
  equal(green.indicator, "OPERATIONAL");
  deepStrictEqual(green.components.map((c) => c.name), ["Production", "Development"]);
  const issue = herokuAdapter.parse(read("heroku-v3-docs-issue-resolved-timeline.json"), ctx());
  equal(issue.indicator, "OPERATIONAL");
  const i = issue.incidents[0]!;
  equal(i.status, "RESOLVED");
  equal(i.title, "Custom Domains: Errors Adding / Updating");
  deepStrictEqual(i.updates.map((u) => u.status), [
    "INVESTIGATING",
    "INVESTIGATING",
    "INVESTIGATING",
    "INVESTIGATING",
    "RESOLVED",
  ]);
  equal(i.startedAt, Date.parse("2012-04-24T14:02:39Z"));
  equal(i.resolvedAt, Date.parse("2012-04-24T15:24:58Z"));
  equal(i.updates[4]!.body.includes("\r"), false);
});

Deno.test("Heroku: a red system is MAJOR_OUTAGE; unknown colours are UNKNOWN", () => {
  const doc = JSON.parse(read("heroku-v4-current-status-green-stale-scheduled-PARTIAL.json"));
  doc.status[1].status = "red";
  equal(herokuAdapter.parse(JSON.stringify(doc), ctx()).indicator, "MAJOR_OUTAGE");
  doc.status[1].status = "purple";
  const seen: string[] = [];
  const s = herokuAdapter.parse(JSON.stringify(doc), ctx(seen));
  equal(s.components[1]!.status, "UNKNOWN");
  equal(s.indicator, "OPERATIONAL");
  deepStrictEqual(seen, ["system status=purple"]);
});

Deno.test("Heroku mapping tables", () => {
  deepStrictEqual(COLOUR_LEVEL, {
    green: "OPERATIONAL",
    yellow: "DEGRADED_PERFORMANCE",
    red: "MAJOR_OUTAGE",
  });
  equal(UPDATE_STATUS.issue, "INVESTIGATING");
  equal(UPDATE_STATUS.update, null);
  equal(UPDATE_STATUS.resolved, "RESOLVED");
  equal(UPDATE_STATUS.scheduled, "SCHEDULED");
});

Deno.test("Heroku: wrong shapes are PayloadErrors naming the path", () => {
  throws(() => herokuAdapter.parse("Service Unavailable", ctx()), PayloadError);
  throws(
    () => herokuAdapter.parse('{"status":[{"system":"Apps"}],"incidents":{}}', ctx()),
    (e) => e instanceof PayloadError && e.path === "$.incidents",
  );
  throws(
    () => herokuAdapter.parse("[]", ctx()),
    (e) => e instanceof PayloadError && e.path === "$",
  );
  equal(
    herokuAdapter.endpoint({ statusPageUrl: "https://status.heroku.com", slug: "heroku" }).href,
    "https://status.heroku.com/api/v4/current-status",
  );
});

Deno.test("Heroku: a malformed system or maintenance is dropped with a note, the rest read", () => {
  const dropped: string[] = [];
  const c = {
    ...ctx(),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const doc = JSON.parse(read("heroku-v4-current-status-green-stale-scheduled-PARTIAL.json"));
  delete doc.status[1].status;
  delete doc.scheduled[0].created_at;
  const s = herokuAdapter.parse(JSON.stringify(doc), c);
  deepStrictEqual(s.components.map((x) => x.name), ["Apps", "Tools"]);
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 0);
  deepStrictEqual(dropped, ["status[1].status: missing", "scheduled[0].created_at: missing"]);
});
