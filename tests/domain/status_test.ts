import { deepStrictEqual, equal } from "node:assert/strict";
import { isAtLeast, serviceStatus, severity, type StatusLevel, worst } from "../../domain/mod.ts";

Deno.test("severity orders levels best to worst and leaves UNKNOWN unranked", () => {
  deepStrictEqual(
    ["OPERATIONAL", "UNDER_MAINTENANCE", "DEGRADED_PERFORMANCE", "PARTIAL_OUTAGE", "MAJOR_OUTAGE"]
      .map((l) => severity(l as StatusLevel)),
    [0, 1, 2, 3, 4],
  );
  equal(severity("UNKNOWN"), undefined);
});

Deno.test("worst picks the most severe ranked level; UNKNOWN only when nothing is known", () => {
  const cases: [StatusLevel[], StatusLevel][] = [
    [["OPERATIONAL", "PARTIAL_OUTAGE", "DEGRADED_PERFORMANCE"], "PARTIAL_OUTAGE"],
    [["UNDER_MAINTENANCE", "OPERATIONAL"], "UNDER_MAINTENANCE"],
    [["UNKNOWN", "OPERATIONAL"], "OPERATIONAL"],
    [["UNKNOWN", "MAJOR_OUTAGE"], "MAJOR_OUTAGE"],
    [["UNKNOWN"], "UNKNOWN"],
    [[], "UNKNOWN"],
  ];
  for (const [levels, expected] of cases) equal(worst(levels), expected, levels.join(","));
});

Deno.test("isAtLeast: that level or worse; UNKNOWN is never at least anything", () => {
  equal(isAtLeast("MAJOR_OUTAGE", "DEGRADED_PERFORMANCE"), true);
  equal(isAtLeast("DEGRADED_PERFORMANCE", "DEGRADED_PERFORMANCE"), true);
  equal(isAtLeast("UNDER_MAINTENANCE", "DEGRADED_PERFORMANCE"), false);
  equal(isAtLeast("UNKNOWN", "UNDER_MAINTENANCE"), false);
});

Deno.test("service status is the worst of the indicator and the components", () => {
  const c = (status: StatusLevel) => ({ externalId: status, name: status, group: null, status });
  equal(
    serviceStatus({ indicator: "OPERATIONAL", components: [c("PARTIAL_OUTAGE")] }),
    "PARTIAL_OUTAGE",
  );
  equal(
    serviceStatus({ indicator: "MAJOR_OUTAGE", components: [c("OPERATIONAL")] }),
    "MAJOR_OUTAGE",
  );
  equal(serviceStatus({ indicator: "UNKNOWN", components: [c("OPERATIONAL")] }), "OPERATIONAL");
  equal(
    serviceStatus({ indicator: "DEGRADED_PERFORMANCE", components: [] }),
    "DEGRADED_PERFORMANCE",
  );
});
