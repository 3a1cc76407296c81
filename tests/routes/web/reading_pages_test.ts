/**
 * Reading health on the web pages: a service page says, in words, why statusd cannot read the
 * vendor and since when; an `html` vendor reads unsupported; the history shows all 90 days with
 * days of no data called so; the home page says how many services cannot be read and never
 * claims all is well when it does not know.
 */
import { equal, match, ok } from "node:assert/strict";
import { DAY_MS, HOUR_MS } from "../../../domain/mod.ts";
import { addTransitions, addVendor, apiRig, T0 as API_T0 } from "../../support/api.ts";
import { FAILING, readingRig } from "../../support/reading_rig.ts";

/** The page's text with tags removed and entities decoded (what a reader sees). */
function text(html: string): string {
  return html.replace(/<style>[\s\S]*?<\/style>|<script>[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ").replaceAll("&#39;", "'").replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
    .replace(/\s+/g, " ").replace(/ ([,.])/g, "$1");
}

Deno.test("reading health on the pages (simulator)", async (t) => {
  const rig = await readingRig();
  const page = async (path: string) => {
    const res = await fetch(`${rig.url}${path}`);
    equal(res.status, 200, path);
    return await res.text();
  };
  try {
    await t.step("a service page says why statusd cannot read it, and since when", async () => {
      for (const f of FAILING) {
        const seen = text(await page(`/services/${f.slug}`));
        match(seen, /statusd cannot read this vendor right now: /, f.slug);
        ok(seen.includes(f.words), `${f.slug}: ${f.words}`);
        ok(seen.includes("since 2026-11-20 12:00:00 UTC (2 attempts in a row)"), f.slug);
        ok(seen.includes("Last good reading: never"), f.slug);
        ok(!/checked never/.test(seen), f.slug);
      }
    });

    await t.step("an html vendor reads unsupported, not 'checked never'", async () => {
      const seen = text(await page("/services/okta-like"));
      match(seen, /statusd cannot read this vendor: no machine-readable status/);
      ok(!seen.includes("checked never"));
    });

    await t.step("the notes the latest reading left out are listed", async () => {
      const seen = text(await page("/services/notes-co"));
      match(seen, /The latest reading left out: incidents\[0\]\.started_at: no start time/);
    });

    await t.step("history: 90 days, no data called no data, uptime observed since", async () => {
      const html = await page("/services/calm-co");
      // The service's own bar (the first one; the components' bars follow).
      const bar = /<ol class="days"[\s\S]*?<\/ol>/.exec(html)![0];
      const days = [...bar.matchAll(/<li[^>]*data-date="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);
      equal(days.length, 90);
      equal(days.at(-1), "2026-11-20");
      equal(days[0], "2026-08-23");
      const seen = text(html);
      ok(seen.includes("2026-11-19: no data"));
      ok(seen.includes("2026-11-20: operational"));
      ok(seen.includes("89 of 90 days have no data"));
      ok(!seen.includes("fully operational"));
      ok(seen.includes("(observed since 2026-11-20)"));
    });

    await t.step("the home page counts the services that cannot be read", async () => {
      const seen = text(await page("/"));
      ok(!seen.includes("Every service statusd can"), seen);
      ok(
        seen.includes(
          `${FAILING.length + 2} of ${FAILING.length + 4} services cannot be read: ` +
            `${FAILING.length} failing, 0 stale, 1 not read yet, 1 unsupported`,
        ),
        seen,
      );
      match(seen, /the status of the 10 services statusd cannot read right now is not known/);
      const html = await page("/");
      ok(html.includes('href="/services?reading=failing"'));
      const failing = text(await page("/services?reading=failing"));
      ok(failing.includes(`${FAILING.length} services`));
    });
  } finally {
    await rig.close();
  }
});

Deno.test("the home page is honest with no data at all", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    await addVendor(r.store, { slug: "stripe", name: "Stripe" });
    const seen = text(await (await r.get("/")).text());
    ok(!seen.includes("operational or in maintenance"), seen);
    match(seen, /statusd has no current reading of any service, so it cannot tell/);
    match(seen, /2 of 2 services cannot be read: 0 failing, 0 stale, 2 not read yet/);
  } finally {
    await r.close();
  }
});

Deno.test("the home page says all is well only when every readable service was read", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "stripe", name: "Stripe" });
    await addTransitions(r.store, "stripe", [
      [API_T0 - 2 * DAY_MS, "OPERATIONAL"],
      [API_T0, "OPERATIONAL"],
    ]);
    r.clock.advance(HOUR_MS / 60);
    const seen = text(await (await r.get("/")).text());
    match(seen, /Every service statusd can read is operational or in maintenance/);
    ok(!seen.includes("cannot be read"));
  } finally {
    await r.close();
  }
});
