/**
 * Settings › Alerts: removing a route, a rule or an escalation policy asks first on a page of its
 * own (a red button, a Cancel link); asking changes nothing, the answer removes.
 */
import { equal, match } from "node:assert/strict";
import { createRoute, createRule, getRoute } from "../../../app/mod.ts";
import type { Caller } from "../../../app/mod.ts";
import { NotFound } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../../support/accounts.ts";
import { formBrowser } from "../../support/web.ts";

Deno.test("settings › alerts: removing a route or a rule asks first; cancelling keeps it", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "chat",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  })).route;
  const rule = await createRule(ctx, admin, {
    name: "stack down",
    target: { kind: "all" },
    level: "MAJOR_OUTAGE",
    routes: [route.id],
  });
  const app = createServer({ app: ctx });
  const b = formBrowser(app);
  await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const page = await (await b.get("/settings/alerts")).text();
  for (
    const [path, title, button] of [
      [`/settings/alerts/routes/${route.id}/delete`, "Remove route chat?", "Remove route"],
      [`/settings/alerts/rules/${rule.id}/delete`, "Remove rule stack down?", "Remove rule"],
    ] as const
  ) {
    match(page, new RegExp(`<a class="danger" href="${path}"`));
    const html = await (await b.get(path)).text();
    match(html, new RegExp(`<h1>${title.replace("?", "\\?")}</h1>`));
    match(html, new RegExp(`<button type="submit" class="danger">${button}</button>`));
    match(html, /<a href="\/settings\/alerts">Cancel<\/a>/);
  }
  equal((await getRoute(ctx, admin, route.id)).name, "chat", "asking changed nothing");
  const path = `/settings/alerts/routes/${route.id}/delete`;
  equal((await b.submit(path, path, {})).status, 303);
  let gone = false;
  await getRoute(ctx, admin, route.id).catch((e) => (gone = e instanceof NotFound));
  equal(gone, true);
});
