import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import { azureAdapter, PHASE_STATUS } from "../../../ingest/adapters/azure.ts";
import { fixture } from "../../support/adapters.ts";

const read = (name: string) => fixture("azure", name);
const ctx = {
  pageUrl: new URL("https://azure.status.microsoft/en-us/status"),
  fetchedAt: Date.parse("2022-11-17T09:00:00Z"),
};

Deno.test("Azure: the quiet 2018 feed is OPERATIONAL", () => {
  const s = azureAdapter.parse(read("azure-status-rss-empty-2018.xml"), ctx);
  equal(s.indicator, "OPERATIONAL");
  deepStrictEqual(s.incidents, []);
});

Deno.test("Azure: any item is an active event read as degraded; phase from the title", () => {
  const s = azureAdapter.parse(read("azure-status-rss-2022-header-real-items-from-test.xml"), ctx);
  equal(s.indicator, "DEGRADED_PERFORMANCE");
  deepStrictEqual(s.incidents.map((i) => [i.title, i.status, i.impact]), [
    ["Azure Key Vault issue affecting Azure China", "INVESTIGATING", "MINOR"],
    ["Azure Databricks - North Central US - Investigating", "INVESTIGATING", "MINOR"],
    ["Azure Synapse Analytics Mitigating", "IDENTIFIED", "MINOR"],
  ]);
  // items carry no pubDate: the channel's lastBuildDate (…08:36:00 Z) stands in
  equal(s.incidents[0]!.startedAt, Date.parse("2022-11-17T08:36:00Z"));
  equal(s.incidents[0]!.updates[0]!.body, "Description of the Azure Key Vault problem");
});

Deno.test("Azure: a Mitigated item no longer raises the level", () => {
  const body =
    `<rss version="2.0"><channel><lastBuildDate>Thu, 17 Nov 2022 08:36:00 Z</lastBuildDate>
    <item><title>Azure Front Door - Mitigated</title><pubDate>Thu, 17 Nov 2022 08:00:00 Z</pubDate><description>done</description></item></channel></rss>`;
  const s = azureAdapter.parse(body, ctx);
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents[0]!.status, "RESOLVED");
  equal(s.incidents[0]!.resolvedAt, Date.parse("2022-11-17T08:00:00Z"));
});

Deno.test("Azure: phase table and endpoint", () => {
  deepStrictEqual(PHASE_STATUS, {
    investigating: "INVESTIGATING",
    mitigating: "IDENTIFIED",
    mitigated: "RESOLVED",
    resolved: "RESOLVED",
  });
  equal(
    azureAdapter.endpoint({
      statusPageUrl: "https://azure.status.microsoft/en-gb/status",
      slug: "azure",
    }).href,
    "https://azure.status.microsoft/en-gb/status/feed/",
  );
  equal(
    azureAdapter.endpoint({ statusPageUrl: "https://azure.status.microsoft/", slug: "azure" }).href,
    "https://azure.status.microsoft/en-us/status/feed/",
  );
});

Deno.test("Azure: a non-feed body is a PayloadError", () => {
  throws(() => azureAdapter.parse("<!DOCTYPE html><html></html>", ctx), PayloadError);
  throws(() => azureAdapter.parse("", ctx), PayloadError);
});
