import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { isPrivateAddress, politeFetch } from "../../ingest/http.ts";
import { type Scenario, startSimulator } from "../support/simulator.ts";

Deno.test("politeFetch: conditional GET gives not_modified until the document changes", async () => {
  const sim = startSimulator();
  try {
    const [v] = sim.catalog(1);
    const url = `${v!.statusPageUrl}/api/v2/summary.json`;
    const first = await politeFetch(url, { timeoutMs: 2000 });
    equal(first.kind, "ok");
    if (first.kind !== "ok") return;
    ok(first.etag && first.lastModified);
    const again = await politeFetch(url, { timeoutMs: 2000, etag: first.etag });
    equal(again.kind, "not_modified");
    const byDate = await politeFetch(url, { timeoutMs: 2000, lastModified: first.lastModified });
    equal(byDate.kind, "not_modified");
    sim.setScenario(v!.slug, "outage");
    const changed = await politeFetch(url, { timeoutMs: 2000, etag: first.etag });
    equal(changed.kind, "ok");
    ok(changed.kind === "ok" && changed.body.includes("GitHub"));
  } finally {
    await sim.close();
  }
});

Deno.test("politeFetch turns every broken answer into a failure with its reason", async () => {
  const sim = startSimulator();
  const cases: [Scenario, string][] = [
    ["hang", "timeout"],
    ["status_500", "http_status"],
    ["redirect_loop", "redirect_loop"],
    ["huge", "too_large"],
  ];
  try {
    const vendors = sim.catalog(cases.length);
    const results = await Promise.all(cases.map(([scenario], i) => {
      sim.setScenario(vendors[i]!.slug, scenario);
      return politeFetch(vendors[i]!.statusPageUrl, { timeoutMs: 500 });
    }));
    deepStrictEqual(
      results.map((r) => r.kind === "failed" ? r.reason : r.kind),
      cases.map(([, reason]) => reason),
    );
    const http500 = results[1]!;
    equal(http500.kind === "failed" && http500.status, 500);
  } finally {
    await sim.close();
  }
});

Deno.test("politeFetch: the private-address guard refuses loopback and private resolutions", async () => {
  const sim = startSimulator();
  try {
    const [v] = sim.catalog(1);
    const blocked = await politeFetch(v!.statusPageUrl, {
      timeoutMs: 1000,
      blockPrivateAddresses: true,
    });
    equal(blocked.kind === "failed" && blocked.reason, "refused_address");
    const rebound = await politeFetch("http://status.example.test/", {
      timeoutMs: 1000,
      blockPrivateAddresses: true,
      resolve: () => Promise.resolve(["93.184.216.34", "10.1.2.3"]),
    });
    equal(rebound.kind === "failed" && rebound.reason, "refused_address");
    // Trusted (catalog) URLs on loopback are fetched: that is how the simulator works.
    equal((await politeFetch(v!.statusPageUrl, { timeoutMs: 1000 })).kind, "ok");
  } finally {
    await sim.close();
  }
});

Deno.test("isPrivateAddress covers loopback, private, link-local, CGNAT and IPv6 local ranges", () => {
  const cases: [string, boolean][] = [
    ["127.0.0.1", true],
    ["10.0.0.8", true],
    ["172.16.5.4", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["8.8.8.8", false],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["2606:4700::1111", false],
  ];
  for (const [address, expected] of cases) equal(isPrivateAddress(address), expected, address);
});
