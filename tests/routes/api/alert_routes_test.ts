/**
 * `/api/user/alert-routes` and `/api/user/alert-events` through REST (issue #13): CRUD with both
 * header forms, the webhook secret shown once and never listed, destinations refused (private
 * addresses, email without a mail server, bad settings) naming the field, scope refusals with
 * their exact body, another account's route or event as 404, If-Match, "send test" delivered
 * by the worker to a loopback receiver with the attempt in the event, redeliver, and resuming a
 * paused route.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { parseAllowance } from "../../../lib/mod.ts";
import { silentLogger } from "../../../log.ts";
import { checkDestination, createHttpSender } from "../../../outbound/send_http.ts";
import { createDeliveryWorker } from "../../../outbound/worker.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, key, testContext } from "../../support/accounts.ts";
import { startReceivers } from "../../support/receivers.ts";

const LOOPBACK = (() => {
  const r = parseAllowance("127.0.0.1");
  if (!r.ok) throw new Error();
  return r.allowance;
})();

async function setup(opts: { allowLoopback?: boolean } = {}) {
  const allowance = opts.allowLoopback === false
    ? (parseAllowance("off") as { ok: true; allowance: typeof LOOPBACK }).allowance
    : LOOPBACK;
  const ctx = testContext({
    clock: { now: () => Date.now() },
    checkDestination: async (url) => {
      const c = await checkDestination(new URL(url), allowance);
      return "refused" in c ? c.refused : null;
    },
  });
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  const rw = await key(ctx, who, "rw", ["alerts:read", "alerts:write"]);
  return { ctx, app, who, rw, auth: { "X-API-Key": rw } };
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

Deno.test("alert routes: create, read, list, update, delete with either header form; the secret once", async () => {
  const { app, rw } = await setup();
  const forms: Record<string, string>[] = [{ "X-API-Key": rw }, { Authorization: `Bearer ${rw}` }];
  for (const auth of forms) {
    const made = await call(app, "POST", "/api/user/alert-routes", auth, {
      name: "Receiver",
      settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks/statusd" },
    });
    equal(made.status, 201, await made.clone().text());
    const r = await made.json();
    equal(made.headers.get("location"), `/api/user/alert-routes/${r.id}`);
    equal(made.headers.get("etag"), '"v1"');
    match(r.secret, /^whsec_/);
    equal(r.kind, "webhook");
    equal(r.destination, "http://127.0.0.1:9/•••");
    const read = await (await call(app, "GET", `/api/user/alert-routes/${r.id}`, auth)).text();
    ok(!read.includes(r.secret), "never shown again");
    ok(!read.includes("statusd"), "the URL's path is masked");
    const list = await (await call(app, "GET", "/api/user/alert-routes", auth)).text();
    ok(!list.includes(r.secret));
    const renamed = await call(app, "PATCH", `/api/user/alert-routes/${r.id}`, {
      ...auth,
      "If-Match": '"v1"',
    }, { name: "Renamed" });
    equal(renamed.status, 200);
    equal((await renamed.json()).name, "Renamed");
    const stale = await call(app, "PATCH", `/api/user/alert-routes/${r.id}`, {
      ...auth,
      "If-Match": '"v1"',
    }, { name: "Again" });
    equal(stale.status, 412);
    equal((await call(app, "DELETE", `/api/user/alert-routes/${r.id}`, auth)).status, 204);
    equal((await call(app, "GET", `/api/user/alert-routes/${r.id}`, auth)).status, 404);
  }
});

Deno.test("alert routes: refused destinations and settings name the field", async () => {
  const { app, auth } = await setup({ allowLoopback: false });
  const post = (settings: unknown) =>
    call(app, "POST", "/api/user/alert-routes", auth, { name: "x", settings });
  const loop = await post({ kind: "slack", url: "http://127.0.0.1:8080/hook" });
  equal(loop.status, 400);
  const issue = (await loop.json()).issues[0];
  equal(issue.parameter, "settings.url");
  match(issue.message, /127\.0\.0\.1 is not a public address \(loopback\)/);
  const mapped = await post({ kind: "discord", url: "http://[::ffff:10.0.0.5]/x" });
  equal(mapped.status, 400);
  match((await mapped.json()).issues[0].message, /not a public address/);
  const mail = await post({ kind: "email", to: ["oncall@example.com"] });
  equal(mail.status, 400);
  match((await mail.json()).issues[0].message, /STATUSD_SMTP_URL/);
  const pd = await post({ kind: "pagerduty", routingKey: "short" });
  equal(pd.status, 400);
  equal((await pd.json()).issues[0].parameter, "settings.routingKey");
  const kind = await post({ kind: "carrier-pigeon", url: "https://example.com" });
  equal(kind.status, 400);
  const secret = await post({ kind: "webhook", url: "https://example.com/h", secret: "whsec_x" });
  equal(secret.status, 400);
  equal((await secret.json()).issues[0].parameter, "settings.secret");
});

Deno.test("alert routes: scopes, and another account's route and events are 404", async () => {
  const { ctx, app, who, auth } = await setup();
  const monitorsOnly = await key(ctx, who, "m", ["monitors:read"]);
  const readOnly = await key(ctx, who, "r", ["alerts:read"]);
  const none = await call(app, "GET", "/api/user/alert-routes", { "X-API-Key": monitorsOnly });
  equal(none.status, 403);
  deepStrictEqual(await none.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "alerts:read" scope',
    requiredScope: "alerts:read",
  });
  const write = await call(app, "POST", "/api/user/alert-routes", { "X-API-Key": readOnly }, {
    name: "x",
    settings: { kind: "slack", url: "https://hooks.slack.com/services/a" },
  });
  equal(write.status, 403);
  deepStrictEqual(await write.json(), {
    error: "insufficient_scope",
    status: 403,
    message: 'This operation requires the "alerts:write" scope',
    requiredScope: "alerts:write",
  });
  equal((await call(app, "GET", "/api/user/alert-events", {})).status, 401);
  const r = await (await call(app, "POST", "/api/user/alert-routes", auth, {
    name: "mine",
    settings: { kind: "slack", url: "http://127.0.0.1:9/services/x" },
  })).json();
  const test = await (await call(app, "POST", `/api/user/alert-routes/${r.id}/test`, auth)).json();
  const stranger = await account(ctx, "other@example.com");
  const theirs = { "X-API-Key": await key(ctx, stranger, "o", ["alerts:read", "alerts:write"]) };
  for (
    const [method, path] of [
      ["GET", `/api/user/alert-routes/${r.id}`],
      ["PATCH", `/api/user/alert-routes/${r.id}`],
      ["DELETE", `/api/user/alert-routes/${r.id}`],
      ["POST", `/api/user/alert-routes/${r.id}/test`],
      ["GET", `/api/user/alert-events/${test.id}`],
      ["POST", `/api/user/alert-events/${test.id}/redeliver`],
    ]
  ) {
    const res = await call(
      app,
      method!,
      path!,
      theirs,
      method === "PATCH" ? { name: "x" } : undefined,
    );
    equal(res.status, 404, `${method} ${path}`);
    await res.body?.cancel();
  }
  equal((await (await call(app, "GET", "/api/user/alert-events", theirs)).json()).totalElements, 0);
});

Deno.test("send test: queued (202), delivered by the worker, the attempt shown; redeliver sends the same id again", async () => {
  const { ctx, app, auth } = await setup();
  const rx = startReceivers();
  const http = createHttpSender({ timeoutMs: 2_000, allowPrivate: LOOPBACK });
  const worker = createDeliveryWorker({
    store: ctx.store,
    http,
    mail: null,
    clock: ctx.clock,
    log: silentLogger,
    instanceId: "t",
  });
  try {
    const made = await (await call(app, "POST", "/api/user/alert-routes", auth, {
      name: "hooks",
      settings: { kind: "webhook", url: `${rx.origin}/webhook` },
    })).json();
    const queued = await call(app, "POST", `/api/user/alert-routes/${made.id}/test`, auth);
    equal(queued.status, 202);
    const event = await queued.json();
    equal(queued.headers.get("location"), `/api/user/alert-events/${event.id}`);
    equal(event.state, "pending");
    equal(event.trigger, "test");
    await worker.runOnce();
    await worker.stop();
    const got = await (await call(app, "GET", `/api/user/alert-events/${event.id}`, auth)).json();
    equal(got.state, "delivered");
    equal(got.attempts.length, 1);
    equal(got.attempts[0].status, 200);
    equal(got.nextAttemptAt, null);
    const [first] = rx.on("/webhook");
    const body = new Webhook(made.secret).verify(first!.body, first!.headers) as { type: string };
    equal(body.type, "alert.test");
    const again = await call(app, "POST", `/api/user/alert-events/${event.id}/redeliver`, auth);
    equal(again.status, 202);
    await worker.runOnce();
    await worker.stop();
    const twice = rx.on("/webhook");
    equal(twice.length, 2);
    equal(twice[1]!.headers["webhook-id"], twice[0]!.headers["webhook-id"], "same id: dedupable");
    const listed = await (await call(app, "GET", "/api/user/alert-events?state=delivered", auth))
      .json();
    equal(listed.totalElements, 1);
    equal((await call(app, "GET", "/api/user/alert-events?state=lost", auth)).status, 400);
  } finally {
    http.close();
    await rx.close();
  }
});

Deno.test("a paused route is resumed with PATCH {paused: false}", async () => {
  const { ctx, app, who, auth } = await setup();
  const made = await (await call(app, "POST", "/api/user/alert-routes", auth, {
    name: "hooks",
    settings: { kind: "slack", url: "http://127.0.0.1:9/services/T/B/X" },
  })).json();
  for (let i = 0; i < 5; i++) {
    await ctx.store.alertRoutes.recordOutcome(who.account.id, made.id, {
      ok: false,
      at: Date.now(),
      pauseAfter: 5,
      reason: "5 deliveries in a row failed",
    });
  }
  const paused = await (await call(app, "GET", `/api/user/alert-routes/${made.id}`, auth)).json();
  match(paused.paused.reason, /5 deliveries/);
  const resumed = await call(app, "PATCH", `/api/user/alert-routes/${made.id}`, auth, {
    paused: false,
  });
  equal(resumed.status, 200);
  const body = await resumed.json();
  equal(body.paused, null);
  equal(body.failuresInARow, 0);
});
