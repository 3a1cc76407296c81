import { equal, notEqual, ok, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import { ADAPTERS } from "../../../ingest/adapters/mod.ts";
import { incidentio } from "../../../ingest/adapters/incidentio.ts";
import { statuspage } from "../../../ingest/adapters/statuspage.ts";
import { digestText } from "../../../ingest/adapters/_pulse.ts";
import { fixture, jsonFixture } from "../../support/adapters.ts";

const spPulse = statuspage.pulse!;
const ioPulse = incidentio.pulse!;

Deno.test("statuspage pulse is the page's /api/v2/status.json, under a sub-path too", () => {
  equal(
    spPulse.endpoint({ statusPageUrl: "https://www.githubstatus.com", slug: "github" }).href,
    "https://www.githubstatus.com/api/v2/status.json",
  );
  equal(
    spPulse.endpoint({ statusPageUrl: "https://status.example.com/eu/", slug: "x" }).href,
    "https://status.example.com/eu/api/v2/status.json",
  );
});

Deno.test("statuspage pulse fingerprints recorded status.json as indicator@page.updated_at", () => {
  equal(
    spPulse.fingerprint(fixture("statuspage", "github-status-none.json")),
    "none@2026-10-09T05:12:19.334Z",
  );
  equal(
    spPulse.fingerprint(fixture("statuspage", "mongodb-docs-status-none.json")),
    "none@2025-03-11T00:52:20-07:00",
  );
});

Deno.test("statuspage pulse changes with the indicator and with page.updated_at, not with wording", () => {
  const base = jsonFixture("statuspage", "github-status-none.json");
  const before = spPulse.fingerprint(JSON.stringify(base));
  const minor = structuredClone(base);
  minor.status.indicator = "minor";
  notEqual(spPulse.fingerprint(JSON.stringify(minor)), before);
  const touched = structuredClone(base);
  touched.page.updated_at = "2026-10-09T05:40:00.000Z";
  notEqual(spPulse.fingerprint(JSON.stringify(touched)), before);
  const reworded = structuredClone(base);
  reworded.status.description = "Everything is fine";
  equal(spPulse.fingerprint(JSON.stringify(reworded)), before);
});

Deno.test("a summary.json read as a pulse gives the fingerprint of the same page state", () => {
  const summary = jsonFixture("statuspage", "github-summary-partial-outage-investigating.json");
  equal(
    spPulse.fingerprint(JSON.stringify(summary)),
    `${summary.status.indicator}@${summary.page.updated_at}`,
  );
});

Deno.test("statuspage pulse refuses an HTML page and a document of another shape", () => {
  throws(
    () => spPulse.fingerprint(fixture("statuspage", "cloudflare-error-504-gateway-timeout.html")),
    PayloadError,
  );
  throws(
    () =>
      spPulse.fingerprint(JSON.stringify({ page: { name: "x" }, status: { indicator: "none" } })),
    (err: unknown) => err instanceof PayloadError && err.path === "page.updated_at",
  );
});

Deno.test("incident.io pulse is the widget API under the page", () => {
  equal(
    ioPulse.endpoint({
      statusPageUrl: "https://neonstatus.com/aws-europe-frankfurt",
      slug: "neon",
    }).href,
    "https://neonstatus.com/aws-europe-frankfurt/api/v1/summary",
  );
});

Deno.test("incident.io pulse: a quiet widget and one with an incident differ; layout does not matter", () => {
  const quiet = fixture("incidentio", "neon-widget-summary-operational.json");
  const busy = fixture("incidentio", "widget-api-preview-incident-and-maintenances-DOCSAMPLE.json");
  const q = ioPulse.fingerprint(quiet);
  equal(q.length, 16);
  notEqual(ioPulse.fingerprint(busy), q);
  equal(ioPulse.fingerprint(JSON.stringify(JSON.parse(quiet))), q, "whitespace is not a change");
  const updated = jsonFixture(
    "incidentio",
    "widget-api-preview-incident-and-maintenances-DOCSAMPLE.json",
  );
  updated.ongoing_incidents[0].status = "monitoring";
  notEqual(ioPulse.fingerprint(JSON.stringify(updated)), ioPulse.fingerprint(busy));
});

Deno.test("incident.io pulse refuses the compatible summary (not the widget document)", () => {
  throws(
    () => ioPulse.fingerprint(fixture("incidentio", "openai-compat-summary-operational.json")),
    PayloadError,
  );
});

Deno.test("platforms without a pulse document rely on a conditional request of the full one", () => {
  const withPulse = Object.values(ADAPTERS).filter((a) => a?.pulse).map((a) => a!.platform);
  equal(withPulse.sort().join(","), "incidentio,statuspage");
});

Deno.test("digestText is stable and spreads small edits", () => {
  equal(digestText(""), digestText(""));
  equal(digestText("abc").length, 16);
  const seen = new Set(Array.from({ length: 2000 }, (_, i) => digestText(`{"n":${i}}`)));
  equal(seen.size, 2000);
  ok(digestText("a") !== digestText("b"));
});
