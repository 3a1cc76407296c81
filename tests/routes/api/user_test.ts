import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import {
  createBoard,
  createEscalation,
  createGroup,
  createMonitor,
  createRoute,
  createRule,
  createSubscription,
  revokeKeyByName,
  sendTest,
  setSlaTarget,
} from "../../../app/mod.ts";
import {
  ALL_SCOPES,
  bucketLatencyMs,
  DAY_MS,
  HOUR_MS,
  type IncidentSnapshot,
  LATENCY_RELATIVE_ERROR,
  latencyBucket,
  MINUTE_MS,
  type Scope,
  type Snapshot,
} from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import {
  account,
  key,
  setPlanInStore,
  storeRawKey,
  T0,
  testContext,
} from "../../support/accounts.ts";
import { syncVendors, vendorOf } from "../../support/seed.ts";

async function setup() {
  const ctx = testContext();
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  return {
    [Symbol.asyncDispose]: () => ctx.store.close(),
    ctx,
    app,
    who,
  };
}

const get = (app: ReturnType<typeof createServer>, path: string, headers: HeadersInit = {}) =>
  app.request(path, { headers });

Deno.test("both header forms are accepted: X-API-Key and Authorization: Bearer", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const secret = await key(ctx, who, "ci", ["account:read"]);
  const forms: HeadersInit[] = [{ "X-API-Key": secret }, { Authorization: `Bearer ${secret}` }];
  for (const headers of forms) {
    const res = await get(app, "/api/user/api-keys", headers);
    equal(res.status, 200);
    deepStrictEqual((await res.json()).content.map((k: { name: string }) => k.name), ["ci"]);
  }
});

Deno.test("unknown, malformed, missing and revoked keys get 401 with WWW-Authenticate", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const secret = await key(ctx, who, "ci", ["account:read"]);
  const revoked = await key(ctx, who, "old", ["account:read"]);
  await app.request("/api/user/api-keys", { headers: { "X-API-Key": secret } });
  await revokeKeyByName(ctx, { kind: "admin", account: who.account }, "old");
  const cases: [string, HeadersInit][] = [
    ["unknown", { "X-API-Key": "sd_live_" + "Z".repeat(43) }],
    ["malformed", { "X-API-Key": "sd_live_oops" }],
    ["not ours", { Authorization: "Bearer abc.def.ghi" }],
    ["empty bearer", { Authorization: "Bearer " }],
    ["missing", {}],
    ["revoked", { Authorization: `Bearer ${revoked}` }],
  ];
  for (const [label, headers] of cases) {
    for (const path of ["/api/user/api-keys", "/api/user/api-keys/scopes"]) {
      const res = await get(app, path, headers);
      equal(res.status, 401, `${label} ${path}`);
      match(res.headers.get("WWW-Authenticate") ?? "", /^Bearer /, label);
      const body = await res.json();
      equal(body.error, "unauthorized");
      equal(body.status, 401);
    }
  }
});

Deno.test("a key without the scope gets exactly the insufficient_scope body", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const secret = await key(ctx, who, "sla only", ["sla:read"]);
  const res = await get(app, "/api/user/api-keys", { "X-API-Key": secret });
  equal(res.status, 403);
  const body = await res.json();
  deepStrictEqual(Object.keys(body).sort(), ["error", "message", "requiredScope", "status"]);
  deepStrictEqual({ ...body, message: undefined }, {
    error: "insufficient_scope",
    status: 403,
    requiredScope: "account:read",
    message: undefined,
  });
  match(body.message, /account:read/);
});

/**
 * A vendor with one outage and its incident, and 20 hourly fetches answered in 10..200 ms (for
 * the SLA report), recorded through the store's port as the poller would.
 */
async function seedVendor(ctx: ReturnType<typeof testContext>) {
  const now = ctx.clock.now();
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme" })], now - 41 * DAY_MS);
  const id = (await ctx.store.catalog.service("acme"))!.id;
  const outage = now - 2 * DAY_MS;
  const inc: IncidentSnapshot = {
    externalId: "inc-1",
    title: "API unavailable",
    status: "INVESTIGATING",
    impact: "MAJOR",
    startedAt: outage,
    updatedAt: outage,
    resolvedAt: null,
    url: null,
    componentIds: [],
    updates: [],
  };
  const resolved = { ...inc, status: "RESOLVED" as const, resolvedAt: outage + 90 * MINUTE_MS };
  const page = (indicator: Snapshot["indicator"], incidents: IncidentSnapshot[]): Snapshot => ({
    indicator,
    components: [],
    incidents,
  });
  const read = (snapshot: Snapshot, at: number, latencyMs: number) =>
    ctx.store.polls.recordSuccess(id, snapshot, {
      at,
      latencyMs,
      httpStatus: 200,
      nextPollAt: at + HOUR_MS,
      deadlineAt: at + HOUR_MS,
      etag: null,
      lastModified: null,
      notes: [],
    });
  await read(page("OPERATIONAL", []), now - 40 * DAY_MS, 5); // outside a 30-day window
  // The outage's two readings are measured answers too (100 ms each).
  await read(page("MAJOR_OUTAGE", [inc]), outage, 100);
  await read(page("OPERATIONAL", [resolved]), outage + 90 * MINUTE_MS, 100);
  for (let i = 20; i >= 1; i--) {
    if (i === 3) {
      // A timeout is not a measured answer.
      await ctx.store.polls.recordFailure(id, {
        at: now - 3 * HOUR_MS - MINUTE_MS,
        latencyMs: 10_000,
        httpStatus: null,
        nextPollAt: now,
        deadlineAt: now,
        outcome: "timeout",
        detail: "no answer",
        stale: false,
        platformMiss: false,
      });
    }
    await read(page("OPERATIONAL", [resolved]), now - i * HOUR_MS, i * 10);
  }
}

Deno.test("the SLA report: uptime against the account target, MTTR, fetch percentiles, breaches", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  await seedVendor(ctx);
  const secret = await key(ctx, who, "sla", ["sla:read"]);
  const res = await get(app, "/api/user/services/acme/sla?days=30", { "X-API-Key": secret });
  equal(res.status, 200);
  const r = await res.json();
  equal(r.days, 30);
  equal(r.targetPercent, 99.9);
  equal(r.uptimePercent, 99.792); // 1.5 h of 720 h down
  equal(r.met, false);
  equal(r.mttrMinutes, 90);
  // 22 known latencies: exact nearest-rank p50 100 ms, p95 190 ms, p99 200 ms. The report reads
  // them from the daily summary: the middle of each one's bucket, within ±4.9 %.
  const exact = { p50: 100, p95: 190, p99: 200 };
  deepStrictEqual(r.latency, {
    samples: 22,
    p50: bucketLatencyMs(latencyBucket(exact.p50)),
    p95: bucketLatencyMs(latencyBucket(exact.p95)),
    p99: bucketLatencyMs(latencyBucket(exact.p99)),
  });
  for (const p of ["p50", "p95", "p99"] as const) {
    ok(Math.abs(r.latency[p] - exact[p]) <= LATENCY_RELATIVE_ERROR * exact[p], p);
  }
  deepStrictEqual(
    r.breaches.map((b: { kind: string; incidents: { title: string }[] }) => [
      b.kind,
      b.incidents.map((i) => i.title),
    ]),
    [["day", ["API unavailable"]], ["rolling", ["API unavailable"]], ["rolling", [
      "API unavailable",
    ]], ["rolling", ["API unavailable"]]],
  );
  // A lower target set by the self-hoster: met, no breaches of a whole week.
  await setSlaTarget(ctx, "owner@example.com", 99);
  const low = await (await get(app, "/api/user/services/acme/sla?days=7", { "X-API-Key": secret }))
    .json();
  deepStrictEqual([low.targetPercent, low.met, low.breaches.map((b: { kind: string }) => b.kind)], [
    99,
    true,
    ["day"],
  ]);
});

Deno.test("the SLA report checks days, the slug and the plan", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  await seedVendor(ctx);
  const secret = await key(ctx, who, "sla", ["sla:read"]);
  const h = { "X-API-Key": secret };
  for (const days of ["0", "91", "abc", "1.5"]) {
    const res = await get(app, `/api/user/services/acme/sla?days=${days}`, h);
    equal(res.status, 400, days);
    equal((await res.json()).issues[0].parameter, "days");
  }
  equal((await (await get(app, "/api/user/services/acme/sla", h)).json()).days, 30);
  const missing = await get(app, "/api/user/services/acmee/sla", h);
  equal(missing.status, 404);
  deepStrictEqual((await missing.json()).suggestions, ["acme"]);
  await setPlanInStore(ctx, who.account.id, "FREE");
  const free = await get(app, "/api/user/services/acme/sla", h);
  equal(free.status, 403);
  deepStrictEqual(await free.json(), {
    error: "plan_required",
    status: 403,
    requiredPlan: "PRO",
    message: "SLA reports requires the PRO plan or above",
  });
});

Deno.test("each of the nine scopes opens exactly the operations that declare it", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  await seedVendor(ctx);
  const admin = { kind: "admin", account: who.account } as const;
  const monitor = await createMonitor(ctx, admin, { service: "acme" });
  const group = await createGroup(ctx, admin, { name: "g", monitors: [monitor.id] });
  const board = await createBoard(ctx, admin, { slug: "acme-board", title: "b" });
  const route = await createRoute(ctx, admin, {
    name: "r",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  });
  const rule = await createRule(ctx, admin, {
    name: "r",
    target: { kind: "all" },
    routes: [route.route.id],
  });
  const event = await sendTest(ctx, admin, route.route.id);
  const subscription = await createSubscription(ctx, admin, {
    target: { kind: "monitor", id: monitor.id },
    route: route.route.id,
  });
  const escalation = await createEscalation(ctx, admin, {
    name: "e",
    steps: [{ routes: [route.route.id], afterMinutes: 0 }],
  });
  const idFor = (path: string) =>
    path.startsWith("/api/user/groups/")
      ? group.id
      : path.startsWith("/api/user/boards/")
      ? board.id
      : path.startsWith("/api/user/alert-routes/")
      ? route.route.id
      : path.startsWith("/api/user/alert-rules/")
      ? rule.id
      : path.startsWith("/api/user/alert-events/")
      ? event.id
      : path.startsWith("/api/user/escalation-policies/")
      ? escalation.id
      : path.startsWith("/api/user/subscriptions/")
      ? subscription.id
      : monitor.id;
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  const ops: { path: string; scopes: Scope[] }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const op = (item as Record<string, Record<string, unknown>>).get;
    const scopes = op?.["x-required-scopes"] as Scope[] | undefined;
    if (!scopes?.length) continue;
    // An operation with a required query is asked with one.
    const query = path === "/api/lookup" ? "?target=status.acme.test" : "";
    ops.push({ path: path.replace("{slug}", "acme").replace("{id}", idFor(path)) + query, scopes });
  }
  // The operations this issue owns are in the table with the scope the SPEC names.
  const declared = Object.fromEntries(ops.map((o) => [o.path, o.scopes]));
  deepStrictEqual(declared["/api/user/api-keys"], ["account:read"]);
  deepStrictEqual(declared["/api/user/services/acme/sla"], ["sla:read"]);
  for (const p of ["/api/services/acme/history", "/api/services/acme/uptime"]) {
    if (p in declared) deepStrictEqual(declared[p], ["status:read"]);
  }
  for (const scope of ALL_SCOPES) {
    const secret = await key(ctx, who, `only ${scope}`, [scope]);
    for (const op of ops) {
      const res = await get(app, op.path, { "X-API-Key": secret });
      const body = await res.json();
      if (op.scopes.includes(scope)) {
        ok(res.status < 400, `${scope} on ${op.path}: ${res.status} ${JSON.stringify(body)}`);
      } else {
        equal(res.status, 403, `${scope} on ${op.path}`);
        equal(body.requiredScope, op.scopes.find((s) => s !== scope));
      }
    }
  }
});

Deno.test("a legacy key (no stored scope list) passes every scope check", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  await seedVendor(ctx);
  const legacy = await storeRawKey(ctx, who.account.id, "from 2023", null);
  for (
    const path of ["/api/user/api-keys", "/api/user/services/acme/sla", "/api/user/api-keys/scopes"]
  ) {
    equal((await get(app, path, { Authorization: `Bearer ${legacy}` })).status, 200, path);
  }
  const listed = await (await get(app, "/api/user/api-keys", { "X-API-Key": legacy })).json();
  deepStrictEqual(
    listed.content.map((k: { legacy: boolean; scopes: string[] }) => [k.legacy, k.scopes]),
    [[true, ALL_SCOPES]],
  );
});

Deno.test("listings show metadata and last use, never the secret or its hash", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const secret = await key(ctx, who, "ci", ["account:read"]);
  await get(app, "/api/user/api-keys", { "X-API-Key": secret });
  await ctx.keyUses.flush();
  const text = await (await get(app, "/api/user/api-keys", { "X-API-Key": secret })).text();
  const [k] = JSON.parse(text).content;
  deepStrictEqual(Object.keys(k).sort(), [
    "createdAt",
    "id",
    "lastUsedAt",
    "legacy",
    "name",
    "prefix",
    "scopes",
  ]);
  equal(k.lastUsedAt, new Date(T0).toISOString());
  equal(k.prefix, secret.slice(0, 12));
  ok(!text.includes(secret.slice(12)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  equal((await ctx.store.keys.byHash(hash))?.keyHash, hash, "the hash the store keeps");
  ok(!text.includes(hash));
  ok(!ctx.lines.some((l) => l.includes(secret.slice(12))));
});

Deno.test("the scope list is readable by any key and names all nine with what they grant", async () => {
  await using rig_ = await setup();
  const { ctx, app, who } = rig_;
  const secret = await key(ctx, who, "narrow", ["mcp:invoke"]);
  const body = await (await get(app, "/api/user/api-keys/scopes", { "X-API-Key": secret })).json();
  equal(body.totalElements, 9);
  deepStrictEqual(body.content.map((s: { scope: string }) => s.scope), ALL_SCOPES);
  match(body.content[2].grants, /SLA reports/);
});

Deno.test("the account operations are described in OpenAPI with x-required-scopes", async () => {
  await using rig_ = await setup();
  const { app } = rig_;
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  const sla = doc.paths!["/api/user/services/{slug}/sla"]!.get!;
  equal(sla.operationId, "getServiceSlaReport");
  deepStrictEqual(sla["x-required-scopes" as keyof typeof sla], ["sla:read"]);
  match(sla.description!, /measured fetches of the vendor's status\s+endpoint/);
  equal(doc.paths!["/api/user/api-keys"]!.get!.operationId, "listApiKeys");
  deepStrictEqual(
    doc.paths!["/api/user/api-keys/scopes"]!.get!["x-required-scopes" as "description"],
    [],
  );
});
