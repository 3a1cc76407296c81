/**
 * statusd's own eyes on the API and MCP: `earlyWarning` on a service (apart from the vendor's
 * status, with what statusd saw and whether the vendor has admitted it), `trackRecord` (the
 * vendor's acknowledgement grade), and members' reports through `POST /api/user/reports`.
 * @module
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { DAY_MS, MINUTE_MS, QUIET } from "../../../domain/mod.ts";
import { account, key } from "../../support/accounts.ts";
import { addVendor, apiRig, T0 } from "../../support/api.ts";
import { Client, mcpRig, StreamableHTTPClientTransport } from "../mcp/_rig.ts";
import { episodeAt, finishedAt, openState } from "../../support/warnings.ts";

/** Suspected at `at`: 8 of 10 probes of api.acme.test failing since a minute before. */
const suspected = (at: number) =>
  openState(episodeAt(at - MINUTE_MS, { suspectedAt: at, failed: 8, total: 10 }));

/** A finished episode `daysAgo` days before T0 with its delay. */
const finished = (daysAgo: number, minutes: number, acknowledged = true) =>
  finishedAt(T0 - daysAgo * DAY_MS, minutes, acknowledged);

Deno.test("a suspected vendor: earlyWarning says what statusd saw; the vendor's status is its own", async () => {
  const rig = apiRig();
  try {
    await addVendor(rig.store, { slug: "acme", status: "OPERATIONAL" });
    const plain = await (await rig.get("/api/services/acme")).json();
    equal(plain.earlyWarning, null);
    deepStrictEqual(plain.trackRecord, {
      windowDays: 90,
      episodes: 0,
      unacknowledged: 0,
      vendorFirst: 0,
      averageDelayMinutes: null,
      grade: null,
      gradeNote: "not enough data: 0 of the 3 episodes a grade needs in 90 days",
      backdatedIncidents: 0,
    });
    const id = (await rig.store.catalog.service("acme"))!.id;
    await rig.store.warnings.record(id, {
      answered: {},
      state: suspected(T0),
      finished: [finished(1, 10), finished(2, 50), finished(3, 240, false)],
    }, T0);
    rig.cache.clear();
    const s = await (await rig.get("/api/services/acme")).json();
    equal(s.currentStatus, "OPERATIONAL", "the vendor's status is untouched");
    deepStrictEqual(s.earlyWarning, {
      phase: "suspected",
      since: new Date(T0 - MINUTE_MS).toISOString(),
      suspectedAt: new Date(T0).toISOString(),
      acknowledgedAt: null,
      vendorClaimedStart: null,
      delayMinutes: null,
      evidence: "probes",
      probes: { failed: 8, total: 10, hosts: ["api.acme.test"] },
      reporters: 0,
      component: null,
      summary: "statusd's own checks have seen errors from api.acme.test since 11:59 UTC " +
        "(8 of 10 failed); acme has not acknowledged it (its status page reads operational).",
      visibility: "public",
      ownObservation: true,
    });
    // (10 + 50 + 240) / 3 = 100 min: C.
    equal(s.trackRecord.episodes, 3);
    equal(s.trackRecord.unacknowledged, 1);
    equal(s.trackRecord.averageDelayMinutes, 100);
    equal(s.trackRecord.grade, "C");
    equal((await rig.get("/api/services/nope")).status, 404);
  } finally {
    await rig.close();
  }
});

Deno.test("reports: a member reports with a key; the account lists them; bad input names the field", async () => {
  const rig = apiRig();
  try {
    await addVendor(rig.store, { slug: "acme", status: "OPERATIONAL" });
    const who = await account(rig.ctx, "owner@example.test");
    const writer = await key(rig.ctx, who, "ci", ["monitors:write", "monitors:read"]);
    const reader = await key(rig.ctx, who, "ro", ["monitors:read"]);
    const post = (k: string, body: unknown) =>
      rig.app.request("https://status.example.test/api/user/reports", {
        method: "POST",
        headers: { "x-api-key": k, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const made = await post(writer, { service: "acme", component: "API", note: "502s" });
    equal(made.status, 201);
    const r = await made.json();
    equal(r.service, "acme");
    equal(r.component, "API");
    match(r.reporter, /^key /);
    equal((await post(reader, { service: "acme" })).status, 403, "monitors:write is needed");
    const unknown = await post(writer, { service: "acmee" });
    equal(unknown.status, 404);
    deepStrictEqual((await unknown.json()).suggestions, ["acme"]);
    const bad = await post(writer, { service: "acme", note: "x".repeat(1001) });
    equal(bad.status, 400);
    equal((await bad.json()).issues[0].parameter, "note");
    const list = await (await rig.get("/api/user/reports", { "x-api-key": reader })).json();
    deepStrictEqual(list.content.map((x: { note: string }) => x.note), ["502s"]);
    // It warns the reporting account at once; nobody else, and it weighs nothing in public (the
    // account has not monitored acme for a week).
    const id = (await rig.store.catalog.service("acme"))!.id;
    equal(await rig.store.warnings.recentReports(id, T0 - 30 * MINUTE_MS), null);
    const own = await (await rig.get("/api/services/acme", { "x-api-key": reader })).json();
    equal(own.earlyWarning.visibility, "account");
    equal(own.earlyWarning.phase, "suspected");
    equal(own.earlyWarning.component, "API");
    match(own.earlyWarning.summary, /^1 member of your account reported acme not working since/);
    equal((await (await rig.get("/api/services/acme")).json()).earlyWarning, null);
    const other = await account(rig.ctx, "other@example.test");
    const theirs = await key(rig.ctx, other, "ro", ["monitors:read"]);
    equal(
      (await (await rig.get("/api/services/acme", { "x-api-key": theirs })).json()).earlyWarning,
      null,
      "another account sees nothing of it",
    );
  } finally {
    await rig.close();
  }
});

Deno.test("get_service_status tells an agent the early warning and the grade", async () => {
  const rig = await mcpRig();
  const client = new Client({ name: "eyes-test", version: "1.0.0" });
  try {
    await addVendor(rig.ctx.store, { slug: "acme", status: "OPERATIONAL" });
    const id = (await rig.ctx.store.catalog.service("acme"))!.id;
    const now = rig.ctx.clock.now();
    await rig.ctx.store.warnings.record(
      id,
      { answered: {}, state: suspected(now), finished: [] },
      now,
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
        requestInit: { headers: { "X-API-Key": rig.keys.all } },
      }),
    );
    const r = await client.callTool({ name: "get_service_status", arguments: { slug: "acme" } });
    equal(r.isError, undefined);
    const out = r.structuredContent as {
      status: string;
      earlyWarning: { phase: string; ownObservation: boolean; summary: string };
      trackRecord: { grade: string | null };
    };
    equal(out.earlyWarning.phase, "suspected");
    equal(out.earlyWarning.ownObservation, true);
    match(out.earlyWarning.summary, /acme has not acknowledged it/);
    equal(out.trackRecord.grade, null);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("the catalog sorts vendors slowest to admit trouble first, graded ones only", async () => {
  const rig = apiRig();
  try {
    for (const slug of ["alpha", "bravo", "charlie", "delta"]) {
      await addVendor(rig.store, { slug, status: "OPERATIONAL" });
    }
    const episodes = async (slug: string, minutes: number[]) => {
      const id = (await rig.store.catalog.service(slug))!.id;
      await rig.store.warnings.record(id, {
        answered: {},
        state: QUIET,
        finished: minutes.map((m, i) => finished(i + 1, m)),
      }, T0);
    };
    await episodes("alpha", [10, 10, 10]); // average 10 min: A
    await episodes("bravo", [240, 120, 60]); // 140 min: D
    await episodes("charlie", [500, 500]); // two episodes: no grade yet
    const slow = await (await rig.get("/api/services?sort=slowest_to_admit")).json();
    deepStrictEqual(slow.content.map((s: { slug: string }) => s.slug), ["bravo", "alpha"]);
    equal(slow.totalElements, 2);
    const byName = await (await rig.get("/api/services")).json();
    deepStrictEqual(
      byName.content.map((s: { slug: string }) => s.slug),
      ["alpha", "bravo", "charlie", "delta"],
    );
    equal((await rig.get("/api/services?sort=fastest")).status, 400);
    const page = await (await rig.get("/services?sort=slowest_to_admit", { accept: "text/html" }))
      .text();
    match(page, /2 services with an acknowledgement grade, slowest to admit trouble first/);
    match(page, /<option value="slowest_to_admit" selected>/);
  } finally {
    await rig.close();
  }
});
