/**
 * Settings › Monitors › Add a status page by URL (#47) without a browser: a page statusd lacks
 * is read once, added to the account and watched (then the monitor's page); one it cannot read
 * comes back with the reason next to the form and nothing stored; a search that finds nothing
 * offers the closest names and the way to add a page; an added page is removed (asked first).
 */
import { equal, match, ok } from "node:assert/strict";
import { listMonitors } from "../../../app/mod.ts";
import { readStatusPage } from "../../../ingest/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, T0, testContext } from "../../support/accounts.ts";
import { syncVendors, vendorOf } from "../../support/seed.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../../support/simulator.ts";
import { formBrowser } from "../../support/web.ts";

const PAGE = "/settings/monitors";

Deno.test("settings › monitors: add a status page by URL, watch it, and remove it", async () => {
  const sim = startSimulator();
  await using ctx = testContext({
    readStatusPage: (url) =>
      readStatusPage(url, { allowPrivate: ALLOW_SIMULATOR, timeoutMs: 3_000 }),
  });
  try {
    await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0);
    const who = await account(ctx, "owner@example.com");
    const b = formBrowser(createServer({ app: ctx }));
    equal(
      (await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD }))
        .status,
      303,
    );
    // A search that finds nothing says so, with the closest names and the way to add a page.
    const empty = await (await b.get(`${PAGE}?q=mygithubaccount`)).text();
    match(empty, /No service matches “mygithubaccount”/);
    match(empty, /Closest:.*github/s);
    match(empty, /Add its status page by URL/);

    const [page, html] = sim.catalog(2, "web-added");
    sim.setScenario(html!.slug, "html");
    const refused = await b.submit(PAGE, `${PAGE}/by-url`, { statusPageUrl: html!.statusPageUrl });
    equal(refused.status, 422);
    match(await refused.text(), /statusd could not read this status page: no status page/);
    const caller = { kind: "session" as const, account: who.account, member: who.member };
    equal((await ctx.store.catalog.accountVendors(who.account.id)).length, 0, "nothing stored");

    const added = await b.submit(PAGE, `${PAGE}/by-url`, { statusPageUrl: page!.statusPageUrl });
    equal(added.status, 303);
    match(added.headers.get("location") ?? "", /^\/settings\/monitors\/mon_[\w-]+\?added=1$/);
    const [vendor] = await ctx.store.catalog.accountVendors(who.account.id);
    ok(vendor, "added to the account");
    const monitors = (await listMonitors(ctx, caller, { page: 0, limit: 10 })).content;
    equal(monitors[0]?.serviceSlug, vendor.slug, "and watched");
    const listing = await (await b.get(PAGE)).text();
    match(listing, new RegExp(`href="/services/${vendor.slug}"`));

    const ask = await b.get(`/settings/vendors/${vendor.slug}/delete`);
    equal(ask.status, 200);
    match(await ask.text(), /Remove the status page of/);
    const removed = await b.submit(
      `/settings/vendors/${vendor.slug}/delete`,
      `/settings/vendors/${vendor.slug}/delete`,
      {},
    );
    equal(removed.status, 303);
    equal((await ctx.store.catalog.accountVendors(who.account.id)).length, 0);
  } finally {
    await sim.close();
  }
});
