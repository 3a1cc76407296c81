/**
 * Pages answer from the response cache: the same bytes and ETag until a change is committed
 * (then the next request shows it), 304 on a matching `If-None-Match`. A signed-in person gets
 * their own page (their email and a sign-out button carrying the session's CSRF token in the
 * header), never stored in the shared cache; signing out from the header ends the session.
 */
import { equal, match, ok } from "node:assert/strict";
import { account, PASSWORD } from "../../support/accounts.ts";
import { apiRig, T0 } from "../../support/api.ts";
import { addAcme } from "../../support/pages.ts";
import { recordReading, syncVendors, vendorOf } from "../../support/seed.ts";
import { csrfOf, formBrowser } from "../../support/web.ts";

const HTML = { accept: "text/html" };

Deno.test("a page comes from the cache until a change is committed", async () => {
  const r = apiRig();
  await addAcme(r.store);
  try {
    const first = await r.get("/services/acme", HTML);
    equal(first.status, 200);
    equal(first.headers.get("cache-control"), "no-cache");
    equal(first.headers.get("vary"), "Cookie");
    const etag = first.headers.get("etag")!;
    match(etag, /^"[0-9a-f]{32}"$/);
    const html = await first.text();
    ok(html.includes('<span class="badge s-OPERATIONAL">operational</span>'));

    // A write that publishes no change (a catalog rename): the cached page is served.
    await syncVendors(
      r.store,
      [vendorOf({ slug: "acme", name: "Renamed", category: "cloud" })],
      T0,
    );
    const again = await r.get("/services/acme", HTML);
    equal(again.headers.get("etag"), etag);
    equal(await again.text(), html);
    const revalidated = await r.get("/services/acme", { ...HTML, "if-none-match": etag });
    equal(revalidated.status, 304);
    equal(await revalidated.text(), "");

    // A reading that changes the status, as the poller stores and publishes it.
    await recordReading(r.store, "acme", {
      indicator: "MAJOR_OUTAGE",
      components: [],
      incidents: [],
    }, T0);
    const after = await r.get("/services/acme", { ...HTML, "if-none-match": etag });
    equal(after.status, 200);
    const fresh = await after.text();
    ok(fresh.includes('<span class="badge s-MAJOR_OUTAGE">major outage</span>'));
    ok(fresh.includes("Renamed"));
  } finally {
    await r.close();
  }
});

Deno.test("signed in: your own page with a sign-out in the header, never shared", async () => {
  const r = apiRig();
  await addAcme(r.store);
  await account(r.ctx, "owner@example.com");
  const anonymous = formBrowser(r.app);
  const person = formBrowser(r.app);
  try {
    await person.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
    ok(person.jar.has("sd_session"));
    for (const path of ["/", "/services", "/services/acme"]) {
      const mine = await person.get(path);
      equal(mine.status, 200, path);
      equal(mine.headers.get("cache-control"), "private, no-store", path);
      const html = await mine.text();
      const header = html.slice(html.indexOf('<header class="site">'), html.indexOf("</header>"));
      ok(header.includes("owner@example.com"), path);
      ok(header.includes('<form method="post" action="/sign-out"'), path);
      ok(csrfOf(header).length > 20, path);
      ok(header.includes('<button type="submit" class="link">Sign out</button>'), path);

      const shared = await anonymous.get(path);
      const theirs = await shared.text();
      ok(!theirs.includes("owner@example.com"), `${path}: no one else sees it`);
      ok(theirs.includes('<a href="/sign-in">Sign in</a>'), path);
    }
    // The settings pages carry the same sign-out.
    const keys = await (await person.get("/settings/api-keys")).text();
    ok(keys.includes('<form method="post" action="/sign-out"'));

    const out = await person.submit("/services/acme", "/sign-out", {});
    equal(out.status, 303);
    equal(out.headers.get("location"), "/sign-in");
    equal((await person.get("/settings/api-keys")).status, 303, "the session is over");
  } finally {
    await r.close();
  }
});
