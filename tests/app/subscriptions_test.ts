/**
 * Subscriptions (issue #13), on the suite's store: an email subscription gets a confirmation
 * mail (a real SMTP server, parsed by mailparser) and nothing else until its link is followed
 * (once); then each status change arrives with a one-click unsubscribe (List-Unsubscribe), and
 * after unsubscribing nothing more; a route subscription is active at once; and over REST the
 * scopes, the mail-server check and another account's subscription as 404.
 */
import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import {
  confirmByLink,
  createMonitor,
  createRoute,
  createSubscription,
  deleteSubscription,
  evaluateAlerts,
  getSubscription,
  unsubscribeByLink,
} from "../../app/mod.ts";
import type { Caller } from "../../app/mod.ts";
import { NotFound, PreconditionFailed, type Snapshot, type StatusLevel } from "../../domain/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { account, key, testContext } from "../support/accounts.ts";
import { mailDelivery } from "../support/mail_delivery.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;
const page = (level: StatusLevel): Snapshot => ({
  indicator: level,
  components: [],
  incidents: [],
});

Deno.test("double opt-in: a confirmation first, changes after confirming, nothing after unsubscribing", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now }, mailEnabled: true });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  await recordReading(ctx.store, "github", page("OPERATIONAL"), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  await evaluateAlerts(ctx);
  const delivery = await mailDelivery(ctx);
  const { smtp, deliver } = delivery;
  const flip = async (level: StatusLevel) => {
    now += 60_000;
    await recordReading(ctx.store, "github", page(level), now);
    await evaluateAlerts(ctx);
    await deliver();
  };
  try {
    const sub = await createSubscription(ctx, admin, {
      target: { kind: "monitor", id: monitor.id },
      email: "watcher@example.com",
    });
    equal(sub.state, "pending_confirmation");
    await deliver();
    equal(smtp.messages.length, 1);
    const confirmation = smtp.messages[0]!;
    equal(confirmation.subject, "Confirm your statusd subscription");
    const confirmLink = /http:\/\/localhost:8080\/subscriptions\/confirm\/(\S+)/.exec(
      confirmation.text!,
    )![1]!;
    await flip("MAJOR_OUTAGE");
    equal(smtp.messages.length, 1, "nothing before the address confirms");
    equal(await confirmByLink(ctx, confirmLink), true);
    equal(await confirmByLink(ctx, confirmLink), false, "the link works once");
    await flip("OPERATIONAL");
    equal(smtp.messages.length, 2);
    const change = smtp.messages[1]!;
    match(change.subject!, /GitHub/);
    const unsubscribe = change.headerLines.find((h) => h.key === "list-unsubscribe")!.line;
    match(unsubscribe, /<http:\/\/localhost:8080\/subscriptions\/unsubscribe\/sub_\S+>/);
    equal(
      change.headerLines.find((h) => h.key === "list-unsubscribe-post")!.line,
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    const link = /unsubscribe\/(\S+)>/.exec(unsubscribe)![1]!;
    equal(
      // The last character changed (a token ending in "x" made "replace it with x" the right one).
      await unsubscribeByLink(ctx, link.slice(0, -1) + (link.endsWith("x") ? "y" : "x")),
      false,
      "a wrong token does nothing",
    );
    equal(await unsubscribeByLink(ctx, link), true);
    await flip("MAJOR_OUTAGE");
    equal(smtp.messages.length, 2, "nothing after unsubscribing");
  } finally {
    await delivery.close();
  }
});

Deno.test("a route subscription is active at once and gets every change", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  await recordReading(ctx.store, "github", page("OPERATIONAL"), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  const route = (await createRoute(ctx, admin, {
    name: "chat",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  })).route;
  await evaluateAlerts(ctx);
  const sub = await createSubscription(ctx, admin, {
    target: { kind: "monitor", id: monitor.id },
    route: route.id,
  });
  equal(sub.state, "active");
  for (const level of ["DEGRADED_PERFORMANCE", "OPERATIONAL"] as const) {
    now += 60_000;
    await recordReading(ctx.store, "github", page(level), now);
  }
  await evaluateAlerts(ctx);
  const queued =
    (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 10 })).items;
  deepStrictEqual(queued.map((d) => [d.routeId, d.source.kind]), [
    [route.id, "subscription"],
    [route.id, "subscription"],
  ]);
  ok(
    queued.every((d) =>
      d.message.links.unsubscribe?.includes(`/subscriptions/unsubscribe/${sub.id}.`)
    ),
  );
});

Deno.test("subscriptions over REST: scopes, the mail server check, another account's as 404", async () => {
  await using ctx = testContext();
  await syncVendors(ctx.store, [vendorOf({ slug: "github" })], T0 - 86_400_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  const app = createServer({ app: ctx });
  const rw = { "X-API-Key": await key(ctx, who, "rw", ["monitors:read", "monitors:write"]) };
  const alerts = { "X-API-Key": await key(ctx, who, "a", ["alerts:write"]) };
  const post = (h: Record<string, string>, body: unknown) =>
    app.request("/api/user/subscriptions", {
      method: "POST",
      headers: { ...h, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const target = { kind: "monitor", id: monitor.id };
  const refused = await post(alerts, { target, email: "a@example.com" });
  equal(refused.status, 403);
  equal((await refused.json()).requiredScope, "monitors:write");
  const noMail = await post(rw, { target, email: "a@example.com" });
  equal(noMail.status, 400);
  match((await noMail.json()).issues[0].message, /STATUSD_SMTP_URL/);
  const both = await post(rw, { target, email: "a@example.com", route: "rt_x" });
  equal(both.status, 400);
  const route = (await createRoute(ctx, admin, {
    name: "chat",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  })).route;
  const made = await post(rw, { target, route: route.id });
  equal(made.status, 201);
  const sub = await made.json();
  equal(sub.state, "active");
  const stranger = await account(ctx, "other@example.com");
  const theirs = {
    "X-API-Key": await key(ctx, stranger, "o", ["monitors:read", "monitors:write"]),
  };
  equal((await app.request(`/api/user/subscriptions/${sub.id}`, { headers: theirs })).status, 404);
  equal(
    (await app.request(`/api/user/subscriptions/${sub.id}`, { method: "DELETE", headers: theirs }))
      .status,
    404,
  );
  equal(
    (await app.request(`/api/user/subscriptions/${sub.id}`, { method: "DELETE", headers: rw }))
      .status,
    204,
  );
});

Deno.test("deleting a subscription under a stale If-Match version is a 412 and deletes nothing", async () => {
  await using ctx = testContext();
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  const route = (await createRoute(ctx, admin, {
    name: "hooks",
    settings: { kind: "webhook", url: "https://hooks.example.com/x" },
  })).route;
  const sub = await createSubscription(ctx, admin, {
    target: { kind: "monitor", id: monitor.id },
    route: route.id,
  });
  await rejects(
    deleteSubscription(ctx, admin, sub.id, sub.version + 1),
    (e) => e instanceof PreconditionFailed,
  );
  equal((await getSubscription(ctx, admin, sub.id)).id, sub.id, "still there");
  await deleteSubscription(ctx, admin, sub.id, sub.version);
  await rejects(getSubscription(ctx, admin, sub.id), (e) => e instanceof NotFound);
  await rejects(deleteSubscription(ctx, admin, sub.id, null), (e) => e instanceof NotFound);
});
