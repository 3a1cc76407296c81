import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  INSTANCE_LEVEL,
  MAINTENANCE_STATUS,
  salesforceAdapter,
  SEVERITY_IMPACT,
} from "../../../ingest/adapters/salesforce.ts";

const body = Deno.readTextFileSync(
  new URL(
    "../../fixtures/salesforce/trust-instance-status-minor-incident-and-maintenance.json",
    import.meta.url,
  ),
);
const ctx = (fetchedAt: string, seen: string[] = []) => ({
  pageUrl: new URL("https://status.salesforce.com/instances/POD114"),
  fetchedAt: Date.parse(fetchedAt),
  unknownValue: (f: string, v: string) => seen.push(`${f}=${v}`),
});

Deno.test("Salesforce instance: MINOR_INCIDENT_NONCORE with an open minor incident and a planned release", () => {
  const seen: string[] = [];
  const s = salesforceAdapter.parse(body, ctx("2023-04-02T05:00:00Z", seen));
  equal(s.indicator, "DEGRADED_PERFORMANCE");
  equal(s.incidents.length, 2);
  const [incident, release] = s.incidents;
  equal(incident!.externalId, "incident-10967");
  equal(incident!.status, "INVESTIGATING"); // its impact has endTime null: ongoing
  equal(incident!.impact, "MINOR");
  equal(incident!.startedAt, Date.parse("2023-04-02T02:38:00.000Z"));
  equal(incident!.updatedAt, Date.parse("2023-04-02T04:19:33.808Z"));
  equal(incident!.updates.length, 2);
  equal(incident!.updates[0]!.at, Date.parse("2023-04-02T03:47:10.212Z")); // oldest first
  // affectsAll: every service of the instance
  deepStrictEqual(incident!.componentIds, [
    "CartService",
    "B2CCore",
    "AccountManager",
    "eCDN",
    "PaymentService",
  ]);
  equal(release!.externalId, "maintenance-636660");
  equal(release!.status, "SCHEDULED");
  equal(release!.impact, "MAINTENANCE");
  equal(release!.startedAt, Date.parse("2023-04-04T06:00:00.000Z"));
  equal(s.components.length, 5);
  equal(s.components.every((c) => c.status === "DEGRADED_PERFORMANCE"), true);
  deepStrictEqual(seen, []);
});

Deno.test("Salesforce: a confirmed maintenance is in progress inside its window, completed after", () => {
  const during = salesforceAdapter.parse(body, ctx("2023-04-04T07:00:00Z"));
  equal(during.incidents[1]!.status, "IN_PROGRESS");
  const after = salesforceAdapter.parse(body, ctx("2023-04-04T12:00:00Z"));
  equal(after.incidents[1]!.status, "COMPLETED");
  equal(after.incidents[1]!.resolvedAt, Date.parse("2023-04-04T11:00:00.000Z"));
});

Deno.test("Salesforce: /incidents/active lists derive the level from impact severity", () => {
  const doc = JSON.parse(body);
  const major = {
    ...doc.Incidents[0],
    IncidentImpacts: [{ ...doc.Incidents[0].IncidentImpacts[0], severity: "major" }],
  };
  const s = salesforceAdapter.parse(JSON.stringify([major]), ctx("2023-04-02T05:00:00Z"));
  equal(s.indicator, "MAJOR_OUTAGE");
  equal(s.incidents[0]!.impact, "CRITICAL");
  equal(salesforceAdapter.parse("[]", ctx("2023-04-02T05:00:00Z")).indicator, "OPERATIONAL");
});

Deno.test("Salesforce mapping tables and unknown values", () => {
  equal(INSTANCE_LEVEL.OK, "OPERATIONAL");
  equal(INSTANCE_LEVEL.MINOR_INCIDENT_CORE, "DEGRADED_PERFORMANCE");
  equal(INSTANCE_LEVEL.MAJOR_INCIDENT_CORE, "MAJOR_OUTAGE");
  equal(INSTANCE_LEVEL.MAJOR_INCIDENT_NONCORE, "PARTIAL_OUTAGE");
  equal(INSTANCE_LEVEL.MAINTENANCE_CORE, "UNDER_MAINTENANCE");
  equal(INSTANCE_LEVEL.INFORMATIONAL_NONCORE, "OPERATIONAL");
  deepStrictEqual(SEVERITY_IMPACT, { minor: "MINOR", major: "CRITICAL" });
  equal(MAINTENANCE_STATUS.confirmed, null);
  equal(MAINTENANCE_STATUS.resolved, "COMPLETED");
  const seen: string[] = [];
  const odd = { ...JSON.parse(body), status: "SOMETHING_NEW" };
  equal(
    salesforceAdapter.parse(JSON.stringify(odd), ctx("2023-04-02T05:00:00Z", seen)).indicator,
    "UNKNOWN",
  );
  deepStrictEqual(seen, ["instance status=SOMETHING_NEW"]);
});

Deno.test("Salesforce: wrong shapes are PayloadErrors; endpoint per instance", () => {
  const c = ctx("2023-04-02T05:00:00Z");
  throws(() => salesforceAdapter.parse("<html/>", c), PayloadError);
  throws(
    () => salesforceAdapter.parse('{"key":"NA1"}', c),
    (e) => e instanceof PayloadError && e.path === "$.status",
  );
  throws(
    () => salesforceAdapter.parse('{"key":"NA1","status":"OK","Incidents":{}}', c),
    (e) => e instanceof PayloadError && e.path === "$.Incidents",
  );
  equal(
    salesforceAdapter.endpoint({
      statusPageUrl: "https://status.salesforce.com/instances/pod114",
      slug: "sfcc",
    }).href,
    "https://api.status.salesforce.com/v1/instances/POD114/status?childProducts=false",
  );
  equal(
    salesforceAdapter.endpoint({
      statusPageUrl: "https://status.salesforce.com",
      slug: "salesforce",
    }).href,
    "https://api.status.salesforce.com/v1/incidents/active",
  );
});

Deno.test("Salesforce: a malformed maintenance or event is dropped with a note, the rest read", () => {
  const dropped: string[] = [];
  const c = {
    ...ctx("2023-04-02T05:00:00Z"),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const whole = salesforceAdapter.parse(body, c);
  const doc = JSON.parse(body);
  delete doc.Maintenances[0].plannedStartTime;
  delete doc.Incidents[0].IncidentEvents[0].createdAt;
  const s = salesforceAdapter.parse(JSON.stringify(doc), c);
  equal(s.indicator, whole.indicator);
  deepStrictEqual(s.incidents.map((i) => i.externalId), ["incident-10967"]);
  equal(s.incidents[0]!.updates.length, 1);
  deepStrictEqual(dropped, [
    "Incidents[0].IncidentEvents[0].createdAt: missing",
    "Maintenances[0].plannedStartTime: missing",
  ]);
  // the active-incidents list reads the same way
  dropped.length = 0;
  const list = salesforceAdapter.parse('[{"id":1,"createdAt":"later"}]', c);
  equal(list.incidents.length, 0);
  equal(dropped[0]!.split(":")[0], "[0].createdAt");
});
