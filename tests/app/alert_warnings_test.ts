/**
 * Alert rules on statusd's own early warning (opt-in): one alert per episode, saying it is
 * statusd's observation and not the vendor's status; the recovery when the warning clears; rules
 * that did not ask hear nothing; a restarted evaluator still ends what went before it stopped.
 * @module
 */
import { deepStrictEqual, equal, match, notEqual } from "node:assert/strict";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
  evaluateWarnings,
  reportTrouble,
} from "../../app/mod.ts";
import { InvalidRequest, QUIET, type WarningState } from "../../domain/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { episodeAt, openState } from "../support/warnings.ts";
import { deliverDue } from "../support/deliver.ts";

const T0 = Date.UTC(2026, 10, 28, 12);

/** Suspected from `first`: 2 of 2 probes of api.github.com failing; acknowledged if given. */
const suspected = (first: number, acknowledgedAt: number | null = null) =>
  openState(episodeAt(first, { acknowledgedAt, hosts: ["api.github.com"] }));

async function setup() {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
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
  const gh = await createMonitor(ctx, admin, { service: "github" });
  equal(await evaluateAlerts(ctx), 0);
  const id = (await ctx.store.catalog.service("github"))!.id;
  return {
    ctx,
    admin,
    route,
    gh,
    warn: (state: WarningState) =>
      ctx.store.warnings.record(id, { answered: {}, state, finished: [] }, now),
    all: async () =>
      (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 100 })).items,
    advance: (ms: number) => (now += ms),
    /** A rule on GitHub's monitor that hears of statusd's early warnings only. */
    ownEyesRule: () =>
      createRule(ctx, admin, {
        name: "Own eyes",
        target: { kind: "monitor", id: gh.id },
        level: null,
        earlyWarning: true,
        routes: [route.id],
      }),
  };
}

Deno.test("an opted-in rule hears of an early warning once per episode, then of its recovery", async () => {
  const s = await setup();
  await using _ = s.ctx;
  await s.ownEyesRule();
  await createRule(s.ctx, s.admin, {
    name: "Levels only",
    target: { kind: "all" },
    routes: [s.route.id],
  });
  equal(await evaluateWarnings(s.ctx), 0);
  await s.warn(suspected(T0 - 60_000));
  equal(await evaluateWarnings(s.ctx), 1, "one route of the one rule that asked");
  const [alert] = await s.all();
  equal(alert!.message.trigger, "early_warning");
  equal(alert!.message.summary, "statusd suspects trouble at GitHub (its own observation)");
  match(
    alert!.message.advice,
    /^statusd's own checks have seen errors from api\.github\.com since 11:59 UTC \(2 of 2 failed\); GitHub has not acknowledged it \(its status page reads operational\)\. This is statusd's own observation, not GitHub's status\./,
  );
  equal(alert!.message.sentBecause, "rule Own eyes");
  equal(await deliverDue(s.ctx), 1);

  s.advance(60_000);
  equal(await evaluateWarnings(s.ctx), 0, "the same episode: nothing more");
  await s.warn(suspected(T0 - 60_000, T0 + 30_000));
  equal(await evaluateWarnings(s.ctx), 0, "acknowledged by the vendor: its own alerts follow");

  s.advance(60_000);
  await s.warn(QUIET);
  equal(await evaluateWarnings(s.ctx), 1, "cleared: the recovery");
  const [recovery] = await s.all();
  equal(recovery!.message.trigger, "recovered");
  equal(recovery!.notificationId, alert!.notificationId);
  equal(recovery!.message.summary, "statusd's own checks of GitHub recovered");

  // A new episode is a new notification.
  s.advance(3_600_000);
  await s.warn(suspected(T0 + 3_600_000));
  equal(await evaluateWarnings(s.ctx), 1);
  const [again] = await s.all();
  notEqual(again!.notificationId, alert!.notificationId);
});

Deno.test("a rule may watch early warnings alone; one watching nothing is refused", async () => {
  const s = await setup();
  await using _ = s.ctx;
  const rule = await createRule(s.ctx, s.admin, {
    name: "Only own eyes",
    target: { kind: "all" },
    level: null,
    earlyWarning: true,
    routes: [s.route.id],
  });
  equal(rule.earlyWarning, true);
  try {
    await createRule(s.ctx, s.admin, {
      name: "Nothing",
      target: { kind: "all" },
      level: null,
      routes: [s.route.id],
    });
    throw new Error("a rule watching nothing was made");
  } catch (err) {
    equal(err instanceof InvalidRequest, true);
    deepStrictEqual((err as InvalidRequest).issues.map((i) => i.parameter), ["level"]);
    match((err as InvalidRequest).message, /early warnings/);
  }
});

Deno.test("a restarted evaluator still ends an early-warning alert that went before it stopped", async () => {
  const s = await setup();
  await using _ = s.ctx;
  await s.ownEyesRule();
  await s.warn(suspected(T0 - 60_000));
  equal(await evaluateWarnings(s.ctx), 1);
  equal(await deliverDue(s.ctx), 1);
  equal(await evaluateWarnings({ ...s.ctx }), 0, "restarted while it lasts: nothing twice");
  // Another process (a fresh memory) starts after the warning cleared.
  await s.warn(QUIET);
  const restarted = { ...s.ctx };
  equal(await evaluateWarnings(restarted), 1, "the recovery of what went before");
  equal((await s.all())[0]!.message.trigger, "recovered");
  equal(await evaluateWarnings(restarted), 0);
});

Deno.test("an account's own report warns its own rule at once; another account's rule hears nothing", async () => {
  const s = await setup();
  await using _ = s.ctx;
  await s.ownEyesRule();
  const other = await account(s.ctx, "other@example.com");
  const otherAdmin: Caller = { kind: "admin", account: other.account };
  const otherRoute = (await createRoute(s.ctx, otherAdmin, {
    name: "hooks",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/other" },
  })).route;
  await createMonitor(s.ctx, otherAdmin, { service: "github" });
  await createRule(s.ctx, otherAdmin, {
    name: "Theirs",
    target: { kind: "all" },
    level: null,
    earlyWarning: true,
    routes: [otherRoute.id],
  });
  await reportTrouble(s.ctx, s.admin, { service: "github", component: "Actions" });
  equal(await evaluateWarnings(s.ctx), 1, "the reporting account's rule, at once");
  const [alert] = await s.all();
  equal(alert!.message.trigger, "early_warning");
  equal(alert!.message.level, "OPERATIONAL", "the level GitHub's page reads");
  match(
    alert!.message.advice,
    /^1 member of your account reported GitHub not working since 12:00 UTC \(Actions\); GitHub has not acknowledged it \(its status page reads operational\)\. Only your account sees this warning/,
  );
  equal(await deliverDue(s.ctx), 1);
  const theirs = await s.ctx.store.deliveries.list(other.account.id, {}, { page: 0, limit: 10 });
  equal(theirs.total, 0, "another account hears nothing of it");
  s.advance(10 * 60_000);
  equal(await evaluateWarnings(s.ctx), 0, "one alert while the reports last");
  s.advance(25 * 60_000);
  equal(await evaluateWarnings(s.ctx), 1, "the reports aged out: the recovery");
  equal((await s.all())[0]!.message.trigger, "recovered");
});

Deno.test("a warning the vendor acknowledged first reads as one coherent sentence, with its level", async () => {
  const s = await setup();
  await using _ = s.ctx;
  await s.ownEyesRule();
  await recordReading(s.ctx.store, "github", {
    indicator: "PARTIAL_OUTAGE",
    components: [],
    incidents: [],
  }, T0 - 5 * 60_000);
  await s.warn(suspected(T0 - 60_000, T0 - 5 * 60_000));
  equal(await evaluateWarnings(s.ctx), 1);
  const [alert] = await s.all();
  equal(alert!.message.level, "PARTIAL_OUTAGE");
  equal(
    alert!.message.summary,
    "statusd's own checks see trouble at GitHub, which GitHub has acknowledged",
  );
  match(
    alert!.message.advice,
    /; GitHub had already acknowledged it, at 11:55 UTC \(its status page reads partial outage\)\./,
  );
  equal(/suspects/.test(alert!.message.advice), false);
});
