import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  DISRUPTION_SEVERITY,
  googleCloudAdapter,
  STATUS_IMPACT,
  UPDATE_STATUS,
} from "../../../ingest/adapters/google_cloud.ts";

const body = Deno.readTextFileSync(
  new URL("../../fixtures/gcp/google-cloud-incidents-resolved-trimmed.json", import.meta.url),
);
const at = (iso: string) => Date.parse(iso);
const ctx = (fetchedAt: string, seen: string[] = []) => ({
  pageUrl: new URL("https://status.cloud.google.com"),
  fetchedAt: at(fetchedAt),
  unknownValue: (f: string, v: string) => seen.push(`${f}=${v}`),
});

Deno.test("Google Cloud: all incidents ended → OPERATIONAL, recent ones kept with timelines", () => {
  const seen: string[] = [];
  const s = googleCloudAdapter.parse(body, ctx("2022-06-20T00:00:00Z", seen));
  // on 2022-06-20 the June 16 outage ended 4 days ago; the later two had not begun yet but are in the file
  equal(s.indicator, "OPERATIONAL");
  const outage = s.incidents.find((i) => i.externalId === "iAgVMxJUfE1J9et7j9KB")!;
  equal(outage.title, "Google Cloud Networking packet loss issue");
  equal(outage.status, "RESOLVED");
  equal(outage.impact, "CRITICAL");
  equal(outage.startedAt, at("2022-06-16T08:11:00Z"));
  // end is earlier than created: the incident was filed after it ended
  equal(outage.resolvedAt, at("2022-06-16T09:44:00Z"));
  equal(outage.updatedAt, at("2022-06-17T00:10:46Z"));
  equal(outage.url, "https://status.cloud.google.com/incidents/iAgVMxJUfE1J9et7j9KB");
  deepStrictEqual(outage.updates.map((u) => u.status), ["INVESTIGATING", "RESOLVED", "RESOLVED"]);
  deepStrictEqual(outage.componentIds, [
    "5x6CGnZvSHQZ26KtxpK1",
    "BSGtCUnz6ZmyajsjgTKv",
    "VNJxzcH58QmTt5H6pnT6",
    "hCNpnTQHkUCCGxJy35Yq",
  ]);
  deepStrictEqual(seen, []);
});

Deno.test("Google Cloud: resolved incidents older than a week drop out", () => {
  const s = googleCloudAdapter.parse(body, ctx("2022-07-02T00:00:00Z"));
  deepStrictEqual(s.incidents.map((i) => i.externalId), [
    "TaA75H7XA1DQyM2ReK2f",
    "sPyYB214xAhqnoxNrrnW",
  ]);
  const info = s.incidents[0]!;
  equal(info.impact, "NONE");
  equal(info.updates.length, 5);
  equal(info.updates[0]!.at, at("2022-07-01T14:04:53Z"));
  equal(info.updates[4]!.status, "RESOLVED");
  equal(s.incidents[1]!.impact, "MAJOR"); // disruption, severity medium
  deepStrictEqual(s.components.map((c) => [c.name, c.status]), [
    ["Google BigQuery", "OPERATIONAL"],
    ["Apigee", "OPERATIONAL"],
  ]);
});

Deno.test("Google Cloud: an open outage sets MAJOR_OUTAGE on the page and its products", () => {
  const open = JSON.parse(body) as Record<string, unknown>[];
  const outage: Record<string, unknown> = { ...open[2]!, end: null };
  const s = googleCloudAdapter.parse(JSON.stringify([outage]), ctx("2022-06-16T09:00:00Z"));
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents[0]!.resolvedAt, null);
  // its newest update says AVAILABLE: recovered, still open, no longer raising the level
  equal(s.incidents[0]!.status, "MONITORING");
  const down = { ...outage, updates: (outage.updates as unknown[]).slice(2) };
  const s2 = googleCloudAdapter.parse(JSON.stringify([down]), ctx("2022-06-16T09:00:00Z"));
  equal(s2.indicator, "MAJOR_OUTAGE");
  equal(s2.incidents[0]!.status, "INVESTIGATING");
  equal(s2.components.every((c) => c.status === "MAJOR_OUTAGE"), true);
});

Deno.test("Google Cloud: mapping tables and unknown values", () => {
  deepStrictEqual(STATUS_IMPACT, {
    SERVICE_INFORMATION: "NONE",
    SERVICE_DISRUPTION: "MAJOR",
    SERVICE_OUTAGE: "CRITICAL",
  });
  deepStrictEqual(DISRUPTION_SEVERITY, { low: "MINOR", medium: "MAJOR", high: "MAJOR" });
  equal(UPDATE_STATUS.AVAILABLE, "RESOLVED");
  const raw = JSON.parse(body) as Record<string, unknown>[];
  const updates = (raw[1]!.updates as unknown[]).slice(2); // the two SERVICE_DISRUPTION updates
  const odd = { ...raw[1]!, end: null, updates, status_impact: "SERVICE_WOBBLE" };
  const seen: string[] = [];
  const s = googleCloudAdapter.parse(JSON.stringify([odd]), ctx("2022-06-29T21:00:00Z", seen));
  deepStrictEqual(seen, ["status_impact=SERVICE_WOBBLE"]);
  equal(s.incidents[0]!.impact, "MINOR");
  equal(s.indicator, "DEGRADED_PERFORMANCE");
});

Deno.test("Google Cloud: wrong shapes are PayloadErrors naming the path", () => {
  throws(
    () => googleCloudAdapter.parse("<html>504</html>", ctx("2022-07-02T00:00:00Z")),
    PayloadError,
  );
  throws(
    () => googleCloudAdapter.parse('{"incidents":[]}', ctx("2022-07-02T00:00:00Z")),
    (e) => e instanceof PayloadError && e.path === "$",
  );
});

Deno.test("Google Cloud: a malformed incident or update is dropped with a note, the rest read", () => {
  const dropped: string[] = [];
  const c = {
    ...ctx("2022-06-20T00:00:00Z"),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const whole = googleCloudAdapter.parse(body, c);
  const doc = JSON.parse(body);
  doc[0].begin = "yesterday";
  delete doc[2].updates[0].status;
  const s = googleCloudAdapter.parse(JSON.stringify(doc), c);
  deepStrictEqual(
    s.incidents.map((i) => i.externalId),
    whole.incidents.map((i) => i.externalId).filter((id) => id !== "TaA75H7XA1DQyM2ReK2f"),
  );
  const outage = s.incidents.find((i) => i.externalId === "iAgVMxJUfE1J9et7j9KB")!;
  equal(outage.updates.length, 2);
  deepStrictEqual(dropped.map((d) => d.split(":")[0]), ["[0].begin", "[2].updates[0].status"]);
  equal(dropped[1], "[2].updates[0].status: missing");
});

Deno.test("Google Cloud endpoint", () => {
  equal(
    googleCloudAdapter.endpoint({ statusPageUrl: "https://status.cloud.google.com/", slug: "gcp" })
      .href,
    "https://status.cloud.google.com/incidents.json",
  );
});
