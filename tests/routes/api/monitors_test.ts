/**
 * `/api/user/monitors` through REST: CRUD with both header forms, scope refusals with their
 * exact body, another account's monitor as 404, If-Match (412 on a stale write), unknown slugs
 * and components as 400 naming the field with close matches, the FREE limit, and a status
 * computed from the chosen components only.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import type { ComponentSnapshot, Snapshot } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, key, setPlanInStore, T0, testContext } from "../../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../../support/seed.ts";

const REGIONS = ["eu-west-1", "us-east-1", "ap-south-1"];

function page(down: string[] = []): Snapshot {
  const components: ComponentSnapshot[] = REGIONS.map((r) => ({
    externalId: r,
    name: `Amazon EC2 (${r})`,
    group: null,
    status: down.includes(r) ? "MAJOR_OUTAGE" : "OPERATIONAL",
  }));
  return { indicator: down.length ? "MAJOR_OUTAGE" : "OPERATIONAL", components, incidents: [] };
}

async function setup() {
  const ctx = testContext();
  await syncVendors(ctx.store, [
    vendorOf({ slug: "aws", name: "AWS" }),
    vendorOf({ slug: "github" }),
  ], T0 - 40 * 86_400_000);
  await recordReading(ctx.store, "aws", page(), T0 - 30 * 86_400_000);
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  const rw = await key(ctx, who, "rw", ["monitors:read", "monitors:write"]);
  return { ctx, app, who, rw };
}

function call(
  app: ReturnType<typeof createServer>,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  return app.request(path, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

Deno.test("monitors: create, read, list, update, delete with either header form", async () => {
  const { app, rw } = await setup();
  const forms: Record<string, string>[] = [{ "X-API-Key": rw }, { Authorization: `Bearer ${rw}` }];
  for (const auth of forms) {
    const created = await call(app, "POST", "/api/user/monitors", auth, {
      service: "aws",
      components: ["amazon ec2 (eu-west-1)"],
      label: "compute",
    });
    equal(created.status, 201);
    const m = await created.json();
    equal(created.headers.get("location"), `/api/user/monitors/${m.id}`);
    equal(created.headers.get("etag"), '"v1"');
    deepStrictEqual(m.components, ["Amazon EC2 (eu-west-1)"], "stored as the vendor names it");
    equal(m.currentStatus, "OPERATIONAL");
    equal(m.state, "ok");
    const read = await call(app, "GET", `/api/user/monitors/${m.id}`, auth);
    equal(read.status, 200);
    equal(read.headers.get("etag"), '"v1"');
    const patched = await call(app, "PATCH", `/api/user/monitors/${m.id}`, {
      ...auth,
      "If-Match": '"v1"',
    }, { paused: true });
    equal(patched.status, 200);
    equal(patched.headers.get("etag"), '"v2"');
    equal((await patched.json()).paused, true);
    const list = await (await call(app, "GET", "/api/user/monitors", auth)).json();
    equal(list.totalElements, 1);
    equal(list.content[0].id, m.id);
    equal((await call(app, "DELETE", `/api/user/monitors/${m.id}`, auth)).status, 204);
    equal((await call(app, "GET", `/api/user/monitors/${m.id}`, auth)).status, 404);
  }
});

Deno.test("monitors: each scope is required, with the exact 403 body", async () => {
  const { ctx, app, who } = await setup();
  const readOnly = await key(ctx, who, "ro", ["monitors:read"]);
  const other = await key(ctx, who, "status", ["status:read"]);
  const write = await call(app, "POST", "/api/user/monitors", { "X-API-Key": readOnly }, {
    service: "aws",
  });
  equal(write.status, 403);
  deepStrictEqual(await write.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "monitors:write" scope',
    requiredScope: "monitors:write",
  });
  const read = await call(app, "GET", "/api/user/monitors", { "X-API-Key": other });
  equal(read.status, 403);
  deepStrictEqual(await read.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "monitors:read" scope',
    requiredScope: "monitors:read",
  });
  equal((await call(app, "GET", "/api/user/monitors", {})).status, 401);
});

Deno.test("monitors: another account's monitor is a 404 for every verb", async () => {
  const { ctx, app, rw } = await setup();
  const stranger = await account(ctx, "other@example.com");
  const theirs = await key(ctx, stranger, "rw", ["monitors:read", "monitors:write"]);
  const m = await (await call(app, "POST", "/api/user/monitors", { "X-API-Key": rw }, {
    service: "github",
  })).json();
  const auth = { "X-API-Key": theirs };
  equal((await call(app, "GET", `/api/user/monitors/${m.id}`, auth)).status, 404);
  equal(
    (await call(app, "PATCH", `/api/user/monitors/${m.id}`, auth, { paused: true })).status,
    404,
  );
  equal((await call(app, "DELETE", `/api/user/monitors/${m.id}`, auth)).status, 404);
  equal((await (await call(app, "GET", "/api/user/monitors", auth)).json()).totalElements, 0);
  equal((await call(app, "GET", `/api/user/monitors/${m.id}`, { "X-API-Key": rw })).status, 200);
});

Deno.test("monitors: a stale If-Match is refused with 412 and changes nothing", async () => {
  const { app, rw } = await setup();
  const auth = { "X-API-Key": rw };
  const m = await (await call(app, "POST", "/api/user/monitors", auth, { service: "aws" })).json();
  await call(app, "PATCH", `/api/user/monitors/${m.id}`, { ...auth, "If-Match": '"v1"' }, {
    label: "first",
  });
  const late = await call(app, "PATCH", `/api/user/monitors/${m.id}`, {
    ...auth,
    "If-Match": '"v1"',
  }, { label: "second" });
  equal(late.status, 412);
  equal((await late.json()).error, "precondition_failed");
  equal((await (await call(app, "GET", `/api/user/monitors/${m.id}`, auth)).json()).label, "first");
  equal(
    (await call(app, "DELETE", `/api/user/monitors/${m.id}`, { ...auth, "If-Match": '"v1"' }))
      .status,
    412,
  );
  equal(
    (await call(app, "PATCH", `/api/user/monitors/${m.id}`, { ...auth, "If-Match": "nonsense" }, {
      paused: true,
    })).status,
    400,
  );
});

Deno.test("monitors: unknown services and components are 400 naming the field, with close matches", async () => {
  const { app, rw } = await setup();
  const auth = { "X-API-Key": rw };
  const badService = await call(app, "POST", "/api/user/monitors", auth, { service: "githb" });
  equal(badService.status, 400);
  const s = await badService.json();
  equal(s.issues[0].parameter, "service");
  match(s.issues[0].message, /did you mean "github"/);
  const badComponent = await call(app, "POST", "/api/user/monitors", auth, {
    service: "aws",
    components: ["Amazon EC2 (eu-west-1)", "Amazon EC2 (eu-west-2)"],
  });
  equal(badComponent.status, 400);
  const c = await badComponent.json();
  equal(c.issues[0].parameter, "components.1");
  match(c.issues[0].message, /did you mean "Amazon EC2 \(eu-west-1\)"/);
  const extra = await call(app, "POST", "/api/user/monitors", auth, { service: "aws", colour: 1 });
  equal(extra.status, 400);
});

Deno.test("monitors: a flip on an unwatched component leaves a narrowed monitor operational", async () => {
  const { ctx, app, rw } = await setup();
  const auth = { "X-API-Key": rw };
  const narrowed = await (await call(app, "POST", "/api/user/monitors", auth, {
    service: "aws",
    components: ["Amazon EC2 (eu-west-1)"],
  })).json();
  const whole = await (await call(app, "POST", "/api/user/monitors", auth, { service: "aws" }))
    .json();
  await recordReading(ctx.store, "aws", page(["ap-south-1"]), T0 - 86_400_000);
  const get = async (id: string) =>
    await (await call(app, "GET", `/api/user/monitors/${id}`, auth)).json();
  const n = await get(narrowed.id);
  equal(n.currentStatus, "OPERATIONAL");
  equal(n.uptime30d, 100);
  const w = await get(whole.id);
  equal(w.currentStatus, "MAJOR_OUTAGE");
  ok(w.uptime30d < 100);
  const broken = await (await call(app, "GET", "/api/user/monitors?status=MAJOR_OUTAGE", auth))
    .json();
  deepStrictEqual(broken.content.map((m: { id: string }) => m.id), [whole.id]);
});

Deno.test("monitors: a FREE account keeps up to 10, then 403 plan_required naming the limit", async () => {
  const { ctx, app, who, rw } = await setup();
  const auth = { "X-API-Key": rw };
  // Twelve services (one monitor of each: the same service twice is a 409).
  const slugs = Array.from({ length: 12 }, (_, i) => `svc-${i}`);
  await syncVendors(ctx.store, slugs.map((slug) => vendorOf({ slug })), T0);
  for (const service of slugs.slice(0, 10)) {
    equal((await call(app, "POST", "/api/user/monitors", auth, { service })).status, 201);
  }
  await setPlanInStore(ctx, who.account.id, "FREE");
  const refused = await call(app, "POST", "/api/user/monitors", auth, { service: "svc-10" });
  equal(refused.status, 403);
  const body = await refused.json();
  equal(body.error, "plan_required");
  equal(body.requiredPlan, "PRO");
  match(body.message, /More than 10 monitors/);
  await setPlanInStore(ctx, who.account.id, "PRO");
  equal((await call(app, "POST", "/api/user/monitors", auth, { service: "svc-10" })).status, 201);
});

Deno.test("monitors: a retried POST with the same Idempotency-Key creates one monitor", async () => {
  const { ctx, app, who, rw } = await setup();
  const auth = { "X-API-Key": rw, "Idempotency-Key": "7f3c2a9e-4d1b-4b7e-9a55-0c2f1e8d6b11" };
  const first = await call(app, "POST", "/api/user/monitors", auth, { service: "github" });
  equal(first.status, 201);
  equal(first.headers.get("idempotent-replayed"), null);
  const m = await first.json();
  const again = await call(app, "POST", "/api/user/monitors", auth, { service: "github" });
  equal(again.status, 201);
  equal(again.headers.get("idempotent-replayed"), "true");
  equal(again.headers.get("location"), `/api/user/monitors/${m.id}`);
  equal((await again.json()).id, m.id);
  const list = await (await call(app, "GET", "/api/user/monitors", { "X-API-Key": rw })).json();
  equal(list.totalElements, 1, "one monitor for two requests");

  const other = await call(app, "POST", "/api/user/monitors", auth, { service: "aws" });
  equal(other.status, 422);
  equal((await other.json()).error, "idempotency_key_reused");

  // Still being processed elsewhere (another instance, or a slow first try): 409.
  await ctx.store.idempotency.begin(who.account.id, "busy-key", "x", T0, 0);
  const busy = await call(app, "POST", "/api/user/monitors", {
    "X-API-Key": rw,
    "Idempotency-Key": "busy-key",
  }, { service: "aws", components: ["Amazon EC2 (ap-south-1)"] });
  equal(busy.status, 409);
  equal((await busy.json()).error, "conflict");

  // A create that fails leaves the key free for a corrected retry.
  const key = { "X-API-Key": rw, "Idempotency-Key": "fix-and-retry" };
  equal((await call(app, "POST", "/api/user/monitors", key, { service: "githb" })).status, 400);
  equal((await call(app, "POST", "/api/user/monitors", key, { service: "aws" })).status, 201);
  const bad = await call(app, "POST", "/api/user/monitors", {
    "X-API-Key": rw,
    "Idempotency-Key": "x".repeat(256),
  }, { service: "github" });
  equal(bad.status, 400);
});

Deno.test("monitors: the same service with the same components again is a 409 naming the first; others are fine", async () => {
  const { ctx, app, rw } = await setup();
  try {
    const auth = { "X-API-Key": rw };
    const post = (body: unknown) => call(app, "POST", "/api/user/monitors", auth, body);
    const first = await (await post({
      service: "aws",
      components: ["Amazon EC2 (eu-west-1)", "Amazon EC2 (us-east-1)"],
    })).json();
    const again = await post({
      service: "aws",
      components: ["amazon ec2 (us-east-1)", "Amazon EC2 (eu-west-1)"],
      label: "another name",
    });
    equal(again.status, 409);
    const body = await again.json();
    equal(body.error, "conflict");
    match(
      body.message,
      new RegExp(`already monitors aws with the same components: monitor ${first.id}`),
    );
    equal((await post({ service: "aws", components: ["Amazon EC2 (eu-west-1)"] })).status, 201);
    equal((await post({ service: "aws" })).status, 201, "the whole service is another monitor");
    equal((await post({ service: "aws" })).status, 409);
    const list = await (await call(app, "GET", "/api/user/monitors", auth)).json();
    equal(list.totalElements, 3, "nothing stored by a refused create");
  } finally {
    await ctx.store.close();
  }
});
