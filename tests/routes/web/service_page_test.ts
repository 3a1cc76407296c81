/**
 * The service page of a service with known history (`acme`, tests/support/pages.ts): one bar
 * cell per UTC day coloured by the day's worst level, UNKNOWN days hatched and named "no data",
 * a bar per component, each cell naming the day's incidents; uptime over what was observed;
 * the typical time to resolve (also on getService and in the OpenAPI document); open incidents
 * and the last 90 days' resolved incidents, newest first, each with its timeline.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { apiRig } from "../../support/api.ts";
import { ACME, addAcme } from "../../support/pages.ts";
import { barCells, section, visibleText } from "../../support/html.ts";

const HTML = { accept: "text/html" };

async function acmePage() {
  const r = apiRig();
  await addAcme(r.store);
  const res = await r.get("/services/acme", HTML);
  equal(res.status, 200);
  return { r, html: await res.text() };
}

Deno.test("the 90-day bar: one cell per UTC day, coloured by the day's worst level", async () => {
  const { r, html } = await acmePage();
  try {
    const cells = barCells(html, "Acme Cloud: worst status per day");
    equal(cells.length, 90);
    equal(cells[0]!.date, "2026-08-23");
    equal(cells.at(-1)!.date, "2026-11-20");
    const byDate = new Map(cells.map((c) => [c.date, c]));
    for (const [date, level] of Object.entries(ACME.days)) {
      equal(byDate.get(date)?.level, level, date);
    }
    // Every day before statusd first read acme is UNKNOWN, and says so in words.
    const unknown = cells.filter((c) => c.level === "UNKNOWN");
    equal(unknown.length, 85);
    ok(unknown.every((c) => c.title === `${c.date}: no data`), unknown[0]!.title);
    equal(
      byDate.get("2026-11-16")!.title,
      "2026-11-16: operational; incidents: " +
        "Webhooks delayed (major impact); Database maintenance (maintenance)",
    );
    equal(
      byDate.get("2026-11-17")!.title,
      "2026-11-17: partial outage; incident: Elevated API errors (major impact)",
    );
    // The accessible text of a cell is its title.
    ok(html.includes('<span class="sr">2026-11-18: no data</span>'));
    // UNKNOWN is told apart by pattern and words as well as colour.
    match(html, /<li><span class="swatch s-UNKNOWN"><\/span>no data \(hatched\)<\/li>/);
    ok(visibleText(html).includes("85 of 90 days have no data"));
  } finally {
    await r.close();
  }
});

Deno.test("a bar per component, UNKNOWN wherever the service could not be read", async () => {
  const { r, html } = await acmePage();
  try {
    const components = section(html, "components");
    ok(visibleText(components).includes("Components (2)"));
    for (const [name, days] of Object.entries(ACME.components)) {
      const label = name === "Dashboard" ? "Web › Dashboard" : name;
      const cells = barCells(components, `${label}: worst status per day`);
      equal(cells.length, 90, name);
      const byDate = new Map(cells.map((c) => [c.date, c.level]));
      for (const [date, level] of Object.entries(days)) {
        equal(byDate.get(date), level, `${name} ${date}`);
      }
    }
    const api = new Map(barCells(components, "API: worst").map((c) => [c.date, c.title]));
    equal(
      api.get("2026-11-17"),
      "2026-11-17: partial outage; incident: Elevated API errors (major impact)",
    );
    const dash = new Map(
      barCells(components, "Web › Dashboard: worst").map((c) => [c.date, c.title]),
    );
    equal(
      dash.get("2026-11-19"),
      "2026-11-19: degraded performance; incident: Slow dashboard (minor impact)",
    );
  } finally {
    await r.close();
  }
});

Deno.test("resolved incidents of the last 90 days, newest first, each with its timeline", async () => {
  const { r, html } = await acmePage();
  try {
    const past = section(html, "past-incidents");
    const titles = [...past.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]);
    deepStrictEqual(titles, [...ACME.past]);
    const text = visibleText(past);
    ok(text.includes("Past incidents, last 90 days (4)"));
    ok(!text.includes("Old outage"), "resolved 100 days ago: outside the window");
    ok(
      text.includes(
        "Elevated API errors resolved · major impact · started 2026-11-17 10:00:00 UTC · " +
          "resolved 2026-11-17 10:38:00 UTC · lasted 38 min · affects API",
      ),
      text,
    );
    ok(text.includes("2026-11-17 10:38:00 UTC · Resolved — This is resolved."));
    ok(
      text.includes(
        "2026-11-17 10:00:00 UTC · Investigating — We are looking into: Elevated API errors.",
      ),
    );
    // Newest timeline entry first.
    ok(text.indexOf("10:38:00 UTC · Resolved") < text.indexOf("10:00:00 UTC · Investigating"));

    const open = visibleText(section(html, "open-incidents"));
    ok(open.includes("Open incidents (1)"));
    ok(open.includes("Login emails delayed identified · minor impact"), open);
    ok(open.includes("11:30:00 UTC · Identified — A mail queue is backed up."));
    ok(open.includes("11:00:00 UTC · Investigating — Some login emails arrive late."));
  } finally {
    await r.close();
  }
});

Deno.test("uptime over what was observed, MTTR and the typical time to resolve", async () => {
  const { r, html } = await acmePage();
  try {
    const text = visibleText(section(html, "uptime"));
    ok(text.includes("Uptime, 90 days 99.706 % (observed since 2026-11-15)"), text);
    ok(text.includes("Uptime, 7 days 99.706 % (observed since 2026-11-15)"), text);
    ok(text.includes("MTTR, 90 days 2 h mean of 2 disruptions (120 min)"), text);
    const rows = [...html.matchAll(/<tr data-impact="(\w+)">([\s\S]*?)<\/tr>/g)]
      .map((m) => [m[1], visibleText(m[2]!).trim()]);
    deepStrictEqual(rows, [
      ["MAJOR", "major 38 min 2 h 10 min 2"],
      ["MINOR", "minor 3 h 3 h 1"],
      ["ALL", "all incidents 2 h 10 min 3 h 3"],
    ]);
  } finally {
    await r.close();
  }
});

Deno.test("getService carries timeToResolve, and the OpenAPI document describes it", async () => {
  const r = apiRig();
  await addAcme(r.store);
  try {
    const res = await r.get("/api/services/acme");
    const t = (await res.json()).timeToResolve;
    equal(t.windowDays, 90);
    deepStrictEqual(t.byImpact.MAJOR, ACME.timeToResolve.MAJOR);
    deepStrictEqual(t.byImpact.MINOR, ACME.timeToResolve.MINOR);
    deepStrictEqual(t.byImpact.CRITICAL, { incidents: 0, p50Minutes: null, p90Minutes: null });
    deepStrictEqual(t.all, ACME.timeToResolve.all);
    const doc = await (await r.get("/openapi.json")).json();
    const detail = doc.components.schemas.ServiceDetail.allOf[1];
    ok(detail.required.includes("timeToResolve"));
    equal(detail.properties.timeToResolve.$ref, "#/components/schemas/TimeToResolve");
    const schema = doc.components.schemas.TimeToResolve;
    deepStrictEqual(Object.keys(schema.properties.byImpact.properties), [
      "CRITICAL",
      "MAJOR",
      "MINOR",
      "NONE",
    ]);
    match(schema.description, /p50 and p90/);
  } finally {
    await r.close();
  }
});

Deno.test("an unknown slug: an HTML 404 with close matches for a browser, JSON when asked", async () => {
  const r = apiRig();
  await addAcme(r.store);
  try {
    const page = await r.get("/services/acmee", HTML);
    equal(page.status, 404);
    match(page.headers.get("content-type")!, /^text\/html/);
    const html = await page.text();
    ok(html.includes('<a href="/services/acme">acme</a>'), html);
    equal((html.match(/did you mean/gi) ?? []).length, 1, "the guess is offered once");
    const json = await r.get("/services/acmee", { accept: "application/json" });
    equal(json.status, 404);
    deepStrictEqual((await json.json()).suggestions, ["acme"]);
  } finally {
    await r.close();
  }
});

Deno.test("a chart of incidents per week over 90 days, each bar said in words", async () => {
  const { r, html } = await acmePage();
  try {
    const history = section(html, "history");
    const bars = [
      ...history.matchAll(/<li[^>]*title="week of (\d{4}-\d{2}-\d{2}): (\d+) incidents?"/g),
    ];
    equal(bars.length, 13, "13 weeks");
    const counted = bars.reduce((n, m) => n + Number(m[2]), 0);
    // The three resolved incidents of the window and the open one; maintenance is not counted.
    equal(counted, 4);
    match(visibleText(history), /Incidents per week, last 13 weeks: 4 incidents/);
    // The tallest bar is full height; an empty week has none.
    ok(/class="bar h10"/.test(history));
    ok(/class="bar h0"/.test(history));
  } finally {
    await r.close();
  }
});
