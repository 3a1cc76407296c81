/**
 * The home page: what is disrupted right now, what recovered in the last 24 hours (and after
 * how long), open incidents with their latest update, and upcoming maintenance.
 */
import { equal, ok } from "node:assert/strict";
import { DAY_MS, HOUR_MS } from "../../../domain/mod.ts";
import { addTransitions, addVendor, apiRig, T0 } from "../../support/api.ts";
import { fillPagesStore, markRead } from "../../support/pages.ts";
import { section, visibleText } from "../../support/html.ts";

Deno.test("home: disrupted now, recovered lately, open incidents, upcoming maintenance", async () => {
  const r = apiRig();
  await fillPagesStore(r.store, 3);
  await addVendor(r.store, { slug: "old-co", name: "Old Co" });
  await addTransitions(r.store, "old-co", [
    [T0 - 5 * DAY_MS, "OPERATIONAL"],
    [T0 - 2 * DAY_MS - HOUR_MS, "MAJOR_OUTAGE"],
    [T0 - 2 * DAY_MS, "OPERATIONAL"],
  ]);
  await markRead(r.store, "old-co");
  try {
    const res = await r.get("/", { accept: "text/html" });
    equal(res.status, 200);
    const html = await res.text();

    // The first words say what is wrong now, and how much statusd can see.
    const summary = visibleText(html.slice(html.indexOf('<h2 id="summary"')));
    ok(
      summary.trim().startsWith("major outage 1 service disrupted now (1 major outage)"),
      summary.slice(0, 200),
    );
    ok(
      summary.includes("2 open incidents · 1 maintenance announced or under way ·"),
      summary.slice(0, 300),
    );

    const down = visibleText(section(html, "disrupted"));
    ok(down.includes("Disrupted right now (1)"), down);
    ok(down.includes("Stripe major outage"), down);

    const back = visibleText(section(html, "recovered"));
    ok(back.includes("Recovered in the last 24 hours (1)"), back);
    ok(
      back.includes(
        "Amazon Web Services operational back since 2026-11-20 10:00:00 UTC, after 1 h 10 min " +
          "of partial outage",
      ),
      back,
    );
    ok(!back.includes("Old Co"), "recovered two days ago");

    const open = visibleText(section(html, "open-incidents"));
    ok(open.includes("Open incidents (2)"), open);
    ok(open.includes("Stripe: Payments failing in EU investigating · critical impact"), open);
    ok(open.includes("Acme Cloud: Login emails delayed"), open);
    // The latest update only; the service page has the whole timeline.
    ok(open.includes("Identified — A mail queue is backed up."));
    ok(!open.includes("Some login emails arrive late."));
    ok(!open.includes("Scheduled database upgrade"), "maintenance is listed on its own");
    ok(html.includes('href="/services/acme#incident-'));

    const planned = visibleText(section(html, "maintenance"));
    ok(
      planned.includes(
        "Slack: Scheduled database upgrade — scheduled, 2026-11-21 12:00:00 UTC to " +
          "2026-11-21 14:00:00 UTC",
      ),
      planned,
    );
    ok(html.includes('href="/calendar.ics"'));
  } finally {
    await r.close();
  }
});

Deno.test("home: nothing to report is said as such", async () => {
  const r = apiRig();
  await addVendor(r.store, { slug: "calm", name: "Calm" });
  await addTransitions(r.store, "calm", [[T0 - DAY_MS, "OPERATIONAL"]]);
  await markRead(r.store, "calm");
  try {
    const text = visibleText(await (await r.get("/", { accept: "text/html" })).text());
    ok(text.includes("No disruption among the services statusd can read"), text);
    ok(text.includes("0 open incidents · 0 maintenances announced or under way · 1 service of 1"));
    ok(text.includes("No service recovered from a disruption in the last 24 hours."), text);
    ok(text.includes("No open incident."));
    ok(text.includes("No maintenance announced."));
  } finally {
    await r.close();
  }
});
