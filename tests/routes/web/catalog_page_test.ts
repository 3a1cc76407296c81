/**
 * `/services` for people: a GET form whose every control has a label (search, status,
 * category, provider, reading), filters that combine, pages of 50 with links that keep the
 * filters, and search ranked exactly as the API ranks it.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { addVendor, apiRig } from "../../support/api.ts";
import { fillPagesStore } from "../../support/pages.ts";
import { visibleText } from "../../support/html.ts";

/** The slugs the page lists, in order. */
function listed(html: string): string[] {
  const results = html.slice(html.indexOf('<div id="results">'));
  // Each row's link follows the vendor's mark.
  return [
    ...results.matchAll(
      /<td data-label="Service">(?:<span class="mark[^"]*" aria-hidden="true">[^<]*<\/span> )?<a href="\/services\/([^"]+)"/g,
    ),
  ].map((m) => m[1]!);
}

Deno.test("every filter is a labelled control of a plain GET form", async () => {
  const r = apiRig();
  await fillPagesStore(r.store, 3);
  try {
    const html = await (await r.get("/services", { accept: "text/html" })).text();
    const form = html.slice(html.indexOf('<form id="service-filters"'), html.indexOf("</form>"));
    ok(form.includes('method="get" action="/services"'));
    const controls = [...form.matchAll(/<(input|select)\b[^>]*name="([^"]+)"/g)].map((m) => m[2]);
    deepStrictEqual(controls, ["q", "status", "category", "provider", "reading", "sort"]);
    for (
      const [label, name] of [
        ["Search", "q"],
        ["Status", "status"],
        ["Category", "category"],
        ["Provider", "provider"],
        ["Reading", "reading"],
        ["Order", "sort"],
      ]
    ) {
      ok(
        new RegExp(`<label>${label}<(input|select)[^>]*name="${name}"`).test(form),
        `${name} is labelled ${label}`,
      );
    }
    ok(html.includes('<script src="/assets/search.js?v='), "search as you type is a served script");
  } finally {
    await r.close();
  }
});

Deno.test("filters combine; unknown values are ignored; pages keep the filters", async () => {
  const r = apiRig();
  await fillPagesStore(r.store, 60);
  const page = async (q: string) =>
    await (await r.get(`/services${q}`, { accept: "text/html" })).text();
  try {
    const first = await page("");
    equal(listed(first).length, 50);
    ok(visibleText(first).includes("64 services · page 1 of 2"));
    ok(first.includes('<a href="/services?page=1" rel="next">Next →</a>'));
    const second = await page("?page=1");
    equal(listed(second).length, 14);
    ok(second.includes('<a href="/services" rel="prev">← Previous</a>'));

    deepStrictEqual(listed(await page("?status=MAJOR_OUTAGE")), ["stripe"]);
    deepStrictEqual(listed(await page("?category=cloud&status=OPERATIONAL")), ["acme", "aws"]);
    const fillers = await page("?provider=fillers");
    ok(visibleText(fillers).includes("60 services · page 1 of 2"));
    ok(fillers.includes('<a href="/services?provider=fillers&amp;page=1" rel="next">'));
    equal(listed(await page("?provider=fillers&page=1")).length, 10);
    // A value the form never offers reads as "any".
    equal(listed(await page("?status=BOGUS&category=nope")).length, 50);
    ok(visibleText(await page("?provider=nobody")).includes("No service matches these filters."));
  } finally {
    await r.close();
  }
});

Deno.test("search on the page ranks exactly as the API", async () => {
  const r = apiRig();
  await fillPagesStore(r.store, 12);
  try {
    for (const q of ["vendor 1", "a", "slack", "am"]) {
      const html = await (await r.get(`/services?q=${encodeURIComponent(q)}`, {
        accept: "text/html",
      })).text();
      const api = await (await r.get(`/api/services?q=${encodeURIComponent(q)}&limit=50`)).json();
      deepStrictEqual(listed(html), api.content.map((s: { slug: string }) => s.slug), q);
      ok(visibleText(html).includes("best match first"), q);
    }
  } finally {
    await r.close();
  }
});

Deno.test("counts read right in the singular: one service, one match", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "solo", name: "Solo Cloud" });
    const page = visibleText(await (await r.get("/services", { accept: "text/html" })).text());
    ok(page.includes("1 service · page 1 of 1"), page.slice(0, 400));
    // Each row has a mark of its own: the name's letters, decorative (the name follows).
    const html = await (await r.get("/services?mark", { accept: "text/html" })).text();
    ok(
      /<span class="mark m\d" aria-hidden="true">SC<\/span> <a href="\/services\/solo">Solo Cloud<\/a>/
        .test(html),
    );
    ok(!page.includes("1 services"));
    const home = visibleText(await (await r.get("/", { accept: "text/html" })).text());
    ok(!/\b1 services\b/.test(home), home.slice(0, 400));
  } finally {
    await r.close();
  }
});
