/**
 * `/settings` is an index of the settings pages (it was a 404), signed in; signed out it leads
 * to sign-in and back. Every page's header has the navigation twice: as links, and folded in a
 * script-free menu for phones, the current page marked in both.
 */
import { equal, match } from "node:assert/strict";
import { createServer } from "../../../routes/mod.ts";
import { SETTINGS_PAGES } from "../../../routes/web/settings_index.tsx";
import { account, PASSWORD, testContext } from "../../support/accounts.ts";
import { formBrowser } from "../../support/web.ts";

Deno.test("/settings lists the settings pages and says in words who you are; signed out, it asks to sign in first", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const out = await app.request("/settings");
  equal(out.status, 303);
  equal(out.headers.get("location"), "/sign-in?next=%2Fsettings");
  const b = formBrowser(app);
  await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const res = await b.get("/settings");
  equal(res.status, 200);
  const html = await res.text();
  match(html, /<h1>Settings<\/h1>/);
  match(html, /you are <strong>an owner<\/strong>/, "the role reads as words");
  for (const p of SETTINGS_PAGES) {
    match(html, new RegExp(`<a href="${p.href}">${p.title}</a>`));
    equal((await b.get(p.href)).status, 200, p.href);
  }
});

Deno.test("the header's navigation folds into a menu without script; the current page is marked", async () => {
  await using ctx = testContext();
  const html = await (await createServer({ app: ctx }).request("/services")).text();
  match(html, /<details class="narrow-nav"><summary>Menu<\/summary><nav aria-label="Main">/);
  equal((html.match(/href="\/services" aria-current="page"/g) ?? []).length, 2);
  equal(html.includes("<script>"), false, "no inline script");
});
