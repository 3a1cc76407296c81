/**
 * Every rule alert links to itself in Settings › Alerts (issue #28): the link in the message is
 * each route's own delivery, and the page it opens shows that delivery — what it said, where it
 * went, its state and attempts — to the account's members only.
 */
import { equal, match, notEqual, ok } from "node:assert/strict";
import { createMonitor, createRoute, createRule, evaluateAlerts } from "../../../app/mod.ts";
import type { Snapshot } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, T0, testContext } from "../../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../../support/seed.ts";
import { formBrowser } from "../../support/web.ts";

const page = (indicator: Snapshot["indicator"]): Snapshot => ({
  indicator,
  components: [],
  incidents: [],
});

Deno.test("an alert's link opens its own delivery in Settings › Alerts, for its account only", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  await recordReading(ctx.store, "github", page("OPERATIONAL"), T0 - 3_600_000);
  const owner = await account(ctx, "owner@example.com");
  await account(ctx, "stranger@example.com");
  const admin = { kind: "admin", account: owner.account } as const;
  const routes = await Promise.all(
    ["first", "second"].map(async (name) =>
      (await createRoute(ctx, admin, {
        name,
        settings: { kind: "webhook", url: `https://hooks.example.com/${name}` },
      })).route.id
    ),
  );
  const m = await createMonitor(ctx, admin, { service: "github" });
  await createRule(ctx, admin, {
    name: "GitHub down",
    target: { kind: "monitor", id: m.id },
    level: "MAJOR_OUTAGE",
    routes,
  });
  await evaluateAlerts(ctx);
  now += 60_000;
  await recordReading(ctx.store, "github", page("MAJOR_OUTAGE"), now);
  await evaluateAlerts(ctx);
  const { items } = await ctx.store.deliveries.list(owner.account.id, {}, { page: 0, limit: 10 });
  equal(items.length, 2);
  const [a, b] = items;
  const link = a!.message.links.delivery!;
  equal(link, `http://localhost:8080/settings/alerts/events/${a!.id}`);
  notEqual(b!.message.links.delivery, link, "each route's delivery links to itself");

  const app = createServer({ app: ctx });
  const path = new URL(link).pathname;
  const signedOut = await app.request(path, { redirect: "manual" });
  equal(signedOut.status, 303);
  ok(signedOut.headers.get("location")!.startsWith("/sign-in?next="));

  const browser = formBrowser(app);
  await browser.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const shown = await browser.get(path);
  equal(shown.status, 200);
  const html = await shown.text();
  match(html, /<h1>GitHub has a major outage<\/h1>/);
  match(html, /pending/);
  const list = await (await browser.get("/settings/alerts")).text();
  match(list, new RegExp(`href="/settings/alerts/events/${a!.id}"`), "the list links each alert");

  const stranger = formBrowser(app);
  await stranger.submit("/sign-in", "/sign-in", {
    email: "stranger@example.com",
    password: PASSWORD,
  });
  const refused = await stranger.get(path);
  equal(refused.status, 404, "another account's delivery does not exist for them");
  await refused.body?.cancel();
  const unknown = await browser.get("/settings/alerts/events/dlv_nope");
  equal(unknown.status, 404);
  await unknown.body?.cancel();
});
