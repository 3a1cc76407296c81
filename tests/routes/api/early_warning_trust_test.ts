/**
 * What everyone sees of statusd's own eyes is evidence no single party controls: accounts made
 * today cannot make a vendor "suspected" for anyone (the API, the service page, a public board,
 * other accounts' rules), nor forge a vendor's grade by repeating it; one reporter cannot flood
 * the reports; what a member types stays with the account; an incident's back-dated start is
 * recorded, and never taken for when the vendor admitted trouble.
 * @module
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import {
  type Caller,
  createBoard,
  createMonitor,
  createRoute,
  createRule,
  evaluateWarnings,
  reportTrouble,
  updateBoard,
} from "../../../app/mod.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS, RateLimited } from "../../../domain/mod.ts";
import { account, key } from "../../support/accounts.ts";
import { addVendor, apiRig, T0 } from "../../support/api.ts";
import { section, visibleText } from "../../support/html.ts";
import { recordReading } from "../../support/seed.ts";
import { probeEveryVendor } from "../../support/warnings.ts";
import { stepVendorWarning } from "../../../ingest/mod.ts";

const HTML = { accept: "text/html" };

/** A signed-in person of `m`'s account (what the web form reports as). */
function person(m: Awaited<ReturnType<typeof account>>): Caller {
  return { kind: "session", account: m.account, member: m.member };
}

/** A rig with vendor acme, a bystander account whose rule opts in to early warnings, a board. */
async function rig() {
  const r = apiRig();
  await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
  // The bystander has watched acme for a month and shows it on a public board, warnings on.
  r.clock.set(T0 - 30 * DAY_MS);
  const bystander = await account(r.ctx, "bystander@example.test");
  const admin: Caller = { kind: "admin", account: bystander.account };
  const m = await createMonitor(r.ctx, admin, { service: "acme" });
  const route = (await createRoute(r.ctx, admin, {
    name: "hook",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/hook" },
  })).route;
  await createRule(r.ctx, admin, {
    name: "Own eyes",
    target: { kind: "all" },
    level: null,
    earlyWarning: true,
    routes: [route.id],
  });
  const board = await createBoard(r.ctx, admin, {
    slug: "stack",
    title: "Our stack",
    public: true,
    items: [{ kind: "monitor", id: m.id }],
  });
  await updateBoard(r.ctx, admin, board.id, { earlyWarning: true }, null);
  r.clock.set(T0);
  await evaluateWarnings(r.ctx);
  /** What the public and the bystander see of acme now. */
  const seen = async () => {
    r.cache.clear();
    const api = await (await r.get("/api/services/acme")).json();
    const page = await (await r.get("/services/acme", HTML)).text();
    const boardPage = visibleText(await (await r.get("/b/stack", HTML)).text());
    await evaluateWarnings(r.ctx);
    const alerts = (await r.store.deliveries.list(bystander.account.id, {}, {
      page: 0,
      limit: 100,
    })).total;
    return {
      earlyWarning: api.earlyWarning,
      episodes: api.trackRecord.episodes,
      grade: api.trackRecord.grade,
      pageWarns: /id="early-warning"/.test(page),
      boardWarns: /Early warning/.test(boardPage),
      alerts,
    };
  };
  const quiet = {
    earlyWarning: null,
    episodes: 0,
    grade: null,
    pageWarns: false,
    boardWarns: false,
    alerts: 0,
  };
  return { r, seen, quiet, bystander };
}

Deno.test("two FREE accounts made today cannot make a vendor suspected for anyone", async () => {
  const { r, seen, quiet } = await rig();
  try {
    const mallory = [];
    for (const email of ["mallory1@example.test", "mallory2@example.test"]) {
      const m = await account(r.ctx, email, "FREE");
      mallory.push(m);
      await createMonitor(r.ctx, person(m), { service: "acme" });
      await reportTrouble(r.ctx, person(m), { service: "acme", note: "down" });
    }
    // Probes answer, or the vendor has none: either way the public sees nothing.
    for (const round of ["ok", "none"] as const) {
      for (let i = 1; i <= 3; i++) {
        r.clock.set(r.clock.now() + 5_000);
        await probeEveryVendor(r.store, r.clock.now(), round);
      }
      deepStrictEqual(await seen(), quiet);
    }
    // Each still sees its own report's warning, and only its own.
    const { ownEyesOf } = await import("../../../app/mod.ts");
    for (const m of mallory) {
      const w = (await ownEyesOf(r.ctx, "acme", person(m))).earlyWarning!;
      equal(w.visibility, "account");
      equal(w.reporters, 1);
    }
  } finally {
    await r.close();
  }
});

Deno.test("one paid account's two keys are one account: no public suspicion", async () => {
  const { r, seen, quiet } = await rig();
  try {
    r.clock.set(T0 - 10 * DAY_MS);
    const team = await account(r.ctx, "team@example.test");
    await createMonitor(r.ctx, { kind: "admin", account: team.account }, { service: "acme" });
    r.clock.set(T0);
    for (const name of ["ci", "laptop"]) {
      const k = await key(r.ctx, team, name, ["monitors:write"]);
      const res = await r.app.request("https://status.example.test/api/user/reports", {
        method: "POST",
        headers: { "x-api-key": k, "content-type": "application/json" },
        body: JSON.stringify({ service: "acme" }),
      });
      equal(res.status, 201);
    }
    await probeEveryVendor(r.store, T0 + 5_000, "none");
    deepStrictEqual(await seen(), quiet);
  } finally {
    await r.close();
  }
});

Deno.test("repeating it every hour forges no grade", async () => {
  const { r, seen, quiet } = await rig();
  try {
    const mallory = [];
    for (const email of ["m1@example.test", "m2@example.test", "m3@example.test"]) {
      const m = await account(r.ctx, email, "FREE");
      await createMonitor(r.ctx, person(m), { service: "acme" });
      mallory.push(m);
    }
    for (let hour = 0; hour < 6; hour++) {
      for (const m of mallory) {
        r.clock.set(T0 + hour * HOUR_MS);
        await reportTrouble(r.ctx, person(m), { service: "acme" });
      }
      for (let minute = 1; minute <= 60; minute += 5) {
        await probeEveryVendor(r.store, T0 + hour * HOUR_MS + minute * MINUTE_MS, "ok");
      }
    }
    r.clock.set(T0 + 2 * DAY_MS);
    await probeEveryVendor(r.store, r.clock.now(), "ok");
    deepStrictEqual(await seen(), quiet);
  } finally {
    await r.close();
  }
});

Deno.test("long-standing accounts together do make it public, with no one's words", async () => {
  const { r, seen, bystander } = await rig();
  try {
    r.clock.set(T0 - 8 * DAY_MS);
    const teams = [];
    for (const email of ["a@example.test", "b@example.test"]) {
      const m = await account(r.ctx, email);
      await createMonitor(r.ctx, person(m), { service: "acme" });
      teams.push(m);
    }
    r.clock.set(T0);
    for (const m of teams) {
      await reportTrouble(r.ctx, person(m), {
        service: "acme",
        component: "ACTION REQUIRED: rotate your keys at https://evil.example",
        note: "see https://evil.example",
      });
    }
    await probeEveryVendor(r.store, T0 + 5_000, "none");
    const now = await seen();
    equal(now.earlyWarning.phase, "suspected");
    equal(now.earlyWarning.visibility, "public");
    equal(now.earlyWarning.reporters, 2);
    equal(now.earlyWarning.component, null);
    equal(now.pageWarns, true);
    equal(now.boardWarns, true);
    equal(now.alerts, 1, "the bystander's rule hears of it");
    const page = await (await r.get("/services/acme", HTML)).text();
    const board = await (await r.get("/b/stack", HTML)).text();
    const api = await (await r.get("/api/services/acme")).text();
    const alert = (await r.store.deliveries.list(bystander.account.id, {}, { page: 0, limit: 10 }))
      .items[0]!;
    for (const text of [page, board, api, JSON.stringify(alert.message)]) {
      equal(/evil\.example|rotate your keys/.test(text), false);
    }
  } finally {
    await r.close();
  }
});

Deno.test("600 reports from one key in 5 s: ten are stored, the rest wait (429 with Retry-After)", async () => {
  const r = apiRig();
  try {
    const slugs = Array.from({ length: 20 }, (_, i) => `v${i}`);
    for (const slug of slugs) await addVendor(r.store, { slug, status: "OPERATIONAL" });
    const who = await account(r.ctx, "flood@example.test");
    const k = await key(r.ctx, who, "flood", ["monitors:write"]);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 600; i++) {
      r.clock.set(T0 + Math.floor(i * 5_000 / 600));
      const res = await r.app.request("https://status.example.test/api/user/reports", {
        method: "POST",
        headers: { "x-api-key": k, "content-type": "application/json" },
        body: JSON.stringify({ service: slugs[i % slugs.length] }),
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
      await res.body?.cancel();
    }
    equal(statuses.filter((s) => s === 201).length, 10, "ten an hour from one reporter");
    equal(statuses.filter((s) => s === 429).length, 590);
    ok(retryAfter !== null && Number(retryAfter) > 0);
    equal((await r.store.warnings.reportsOf(who.account.id, 1000)).length, 10);
    // The same vendor again within ten minutes says why.
    try {
      await reportTrouble(r.ctx, { kind: "admin", account: who.account }, { service: "v0" });
      r.clock.set(T0 + 6_000);
      await reportTrouble(r.ctx, { kind: "admin", account: who.account }, { service: "v0" });
      throw new Error("a repeat was stored");
    } catch (err) {
      ok(err instanceof RateLimited);
      match(err.message, /You reported v0 1 min ago|You reported v0 \d+ min ago/);
    }
  } finally {
    await r.close();
  }
});

Deno.test("a back-dated start is recorded and shown, and never dates the acknowledgement", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    const calm = { indicator: "OPERATIONAL" as const, components: [], incidents: [] };
    await recordReading(r.store, "acme", calm, T0 + 5 * MINUTE_MS);
    // statusd's probes fail from T0 + 10 min; the vendor lists an incident at T0 + 45 min
    // that, it says, began at T0.
    for (let m = 10; m <= 40; m += 1) {
      await probeEveryVendor(r.store, T0 + m * MINUTE_MS, m === 10 ? "ok" : "fail");
    }
    const listed = T0 + 45 * MINUTE_MS;
    await recordReading(r.store, "acme", {
      ...calm,
      incidents: [{
        externalId: "inc1",
        title: "Elevated errors",
        status: "INVESTIGATING",
        impact: "MINOR",
        startedAt: T0,
        updatedAt: T0,
        resolvedAt: null,
        url: null,
        componentIds: [],
        updates: [{ at: T0, status: "INVESTIGATING", body: "We are looking into it" }],
      }],
    }, listed);
    r.clock.set(listed + 10_000);
    r.cache.clear();
    const api = await (await r.get("/api/services/acme")).json();
    equal(api.earlyWarning.phase, "acknowledged");
    equal(api.earlyWarning.acknowledgedAt, new Date(listed).toISOString());
    equal(api.earlyWarning.vendorClaimedStart, new Date(T0).toISOString(), "kept beside it");
    equal(api.earlyWarning.delayMinutes, 34, "from the first failing round, not the claimed start");
    match(
      api.earlyWarning.summary,
      /acme acknowledged it 34 min later \(its status page reads operational\); it dates the trouble from 12:00 UTC\./,
    );
    equal(api.trackRecord.backdatedIncidents, 1);
    const page = await (await r.get("/services/acme", HTML)).text();
    match(
      visibleText(section(page, "own-eyes")),
      /1 incident back-dated in 90 days: .* Elevated errors: begun .* as the vendor says; first listed/,
    );
  } finally {
    await r.close();
  }
});

Deno.test("a service shows what statusd probes of it and each target's last answer", async () => {
  const r = apiRig();
  try {
    await r.store.catalog.sync([{
      name: "Acme",
      slug: "acme",
      statusPageUrl: "https://status.acme.test/",
      platform: "statuspage",
      category: "other",
      provider: "acme",
      domains: ["acme.test"],
      probes: ["https://api.acme.test/health", "https://status.acme.test:8443/ping"],
    }], T0);
    const before = await (await r.get("/api/services/acme")).json();
    deepStrictEqual(before.probeTargets, [
      { url: "https://api.acme.test/health", lastAnswer: null, since: null },
      { url: "https://status.acme.test:8443/ping", lastAnswer: null, since: null },
    ]);
    const [v] = await r.store.warnings.claimDue(T0, 10, "all", 1);
    await stepVendorWarning(r.store.warnings, v!, T0, false, {
      round: { at: T0, total: 2, failed: 1, failing: ["api.acme.test"] },
      answered: { "https://status.acme.test:8443/ping": T0 },
      lastAnswers: {
        "https://api.acme.test/health": { answer: "down", since: T0 },
        "https://status.acme.test:8443/ping": { answer: "up", since: T0 - 60_000 },
      },
    });
    r.cache.clear();
    const after = await (await r.get("/api/services/acme")).json();
    deepStrictEqual(after.probeTargets, [
      {
        url: "https://api.acme.test/health",
        lastAnswer: "down",
        since: new Date(T0).toISOString(),
      },
      {
        url: "https://status.acme.test:8443/ping",
        lastAnswer: "up",
        since: new Date(T0 - 60_000).toISOString(),
      },
    ]);
    const page = visibleText(
      section(await (await r.get("/services/acme", HTML)).text(), "own-eyes"),
    );
    match(
      page,
      /What statusd probes of it: https:\/\/api\.acme\.test\/health: does not answer since/,
    );
    match(page, /https:\/\/status\.acme\.test:8443\/ping: answers since/);
  } finally {
    await r.close();
  }
});
