/**
 * `/calendar.ics` read back by an independent iCalendar parser (`ical.js`), and
 * `/api/maintenances`, over maintenances the poller read from the simulator.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import ICAL from "ical.js";
import { HOUR_MS } from "../../../domain/mod.ts";
import { DB_MAINTENANCES, feedRig, T0 } from "./_rig.ts";

interface Event {
  uid: string;
  summary: string;
  start: string;
  end: string | null;
  description: string;
  url: string;
  sequence: number;
}

/** Parses the calendar with ical.js; returns its name and events, earliest first. */
function parseCalendar(text: string): { name: string; version: string; events: Event[] } {
  const cal = new ICAL.Component(ICAL.parse(text));
  equal(cal.name, "vcalendar");
  ok(cal.getFirstPropertyValue("prodid"), "PRODID is required (RFC 5545 §3.6)");
  const events = cal.getAllSubcomponents("vevent").map((c) => {
    const e = new ICAL.Event(c);
    ok(c.getFirstPropertyValue("dtstamp"), "DTSTAMP is required in a VEVENT");
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toJSDate().toISOString(),
      end: c.hasProperty("dtend") ? e.endDate.toJSDate().toISOString() : null,
      description: e.description,
      url: String(c.getFirstPropertyValue("url")),
      sequence: e.sequence,
    };
  });
  return {
    name: String(cal.getFirstPropertyValue("x-wr-calname")),
    version: String(cal.getFirstPropertyValue("version")),
    events,
  };
}

Deno.test("the maintenance calendar: one event per maintenance at its announced window", async () => {
  const r = await feedRig();
  try {
    const res = await r.get("/calendar.ics");
    equal(res.status, 200);
    equal(res.headers.get("content-type"), "text/calendar; charset=utf-8");
    match(res.headers.get("etag")!, /^"[0-9a-f]{32}"$/);
    const text = await res.text();
    // RFC 5545 §3.1: every content line, the last one too, ends with CRLF (no bare LF).
    ok(text.endsWith("END:VCALENDAR\r\n"), `ends ${JSON.stringify(text.slice(-16))}`);
    equal(text.replaceAll("\r\n", "").includes("\n"), false, "no bare LF");
    const cal = parseCalendar(text);
    equal(cal.version, "2.0");
    equal(cal.name, "Vendor maintenance · statusd");
    deepStrictEqual(cal.events.map((e) => [e.summary, e.start, e.end]), [
      ["DB Host: Network maintenance", "2026-11-20T11:00:00.000Z", "2026-11-20T13:00:00.000Z"],
      ["DB Host: Database upgrade", "2026-11-20T14:00:00.000Z", "2026-11-20T16:00:00.000Z"],
    ]);
    const upgrade = cal.events[1]!;
    match(upgrade.uid, /^maintenance-db-host-\d+@status\.example\.test$/);
    match(upgrade.url, /^https:\/\/status\.example\.test\/services\/db-host#incident-\d+$/);
    match(upgrade.description, /DB Host maintenance · status SCHEDULED/);
    match(upgrade.description, /On the vendor's page: https:\/\/stspg\.io\/mnt-upgrade/);
    ok(!cal.events.some((e) => e.summary.startsWith("Outage Hub")), "incidents are not events");
  } finally {
    await r.close();
  }
});

Deno.test("calendar filters: service (one or several), provider; unknown slug 404, bad list 400", async () => {
  const r = await feedRig();
  try {
    const count = async (q: string) =>
      parseCalendar(await (await r.get(`/calendar.ics${q}`)).text()).events.length;
    equal(await count("?service=db-host"), 2);
    equal(await count("?service=calm-cloud,outage-hub"), 0);
    equal(await count("?service=calm-cloud,db-host"), 2);
    equal(await count("?provider=dbco"), 2);
    equal(await count("?provider=other"), 0);
    const named = parseCalendar(await (await r.get("/calendar.ics?service=db-host")).text());
    equal(named.name, "Vendor maintenance (db-host) · statusd");
    const missing = await r.get("/calendar.ics?service=db-hots");
    equal(missing.status, 404);
    deepStrictEqual((await missing.json()).suggestions, ["db-host"]);
    equal((await r.get("/calendar.ics?service=a,,b")).status, 400);
    const many = Array.from({ length: 51 }, (_, i) => `s${i}`).join(",");
    equal((await r.get(`/calendar.ics?service=${many}`)).status, 400, "at most 50 slugs");
  } finally {
    await r.close();
  }
});

Deno.test("a rescheduled maintenance keeps its UID; a finished one stays a week, then goes", async () => {
  const r = await feedRig();
  try {
    const before = parseCalendar(await (await r.get("/calendar.ics")).text()).events;
    r.setMaintenances([
      { ...DB_MAINTENANCES[0]!, startsAt: T0 + 5 * HOUR_MS, endsAt: T0 + 6 * HOUR_MS },
    ]);
    await r.poll();
    const after = parseCalendar(await (await r.get("/calendar.ics")).text()).events;
    const moved = after.find((e) => e.summary === "DB Host: Database upgrade")!;
    equal(moved.uid, before.find((e) => e.summary === "DB Host: Database upgrade")!.uid);
    deepStrictEqual([moved.start, moved.end], [
      "2026-11-20T17:00:00.000Z",
      "2026-11-20T18:00:00.000Z",
    ]);
    equal(after.filter((e) => e.uid === moved.uid).length, 1, "no duplicate");
    // The network maintenance left the page: completed, and still on the calendar for a week.
    const done = after.find((e) => e.summary === "DB Host: Network maintenance")!;
    match(done.description, /status COMPLETED/);
    r.clock.advance(8 * 24 * HOUR_MS);
    await r.poll();
    // Nothing was stored, so only the cache's few seconds of age (real time) would refresh it.
    r.cache.clear();
    const later = parseCalendar(await (await r.get("/calendar.ics")).text()).events;
    deepStrictEqual(later.map((e) => e.summary), ["DB Host: Database upgrade"]);
  } finally {
    await r.close();
  }
});

Deno.test("/api/maintenances: unfinished ones with their windows; within= keeps the due ones", async () => {
  const r = await feedRig();
  try {
    const list = async (q: string) => {
      const res = await r.get(`/api/maintenances${q}`);
      equal(res.status, 200);
      return (await res.json()) as {
        totalElements: number;
        content: { title: string; status: string; scheduledStartAt: string | null }[];
      };
    };
    const all = await list("");
    deepStrictEqual(all.content.map((m) => [m.title, m.status, m.scheduledStartAt]), [
      ["Network maintenance", "IN_PROGRESS", "2026-11-20T11:00:00.000Z"],
      ["Database upgrade", "SCHEDULED", "2026-11-20T14:00:00.000Z"],
    ]);
    deepStrictEqual((await list("?within=1h")).content.map((m) => m.title), [
      "Network maintenance",
    ]);
    equal((await list("?within=2h&service=db-host")).totalElements, 2);
    equal((await list("?service=outage-hub")).totalElements, 0, "an incident is not maintenance");
    const bad = await r.get("/api/maintenances?within=soon");
    equal(bad.status, 400);
    equal((await bad.json()).issues[0].parameter, "within");
    equal((await r.get("/api/maintenances?within=91d")).status, 400, "at most 90 days");
    equal((await r.get("/api/maintenances?service=nope")).status, 404);
  } finally {
    await r.close();
  }
});
