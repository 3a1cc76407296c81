import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { DAY_MS, HOUR_MS } from "../../../domain/mod.ts";
import { IncidentPageSchema, ProviderPageSchema } from "../../../routes/api/schemas.ts";
import { addIncident, addVendor, apiRig, body, polledRig, T0 } from "../../support/api.ts";

Deno.test("listIncidents serves the poller's incidents with their timelines", async () => {
  const r = await polledRig(2, ["sim-00001"]);
  try {
    const res = await body(await r.get("/api/incidents?active=true"));
    equal(res.status, 200);
    const page = IncidentPageSchema.parse(res.json);
    equal(page.totalElements, 1);
    equal(page.content[0]!.serviceSlug, "sim-00001");
    ok(page.content[0]!.updates.length > 0);
  } finally {
    await r.close();
  }
});

Deno.test("the incident feed is newest first and filters by active, service and since", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "alpha" });
    await addVendor(r.store, { slug: "beta" });
    await addIncident(r.store, "alpha", {
      externalId: "1",
      title: "old resolved",
      status: "RESOLVED",
      impact: "MAJOR",
      startedAt: T0 - 3 * DAY_MS,
      updatedAt: T0 - 3 * DAY_MS + HOUR_MS,
      resolvedAt: T0 - 3 * DAY_MS + HOUR_MS,
    });
    await addIncident(r.store, "beta", {
      externalId: "2",
      title: "beta open",
      status: "IDENTIFIED",
      impact: "MINOR",
      startedAt: T0 - 2 * DAY_MS,
      updatedAt: T0 - HOUR_MS,
    });
    await addIncident(r.store, "alpha", {
      externalId: "3",
      title: "alpha maintenance",
      status: "SCHEDULED",
      impact: "MAINTENANCE",
      startedAt: T0 - DAY_MS,
    });
    const titles = async (q: string) =>
      IncidentPageSchema.parse((await body(await r.get(`/api/incidents${q}`))).json).content
        .map((i) => i.title);
    deepStrictEqual(await titles(""), ["alpha maintenance", "beta open", "old resolved"]);
    deepStrictEqual(await titles("?active=true"), ["alpha maintenance", "beta open"]);
    deepStrictEqual(await titles("?service=alpha"), ["alpha maintenance", "old resolved"]);
    deepStrictEqual(await titles("?since=2026-11-19T00:00:00Z"), [
      "alpha maintenance",
      "beta open",
    ]);
    deepStrictEqual(await titles("?limit=1&page=1"), ["beta open"]);
    deepStrictEqual(await titles("?limit=1&page=5"), []);
    const unknown = await body(await r.get("/api/incidents?service=gamma"));
    equal(unknown.status, 404);
    equal(unknown.json.error, "not_found");
    for (const q of ["?since=yesterday", "?active=yes", "?limit=0", "?limit=501"]) {
      const bad = await body(await r.get(`/api/incidents${q}`));
      equal(bad.status, 400, q);
      equal(bad.json.error, "invalid_request");
    }
  } finally {
    await r.close();
  }
});

Deno.test("the provider overview has one row per provider with counts and mean uptime", async () => {
  const r = apiRig();
  try {
    // Both read since before the 30-day window: each held its level all along.
    await addVendor(r.store, {
      slug: "google-cloud",
      name: "Google Cloud",
      provider: "google",
      status: "MAJOR_OUTAGE",
      at: T0 - 40 * DAY_MS,
    });
    await addVendor(r.store, {
      slug: "google-workspace",
      name: "Google Workspace",
      provider: "google",
      status: "OPERATIONAL",
      at: T0 - 40 * DAY_MS,
    });
    await addVendor(r.store, { slug: "aws", name: "AWS", provider: "amazon" });
    await addIncident(r.store, "google-workspace", {
      externalId: "x",
      title: "t",
      status: "INVESTIGATING",
      impact: "MINOR",
      startedAt: T0,
    });
    const res = await body(await r.get("/api/status/providers-overview"));
    equal(res.status, 200);
    const page = ProviderPageSchema.parse(res.json);
    equal(page.totalElements, 2);
    deepStrictEqual(page.content[1], {
      provider: "google",
      name: "Google",
      services: 2,
      byStatus: {
        OPERATIONAL: 1,
        UNDER_MAINTENANCE: 0,
        DEGRADED_PERFORMANCE: 0,
        PARTIAL_OUTAGE: 0,
        MAJOR_OUTAGE: 1,
        UNKNOWN: 0,
      },
      worstStatus: "MAJOR_OUTAGE",
      activeIncidents: 1,
      uptimePercent: 50, // one down, one up over the whole window (0 % and 100 %)
    });
    equal(page.content[0]!.provider, "amazon");
    equal((await r.get("/api/status/providers-overview?limit=0")).status, 400);
  } finally {
    await r.close();
  }
});
