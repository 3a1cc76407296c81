import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { DAY_MS, HOUR_MS } from "../../../domain/mod.ts";
import { ServiceDetailSchema, ServicePageSchema } from "../../../routes/api/schemas.ts";
import {
  addComponent,
  addIncident,
  addTransitions,
  addVendor,
  apiRig,
  body,
  polledRig,
  T0,
} from "../../support/api.ts";

Deno.test("listServices and getService serve what the poller stored from the simulator", async () => {
  const r = await polledRig(3, ["sim-00002"]);
  try {
    r.clock.advance(DAY_MS);
    await r.poller.runOnce();
    const list = await body(await r.get("/api/services?limit=100"));
    equal(list.status, 200);
    const page = ServicePageSchema.parse(list.json);
    equal(page.totalElements, 3);
    deepStrictEqual(page.content.map((s) => [s.slug, s.currentStatus]), [
      ["sim-00001", "OPERATIONAL"],
      ["sim-00002", "PARTIAL_OUTAGE"],
      ["sim-00003", "OPERATIONAL"],
    ]);
    // A day observed since the first poll: all up, or 30 % down for the partial outage.
    deepStrictEqual(page.content.map((s) => s.uptimePercent), [100, 70, 100]);
    equal(page.content[0]!.lastCheckedAt, new Date(T0 + DAY_MS).toISOString());

    const one = await body(await r.get("/api/services/sim-00002"));
    equal(one.status, 200);
    const detail = ServiceDetailSchema.parse(one.json);
    ok(detail.components.length > 0);
    equal(detail.incidents.length, 1);
    equal(detail.incidents[0]!.status, "INVESTIGATING");
    ok(detail.incidents[0]!.updates.length > 0, "the open incident carries its timeline");
    ok(detail.incidents[0]!.components.includes("Packages"));

    const filtered = await body(await r.get("/api/services?status=PARTIAL_OUTAGE"));
    deepStrictEqual(
      ServicePageSchema.parse(filtered.json).content.map((s) => s.slug),
      ["sim-00002"],
    );
  } finally {
    await r.close();
  }
});

Deno.test("filters combine and the list is ordered by name and pages correctly", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, {
      slug: "google-cloud",
      name: "Google Cloud",
      category: "cloud",
      provider: "google",
    });
    await addVendor(r.store, {
      slug: "google-workspace",
      name: "Google Workspace",
      category: "productivity",
      provider: "google",
      status: "MAJOR_OUTAGE",
    });
    await addVendor(r.store, {
      slug: "aws",
      name: "AWS",
      category: "cloud",
      provider: "amazon",
      status: "MAJOR_OUTAGE",
    });
    await addVendor(r.store, { slug: "zeta", name: "zeta 100%_off", category: "other" });
    const slugs = async (q: string) =>
      ServicePageSchema.parse((await body(await r.get(`/api/services${q}`))).json).content
        .map((s) => s.slug);
    deepStrictEqual(await slugs(""), ["aws", "google-cloud", "google-workspace", "zeta"]);
    deepStrictEqual(await slugs("?status=MAJOR_OUTAGE"), ["aws", "google-workspace"]);
    deepStrictEqual(await slugs("?category=cloud"), ["aws", "google-cloud"]);
    deepStrictEqual(await slugs("?provider=google&status=MAJOR_OUTAGE"), ["google-workspace"]);
    deepStrictEqual(await slugs("?q=GOOGLE"), ["google-cloud", "google-workspace"]);
    deepStrictEqual(await slugs("?q=%25_"), ["zeta"], "LIKE wildcards in q are literal");
    const p1 = (await body(await r.get("/api/services?limit=3&page=1"))).json;
    deepStrictEqual(p1, {
      content: p1.content as unknown[],
      totalElements: 4,
      page: 1,
      size: 3,
      totalPages: 2,
    });
    deepStrictEqual((p1.content as { slug: string }[]).map((s) => s.slug), ["zeta"]);
    const beyond = await body(await r.get("/api/services?limit=3&page=9"));
    equal(beyond.status, 200);
    deepStrictEqual(beyond.json, {
      content: [],
      totalElements: 4,
      page: 9,
      size: 3,
      totalPages: 2,
    });
    deepStrictEqual((await body(await r.get("/api/services?limit=500"))).json.size, 500);
  } finally {
    await r.close();
  }
});

Deno.test("bad list parameters answer 400 invalid_request naming each parameter", async () => {
  const r = apiRig();
  try {
    const cases: [string, string][] = [
      ["?limit=0", "limit"],
      ["?limit=501", "limit"],
      ["?limit=ten", "limit"],
      ["?page=-1", "page"],
      ["?status=DOWN", "status"],
      ["?category=toys", "category"],
    ];
    for (const [query, parameter] of cases) {
      const res = await body(await r.get(`/api/services${query}`));
      equal(res.status, 400, query);
      equal(res.json.error, "invalid_request");
      equal(res.json.status, 400);
      deepStrictEqual((res.json.issues as { parameter: string }[]).map((i) => i.parameter), [
        parameter,
      ], query);
      ok(String(res.json.message).includes(parameter));
    }
  } finally {
    await r.close();
  }
});

Deno.test("an unknown slug answers 404 not_found with close suggestions", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    await addVendor(r.store, { slug: "gitlab", name: "GitLab" });
    await addVendor(r.store, { slug: "stripe", name: "Stripe" });
    for (
      const path of [
        "/api/services/githb",
        "/api/services/githb/uptime",
        "/api/services/githb/history",
      ]
    ) {
      const res = await body(await r.get(path));
      equal(res.status, 404, path);
      equal(res.json.error, "not_found");
      equal(res.json.status, 404);
      deepStrictEqual(res.json.suggestions, ["github", "gitlab"]);
      equal(res.json.message, 'No service "githb"; did you mean "github", "gitlab"?');
    }
  } finally {
    await r.close();
  }
});

Deno.test("getService lists current components and only open incidents, with timelines", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", name: "Acme", status: "DEGRADED_PERFORMANCE" });
    await addComponent(r.store, "acme", {
      externalId: "c1",
      name: "API",
      status: "DEGRADED_PERFORMANCE",
      group: "Core",
    });
    await addIncident(r.store, "acme", {
      externalId: "i1",
      title: "Slow API",
      status: "MONITORING",
      impact: "MINOR",
      startedAt: T0 - HOUR_MS,
      componentIds: ["c1"],
      updates: [
        { at: T0 - HOUR_MS, status: "INVESTIGATING", body: "Looking" },
        { at: T0 - 10 * 60_000, status: "MONITORING", body: "Fix deployed" },
      ],
    });
    await addIncident(r.store, "acme", {
      externalId: "i0",
      title: "Old",
      status: "RESOLVED",
      impact: "MAJOR",
      startedAt: T0 - DAY_MS,
      resolvedAt: T0 - DAY_MS + HOUR_MS,
    });
    const res = await body(await r.get("/api/services/acme"));
    const s = ServiceDetailSchema.parse(res.json);
    deepStrictEqual(s.components.map((c) => [c.name, c.group, c.status]), [
      ["API", "Core", "DEGRADED_PERFORMANCE"],
    ]);
    deepStrictEqual(s.incidents.map((i) => i.title), ["Slow API"]);
    deepStrictEqual(s.incidents[0]!.components, ["API"]);
    deepStrictEqual(s.incidents[0]!.updates, [
      { at: "2026-11-20T11:00:00.000Z", status: "INVESTIGATING", body: "Looking" },
      { at: "2026-11-20T11:50:00.000Z", status: "MONITORING", body: "Fix deployed" },
    ]);
    equal(s.incidents[0]!.startedAt, "2026-11-20T11:00:00.000Z");
  } finally {
    await r.close();
  }
});

Deno.test("a cached list follows a status change at once (cache cleared by the change feed)", async () => {
  const r = await polledRig(2);
  try {
    const first = ServicePageSchema.parse((await body(await r.get("/api/services"))).json);
    equal(first.content[1]!.currentStatus, "OPERATIONAL");
    r.sim.setScenario("sim-00002", "outage");
    r.clock.advance(10 * 60_000);
    await r.poller.runOnce();
    const second = ServicePageSchema.parse((await body(await r.get("/api/services"))).json);
    equal(second.content[1]!.currentStatus, "PARTIAL_OUTAGE");
  } finally {
    await r.close();
  }
});

Deno.test("a service first observed inside the window counts only observed time", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    await addTransitions(r.store, "acme", [
      [T0 - 2 * DAY_MS, "MAJOR_OUTAGE"],
      [T0 - DAY_MS, "OPERATIONAL"],
    ]);
    const s = ServiceDetailSchema.parse((await body(await r.get("/api/services/acme"))).json);
    equal(s.uptimePercent, 50);
  } finally {
    await r.close();
  }
});
