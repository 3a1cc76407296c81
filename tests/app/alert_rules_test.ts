/**
 * Alert rules and the evaluator (issue #13), on the store the suite runs on (SQLite, then
 * PostgreSQL): a flip of a watched component queues one delivery per route, a flip of an
 * unwatched one nothing; the recovery shares the notification; a flap shorter than `forMinutes`
 * is cancelled and sends nothing while a longer one goes; incidents are told when asked;
 * re-reading the same changes queues nothing twice; and a queued alert reaches a receiver with
 * what to do next.
 */
import { deepStrictEqual, equal, match, notEqual, ok } from "node:assert/strict";
import {
  acknowledgeByLink,
  createEscalation,
  createGroup,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
  evaluateReadings,
  EVALUATOR_CURSOR,
  updateRule,
} from "../../app/mod.ts";
import type { Caller } from "../../app/mod.ts";
import type { ComponentSnapshot, Snapshot, StatusLevel } from "../../domain/mod.ts";
import { parseAllowance } from "../../lib/mod.ts";
import { silentLogger } from "../../log.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { account, testContext } from "../support/accounts.ts";
import { startReceivers } from "../support/receivers.ts";
import { recordReading, recordTimeout, syncVendors, vendorOf } from "../support/seed.ts";
import { deliverDue } from "../support/deliver.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;

function aws(levels: Record<string, StatusLevel>): Snapshot {
  const components: ComponentSnapshot[] = Object.entries(levels).map(([r, status]) => ({
    externalId: r,
    name: `Amazon EC2 (${r})`,
    group: null,
    status,
  }));
  return { indicator: "OPERATIONAL", components, incidents: [] };
}

async function setup() {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [
    vendorOf({ slug: "aws", name: "AWS" }),
    vendorOf({ slug: "github", name: "GitHub" }),
  ], T0 - 86_400_000);
  await recordReading(
    ctx.store,
    "aws",
    aws({ "eu-west-1": "OPERATIONAL", "us-east-1": "OPERATIONAL" }),
    T0 - 3_600_000,
  );
  await recordReading(ctx.store, "github", {
    indicator: "OPERATIONAL",
    components: [],
    incidents: [],
  }, T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "hooks",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks" },
  })).route;
  const eu = await createMonitor(ctx, admin, {
    service: "aws",
    components: ["Amazon EC2 (eu-west-1)"],
  });
  const gh = await createMonitor(ctx, admin, { service: "github" });
  // The first round starts at the newest change: history is not re-alerted.
  equal(await evaluateAlerts(ctx), 0);
  const all = async () =>
    (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 100 })).items;
  return {
    ctx,
    admin,
    who,
    route,
    eu,
    gh,
    all,
    at: () => now,
    advance: (ms: number) => (now += ms),
  };
}

Deno.test("a watched component's flip queues one alert per route; an unwatched one nothing; the recovery follows", async () => {
  const s = await setup();
  await createRule(s.ctx, s.admin, {
    name: "EU compute",
    target: { kind: "monitor", id: s.eu.id },
    level: "PARTIAL_OUTAGE",
    routes: [s.route.id],
  });
  s.advance(60_000);
  await recordReading(
    s.ctx.store,
    "aws",
    aws({ "eu-west-1": "OPERATIONAL", "us-east-1": "MAJOR_OUTAGE" }),
    s.at(),
  );
  ok(await evaluateAlerts(s.ctx) > 0);
  deepStrictEqual(await s.all(), [], "us-east-1 is not watched");

  s.advance(60_000);
  await recordReading(
    s.ctx.store,
    "aws",
    aws({ "eu-west-1": "MAJOR_OUTAGE", "us-east-1": "MAJOR_OUTAGE" }),
    s.at(),
  );
  await evaluateAlerts(s.ctx);
  const [alert, ...rest] = await s.all();
  equal(rest.length, 0);
  equal(alert!.routeId, s.route.id);
  equal(alert!.message.trigger, "status");
  equal(alert!.message.level, "MAJOR_OUTAGE");
  equal(alert!.message.summary, "AWS has a major outage");
  deepStrictEqual(alert!.message.components, [{
    name: "Amazon EC2 (eu-west-1)",
    level: "MAJOR_OUTAGE",
  }]);
  equal(alert!.message.service!.statusdUrl, "http://localhost:8080/services/aws");
  equal(alert!.subject, `monitor:${s.eu.id}`);

  // Reading the same changes again queues nothing more (ids come from what caused them).
  const cursor = (await s.ctx.store.deliveries.cursor(EVALUATOR_CURSOR))!;
  await s.ctx.store.deliveries.enqueue([], {
    cursor: { name: EVALUATOR_CURSOR, from: cursor, to: cursor - 2 },
  });
  await evaluateAlerts(s.ctx);
  equal((await s.all()).length, 1);
  equal(await deliverDue(s.ctx), 1, "the alert goes");

  s.advance(60_000);
  await recordReading(
    s.ctx.store,
    "aws",
    aws({ "eu-west-1": "OPERATIONAL", "us-east-1": "MAJOR_OUTAGE" }),
    s.at(),
  );
  await evaluateAlerts(s.ctx);
  const [recovery] = await s.all();
  equal(recovery!.recovery, true);
  equal(recovery!.message.trigger, "recovered");
  equal(recovery!.notificationId, alert!.notificationId, "one notification: PagerDuty resolves it");
});

Deno.test("a flap shorter than forMinutes sends nothing; a longer one goes once", async () => {
  const s = await setup();
  const group = await createGroup(s.ctx, s.admin, { name: "Code", monitors: [s.gh.id] });
  await createRule(s.ctx, s.admin, {
    name: "Code down",
    target: { kind: "group", id: group.id },
    level: "MAJOR_OUTAGE",
    forMinutes: 10,
    routes: [s.route.id],
  });
  const gh = (level: StatusLevel): Snapshot => ({
    indicator: level,
    components: [],
    incidents: [],
  });
  s.advance(60_000);
  await recordReading(s.ctx.store, "github", gh("MAJOR_OUTAGE"), s.at());
  await evaluateAlerts(s.ctx);
  const [waiting] = await s.all();
  equal(waiting!.state, "pending");
  equal(waiting!.notBefore, s.at() + 10 * 60_000, "not before the 10 minutes");
  s.advance(3 * 60_000);
  await recordReading(s.ctx.store, "github", gh("OPERATIONAL"), s.at());
  await evaluateAlerts(s.ctx);
  deepStrictEqual((await s.all()).map((d) => d.state), ["cancelled"], "the flap pages no one");

  s.advance(60_000);
  await recordReading(s.ctx.store, "github", gh("MAJOR_OUTAGE"), s.at());
  await evaluateAlerts(s.ctx);
  s.advance(11 * 60_000);
  await evaluateAlerts(s.ctx);
  const states = (await s.all()).map((d) => d.state).sort();
  deepStrictEqual(states, ["cancelled", "pending"]);
  const due = await s.ctx.store.deliveries.claimDue(s.at(), 10, "t", 60_000);
  equal(due.length, 1, "due after 10 minutes of outage");
});

Deno.test("incidents are told when the rule asks; a rule's unknown target or route is a 400", async () => {
  const s = await setup();
  await createRule(s.ctx, s.admin, {
    name: "GitHub incidents",
    target: { kind: "all" },
    level: null,
    incidents: true,
    routes: [s.route.id],
  });
  s.advance(60_000);
  await recordReading(s.ctx.store, "github", {
    indicator: "DEGRADED_PERFORMANCE",
    components: [],
    incidents: [{
      externalId: "inc-1",
      title: "Degraded Git operations",
      status: "INVESTIGATING",
      impact: "MINOR",
      startedAt: s.at(),
      updatedAt: s.at(),
      resolvedAt: null,
      url: "https://www.githubstatus.com/incidents/1",
      componentIds: [],
      updates: [{ at: s.at(), status: "INVESTIGATING", body: "Looking into it." }],
    }],
  }, s.at());
  await evaluateAlerts(s.ctx);
  const found = await s.all();
  ok(found.length >= 1, "the incident was told");
  match(found[0]!.message.trigger, /^incident_/);
  equal(found[0]!.message.incident!.title, "Degraded Git operations");
  await createRule(s.ctx, s.admin, {
    name: "x",
    target: { kind: "monitor", id: "mon_nope" },
    routes: ["rt_nope"],
  }).then(
    () => ok(false, "refused"),
    (e) =>
      deepStrictEqual(e.issues.map((i: { parameter: string }) => i.parameter), [
        "target.id",
        "routes.0",
      ]),
  );
});

Deno.test("a queued alert reaches the receiver with what to do next", async () => {
  const s = await setup();
  const rx = startReceivers();
  const allow = parseAllowance("127.0.0.1");
  if (!allow.ok) throw new Error();
  const hook = (await createRoute(s.ctx, s.admin, {
    name: "slack",
    settings: { kind: "slack", url: `${rx.origin}/slack` },
  })).route;
  await createRule(s.ctx, s.admin, { name: "All", target: { kind: "all" }, routes: [hook.id] });
  const http = createHttpSender({ timeoutMs: 2_000, allowPrivate: allow.allowance });
  const worker = createDeliveryWorker({
    store: s.ctx.store,
    http,
    mail: null,
    clock: s.ctx.clock,
    log: silentLogger,
    instanceId: "t",
  });
  try {
    s.advance(60_000);
    await recordReading(s.ctx.store, "github", {
      indicator: "MAJOR_OUTAGE",
      components: [],
      incidents: [],
    }, s.at());
    await evaluateAlerts(s.ctx);
    await worker.runOnce();
    await worker.stop();
    const [got] = rx.on("/slack");
    equal(got!.status, 200);
    match(got!.body, /GitHub has a major outage/);
    match(got!.body, /Check GitHub's status page for updates/);
    match(got!.body, /<http:\/\/localhost:8080\/services\/github\|statusd page>/);
  } finally {
    http.close();
    await rx.close();
  }
});

Deno.test("a three-step escalation: each step at its time, the acknowledge link stops the rest", async () => {
  const s = await setup();
  const route = async (name: string) =>
    (await createRoute(s.ctx, s.admin, {
      name,
      settings: { kind: "webhook", url: `http://127.0.0.1:9/${name}` },
    })).route.id;
  const [first, second, third] = [
    await route("first"),
    await route("second"),
    await route("third"),
  ];
  const policy = await createEscalation(s.ctx, s.admin, {
    name: "On call",
    steps: [
      { routes: [first], afterMinutes: 0 },
      { routes: [second], afterMinutes: 5 },
      { routes: [third], afterMinutes: 10 },
    ],
  });
  await createRule(s.ctx, s.admin, {
    name: "GitHub down",
    target: { kind: "monitor", id: s.gh.id },
    level: "MAJOR_OUTAGE",
    escalation: policy.id,
  });
  s.advance(60_000);
  const fired = s.at();
  await recordReading(s.ctx.store, "github", {
    indicator: "MAJOR_OUTAGE",
    components: [],
    incidents: [],
  }, fired);
  await evaluateAlerts(s.ctx);
  const steps = [...await s.all()].sort((a, b) => a.step - b.step);
  deepStrictEqual(steps.map((d) => [d.routeId, d.step, d.notBefore - fired]), [
    [first, 1, 0],
    [second, 2, 5 * 60_000],
    [third, 3, 15 * 60_000],
  ]);
  const link = steps[0]!.message.links.acknowledge!;
  const prefix = `http://localhost:8080/alerts/acknowledge/${steps[0]!.notificationId}.`;
  ok(link.startsWith(prefix), link);
  const token = link.slice(prefix.length);
  match(token, /^[A-Za-z0-9_-]{43}$/);
  for (const d of steps) {
    ok(!JSON.stringify(d.message).replace(link, "").includes(token), "the token is in no payload");
  }
  // The first step goes; then someone acknowledges through the link.
  const due = await s.ctx.store.deliveries.claimDue(s.at(), 10, "w", 60_000);
  deepStrictEqual(due.map((d) => d.routeId), [first]);
  await s.ctx.store.deliveries.finish(due[0]!.id, "w", {
    n: 1,
    at: s.at(),
    ok: true,
    status: 200,
    reply: null,
    latencyMs: 5,
    error: null,
  }, { state: "delivered", notBefore: s.at(), error: null });
  await acknowledgeByLink(s.ctx, steps[0]!.notificationId).then(
    () => ok(false, "the id every payload carries does not acknowledge"),
    (e) => equal(e.code, "not_found"),
  );
  await acknowledgeByLink(s.ctx, `${steps[0]!.notificationId}.${"A".repeat(43)}`).then(
    () => ok(false, "nor does a made-up token"),
    (e) => equal(e.code, "not_found"),
  );
  const segment = link.slice(link.lastIndexOf("/") + 1);
  equal(await acknowledgeByLink(s.ctx, segment), 2, "two steps stopped");
  s.advance(20 * 60_000);
  deepStrictEqual(
    await s.ctx.store.deliveries.claimDue(s.at(), 10, "w2", 60_000),
    [],
    "nothing more",
  );
  const states = (await s.all()).map((d) => [d.step, d.state]).sort();
  deepStrictEqual(states, [[1, "delivered"], [2, "acknowledged"], [3, "acknowledged"]]);
  equal(await acknowledgeByLink(s.ctx, segment), 0, "already acknowledged");
  await acknowledgeByLink(s.ctx, "../etc").then(
    () => ok(false, "refused"),
    (e) => equal(e.code, "not_found"),
  );
});

Deno.test("the recovery stops an escalation and is told where the alert was first told", async () => {
  const s = await setup();
  const policy = await createEscalation(s.ctx, s.admin, {
    name: "Later",
    steps: [{ routes: [s.route.id], afterMinutes: 0 }, { routes: [s.route.id], afterMinutes: 30 }],
    repeat: 1,
  });
  await createRule(s.ctx, s.admin, {
    name: "GitHub down",
    target: { kind: "monitor", id: s.gh.id },
    escalation: policy.id,
  });
  const gh = (level: StatusLevel): Snapshot => ({
    indicator: level,
    components: [],
    incidents: [],
  });
  s.advance(60_000);
  await recordReading(s.ctx.store, "github", gh("MAJOR_OUTAGE"), s.at());
  await evaluateAlerts(s.ctx);
  equal((await s.all()).length, 4, "two steps, repeated once");
  equal(await deliverDue(s.ctx), 1, "the first step goes at once");
  s.advance(60_000);
  await recordReading(s.ctx.store, "github", gh("OPERATIONAL"), s.at());
  await evaluateAlerts(s.ctx);
  const all = await s.all();
  const recovery = all.filter((d) => d.recovery);
  equal(recovery.length, 1);
  equal(recovery[0]!.routeId, s.route.id);
  deepStrictEqual(
    all.filter((d) => !d.recovery).map((d) => [d.step, d.state]).sort(),
    [[1, "delivered"], [2, "cancelled"], [3, "cancelled"], [4, "cancelled"]],
    "the first step went; later ones stop",
  );
});

Deno.test("a vendor statusd cannot read for N minutes fires once per failing run, when due; a good reading recovers it", async () => {
  const s = await setup();
  await createRule(s.ctx, s.admin, {
    name: "Blind spot",
    target: { kind: "monitor", id: s.gh.id },
    level: null,
    failingMinutes: 10,
    routes: [s.route.id],
  });
  const fail = async () => {
    s.advance(60_000);
    await recordTimeout(s.ctx.store, "github", s.at());
    return await evaluateReadings(s.ctx);
  };
  const readAgain = async () => {
    s.advance(60_000);
    await recordReading(s.ctx.store, "github", {
      indicator: "OPERATIONAL",
      components: [],
      incidents: [],
    }, s.at());
    return await evaluateReadings(s.ctx);
  };
  const due = () => s.ctx.store.deliveries.claimDue(s.at(), 10, "t", 1);

  // A failure of three minutes: the alert waited for ten, and is cancelled unsent.
  const since = s.at() + 60_000;
  equal(await fail(), 1, "the first failure queues the alert, due in ten minutes");
  const [waiting] = await s.all();
  equal(waiting!.state, "pending");
  equal(waiting!.notBefore, since + 10 * 60_000);
  equal(await fail(), 0, "a further failure of the same run queues nothing");
  equal(await fail(), 0);
  deepStrictEqual(await due(), [], "not due yet");
  equal(await readAgain(), 0, "read again before ten minutes: nothing to recover");
  deepStrictEqual(
    (await s.all()).map((d) => d.state),
    ["cancelled"],
    "the short failure pages no one",
  );

  // A failure of twelve minutes: the alert goes at ten, the recovery when it reads again.
  const since2 = s.at() + 60_000;
  for (let i = 0; i < 9; i++) await fail();
  equal(await deliverDue(s.ctx), 0, "nine minutes: not yet");
  for (let i = 0; i < 3; i++) {
    await fail();
    await deliverDue(s.ctx);
  }
  const [alert] = await s.all();
  equal(alert!.state, "delivered");
  equal(alert!.message.trigger, "reading_failing");
  equal(alert!.notBefore, since2 + 10 * 60_000);
  equal(alert!.message.summary, "statusd cannot read GitHub");
  match(alert!.message.advice, /timeout/);
  notEqual(alert!.notificationId, waiting!.notificationId, "one alert per failing run");
  equal(await readAgain(), 1, "read again: the recovery");
  const [recovery] = await s.all();
  equal(recovery!.message.trigger, "recovered");
  equal(recovery!.notificationId, alert!.notificationId);
  equal(await evaluateReadings(s.ctx), 0);
});

Deno.test("a restarted evaluator still ends a reading alert that went out before it stopped", async () => {
  const s = await setup();
  await createRule(s.ctx, s.admin, {
    name: "Blind spot",
    target: { kind: "monitor", id: s.gh.id },
    level: null,
    failingMinutes: 1,
    routes: [s.route.id],
  });
  s.advance(60_000);
  await recordTimeout(s.ctx.store, "github", s.at());
  equal(await evaluateReadings(s.ctx), 1);
  s.advance(120_000);
  equal(await deliverDue(s.ctx), 1, "it went");
  s.advance(60_000);
  await recordReading(s.ctx.store, "github", {
    indicator: "OPERATIONAL",
    components: [],
    incidents: [],
  }, s.at());
  // A new process: the same store, a context with no memory of the failing run.
  const fresh = { ...s.ctx };
  equal(await evaluateReadings(fresh), 1, "the recovery, found from the outbox");
  equal((await s.all())[0]!.message.trigger, "recovered");
  equal(await evaluateReadings(fresh), 0);
});

Deno.test("a disabled rule sends nothing new: its waiting alert stops, but an alert it sent still recovers", async () => {
  const s = await setup();
  const rule = await createRule(s.ctx, s.admin, {
    name: "GitHub down",
    target: { kind: "monitor", id: s.gh.id },
    level: "MAJOR_OUTAGE",
    forMinutes: 10,
    routes: [s.route.id],
  });
  const gh = (level: StatusLevel): Snapshot => ({
    indicator: level,
    components: [],
    incidents: [],
  });
  const flip = async (level: StatusLevel) => {
    s.advance(60_000);
    await recordReading(s.ctx.store, "github", gh(level), s.at());
    await evaluateAlerts(s.ctx);
  };
  await flip("MAJOR_OUTAGE");
  equal((await s.all())[0]!.state, "pending", "waiting out the 10 minutes");
  await updateRule(s.ctx, s.admin, rule.id, { enabled: false }, null);
  deepStrictEqual((await s.all()).map((d) => d.state), ["cancelled"], "disabled: it never goes");
  await flip("OPERATIONAL");
  await flip("MAJOR_OUTAGE");
  equal((await s.all()).length, 1, "a disabled rule fires nothing");

  // Enabled again: the next rise is an alert; it goes; disabling then leaves it to recover.
  await updateRule(s.ctx, s.admin, rule.id, { enabled: true, forMinutes: 0 }, null);
  await flip("OPERATIONAL");
  await flip("MAJOR_OUTAGE");
  const [sent] = await s.all();
  equal(sent!.message.trigger, "status");
  equal(sent!.state, "pending");
  equal(sent!.notBefore, s.at(), "due now");
  await deliverDue(s.ctx);
  await updateRule(s.ctx, s.admin, rule.id, { enabled: false }, null);
  equal((await s.all())[0]!.state, "delivered", "gone: disabling does not take it back");
  await flip("OPERATIONAL");
  const [recovery] = await s.all();
  equal(recovery!.message.trigger, "recovered");
  equal(recovery!.notificationId, sent!.notificationId, "the alert it opened is resolved");
});
