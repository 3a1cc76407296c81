/**
 * The acknowledge link of an escalated alert (issue #13): opening it acknowledges nothing (link
 * previews are safe); its one button, with the page's CSRF token, stops the steps still waiting;
 * a form without the token is refused; an unknown or malformed id is a 404 page.
 */
import { equal, match } from "node:assert/strict";
import { acknowledgeLink, createEscalation, createRoute } from "../../../app/mod.ts";
import type { AlertMessage } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, T0, testContext } from "../../support/accounts.ts";
import { formBrowser } from "../../support/web.ts";

Deno.test("the acknowledge link: a page with one button; the button stops the waiting steps", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const admin = { kind: "admin", account: who.account } as const;
  const route = (await createRoute(ctx, admin, {
    name: "r",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  })).route.id;
  await createEscalation(ctx, admin, { name: "e", steps: [{ routes: [route], afterMinutes: 5 }] });
  const id = "ntf_0123456789abcdef01234567";
  const message = {
    notificationId: id,
    trigger: "status",
    summary: "x",
  } as unknown as AlertMessage;
  await ctx.store.deliveries.enqueue([2, 3].map((step) => ({
    id: `dlv_${step}`,
    accountId: who.account.id,
    routeId: route,
    source: { kind: "rule" as const, id: "rule_1" },
    changeId: 1,
    notificationId: id,
    subject: "monitor:m",
    step,
    recovery: false,
    message,
    notBefore: T0 + step * 300_000,
    createdAt: T0,
  })));
  const app = createServer({ app: ctx });
  const b = formBrowser(app);
  // The bare id (in every payload of the alert) acknowledges nothing.
  const bare = await b.submit(`/alerts/acknowledge/${id}`, `/alerts/acknowledge/${id}`, {});
  equal(bare.status, 404);
  await bare.body?.cancel();
  equal((await ctx.store.deliveries.get(who.account.id, "dlv_2"))!.delivery.state, "pending");
  const link = (await acknowledgeLink(ctx, id)).split("/").pop()!;
  const page = await b.get(`/alerts/acknowledge/${link}`);
  equal(page.status, 200);
  match(await page.text(), /<button type="submit">Acknowledge<\/button>/);
  equal((await ctx.store.deliveries.get(who.account.id, "dlv_2"))!.delivery.state, "pending");
  const forged = await b.get(`/alerts/acknowledge/${link}`, {
    method: "POST",
    body: new URLSearchParams(),
  });
  equal(forged.status, 403);
  const done = await b.submit(`/alerts/acknowledge/${link}`, `/alerts/acknowledge/${link}`, {});
  equal(done.status, 200);
  match(await done.text(), /Acknowledged\. 2 waiting steps will not be sent\./);
  equal((await ctx.store.deliveries.get(who.account.id, "dlv_3"))!.delivery.state, "acknowledged");
  const bad = await b.submit(`/alerts/acknowledge/${link}`, "/alerts/acknowledge/nope", {});
  equal(bad.status, 404);
  await bad.body?.cancel();
});

Deno.test("subscription links: confirm needs the page's button; one-click unsubscribe works from a mail client", async () => {
  await using ctx = testContext({ mailEnabled: true });
  const who = await account(ctx, "owner@example.com");
  const admin = { kind: "admin", account: who.account } as const;
  await ctx.store.catalog.sync([{
    name: "GitHub",
    slug: "github",
    statusPageUrl: "https://www.githubstatus.com",
    platform: "statuspage",
    category: "other",
    provider: "github",
    domains: [],
  }], T0);
  const { createMonitor, createSubscription } = await import("../../../app/mod.ts");
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  const sub = await createSubscription(ctx, admin, {
    target: { kind: "monitor", id: monitor.id },
    email: "watcher@example.com",
  });
  const confirmation = (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 5 }))
    .items[0]!.message;
  const confirm = new URL(confirmation.links.confirm!).pathname;
  const unsubscribe = new URL(confirmation.links.unsubscribe!).pathname;
  const app = createServer({ app: ctx });
  const b = formBrowser(app);
  match(await (await b.get(confirm)).text(), /<button type="submit">Confirm<\/button>/);
  equal(
    (await ctx.store.subscriptions.byId(sub.id))!.state,
    "pending_confirmation",
    "GET changes nothing",
  );
  equal((await b.get(confirm, { method: "POST", body: new URLSearchParams() })).status, 403);
  const confirmed = await b.submit(confirm, confirm, {});
  equal(confirmed.status, 200);
  equal((await ctx.store.subscriptions.byId(sub.id))!.state, "active");
  // RFC 8058: the mail provider POSTs "List-Unsubscribe=One-Click", no cookie, no token.
  const oneClick = await app.request(unsubscribe, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  equal(oneClick.status, 200);
  match(await oneClick.text(), /Unsubscribed: nothing more will be sent\./);
  equal((await ctx.store.subscriptions.byId(sub.id))!.state, "unsubscribed");
  const forged = await app.request(unsubscribe.replace(/.$/, (c) => (c === "x" ? "y" : "x")), {
    method: "POST",
    body: "List-Unsubscribe=One-Click",
  });
  equal(forged.status, 404);
  await forged.body?.cancel();
});
