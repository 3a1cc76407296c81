/**
 * One timeline reader for every way a feed prints a timeline: each layout below is read open,
 * updated, resolved and as a maintenance. The layouts are those status-page generators use
 * (FORMATS.md §1–§6): Statuspage's `<small>`/`<strong>` HTML, the same HTML escaped twice
 * inside `content:encoded`, a plain-text timeline with each date after its entry (seconds and
 * `GMT+0000`, as Instatus prints JavaScript dates), a label and date on one line, and ISO 8601
 * dates; each in the structured element, the plain `<description>`, or both.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { feedAdapter } from "../../../ingest/adapters/feed.ts";
import type { IncidentStatus } from "../../../domain/mod.ts";

const FETCHED = Date.UTC(2026, 10, 28, 12, 0);
const T = (h: number, m: number, s = 0) => Date.UTC(2026, 10, 28, h, m, s);

/** An entry's timeline, newest first as feeds print it: [label, hour, minute, second, text]. */
type Step = readonly [string, number, number, number, string];

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const pad = (n: number) => String(n).padStart(2, "0");

/** Each layout renders a timeline into the item's elements. */
const LAYOUTS: Record<string, (steps: readonly Step[]) => string> = {
  "statuspage html in description": (steps) =>
    `<description>${
      escapeXml(
        steps.map(([label, h, m, , text]) =>
          `<p><small>Nov <var data-var='date'>28</var>, <var data-var='time'>${pad(h)}:${
            pad(m)
          }</var> UTC</small><br><strong>${label}</strong> - ${text}</p>`
        ).join(""),
      )
    }</description>`,
  "html escaped twice in content:encoded, plain description": (steps) =>
    `<content:encoded>${
      escapeXml(escapeXml(
        steps.map(([label, h, m, , text]) =>
          `<p><small>Nov 28, ${pad(h)}:${
            pad(m)
          } UTC</small><br><strong>${label}</strong> - ${text}</p>`
        ).join(""),
      ))
    }</content:encoded><description>${escapeXml(steps[0]![4])}</description>`,
  "text, date after each entry, seconds and GMT+0000": (steps) =>
    `<description>${
      escapeXml(
        steps.map(([label, h, m, s, text]) =>
          `<p><b>${label}</b></p><p>${text}</p><p>Sat Nov 28 2026 ${pad(h)}:${pad(m)}:${
            pad(s)
          } GMT+0000 (Coordinated Universal Time)</p>`
        ).join(""),
      )
    }</description>`,
  "label and date on one line": (steps) =>
    `<description>${
      escapeXml(
        steps.map(([label, h, m, , text]) =>
          `${label}: ${text} (28 Nov 2026, ${pad(h)}:${pad(m)} GMT+1)<br>`
        ).join(""),
      )
    }</description>`,
  "iso dates before the entries, structured element empty": (steps) =>
    `<content:encoded></content:encoded><description>${
      escapeXml(
        steps.map(([label, h, m, s, text]) =>
          `<div>2026-11-28T${pad(h)}:${pad(m)}:${pad(s)}Z</div><div>${label} - ${text}</div>`
        ).join(""),
      )
    }</description>`,
};

/** What each case prints (newest first), and what must be read. */
const CASES: Record<string, { steps: Step[]; status: IncidentStatus; resolvedAt: number | null }> =
  {
    open: {
      steps: [["Investigating", 11, 40, 5, "Errors on the API."]],
      status: "INVESTIGATING",
      resolvedAt: null,
    },
    updated: {
      steps: [
        ["Identified", 11, 50, 0, "A bad deploy; rolling back."],
        ["Investigating", 11, 40, 5, "Errors on the API."],
      ],
      status: "IDENTIFIED",
      resolvedAt: null,
    },
    resolved: {
      steps: [
        ["Resolved", 11, 56, 30, "All requests succeed again."],
        ["Monitoring", 11, 52, 0, "A fix is out."],
        ["Investigating", 11, 40, 5, "Errors on the API."],
      ],
      status: "RESOLVED",
      resolvedAt: T(11, 56, 30),
    },
    maintenance: {
      steps: [
        ["In progress", 11, 30, 0, "The upgrade has begun."],
        ["Scheduled", 9, 0, 0, "Database upgrade."],
      ],
      status: "IN_PROGRESS",
      resolvedAt: null,
    },
  };

/** Layouts that print seconds keep them; the others print minutes. */
const withSeconds = (layout: string) => /seconds|iso/.test(layout);
/** The label-and-date layout prints its times in GMT+1. */
const offsetOf = (layout: string) => layout === "label and date on one line" ? 60 : 0;

for (const [layout, render] of Object.entries(LAYOUTS)) {
  for (const [name, c] of Object.entries(CASES)) {
    Deno.test(`feed timeline, ${layout}: ${name}`, () => {
      const body = `<rss version="2.0"><channel><item><guid>i1</guid><title>API errors</title>` +
        `<pubDate>Sat, 28 Nov 2026 09:00:00 GMT</pubDate>${render(c.steps)}</item></channel></rss>`;
      const notes: string[] = [];
      const unknown: string[] = [];
      const s = feedAdapter.parse(body, {
        pageUrl: new URL("https://status.example.com"),
        fetchedAt: FETCHED,
        dropped: (path, reason) => notes.push(`${path}: ${reason}`),
        unknownValue: (field, value) => unknown.push(`${field}=${value}`),
      });
      const i = s.incidents[0]!;
      const shift = offsetOf(layout) * 60_000;
      const at = ([, h, m, sec]: Step) => (withSeconds(layout) ? T(h, m, sec) : T(h, m)) - shift;
      equal(i.status, c.status);
      deepStrictEqual(
        i.updates.map((u) => [u.at, u.body.split("\n")[0]]),
        [...c.steps].reverse().map((step) => [at(step), step[4]]),
      );
      equal(i.resolvedAt, c.resolvedAt === null ? null : at(c.steps[0]!));
      equal(i.impact, name === "maintenance" ? "MAINTENANCE" : "MINOR");
      deepStrictEqual(notes, []);
      deepStrictEqual(unknown, []);
    });
  }
}

Deno.test("a maintenance window stated in elements of its own, or in the title, is kept with its end", () => {
  const item = (extra: string, title: string) =>
    `<rss version="2.0"><channel><item><guid>m1</guid><title>${title}</title>` +
    `<pubDate>Sat, 28 Nov 2026 08:00:00 GMT</pubDate><category>maintenance</category>${extra}` +
    `</item></channel></rss>`;
  const ctx = { pageUrl: new URL("https://status.example.com"), fetchedAt: FETCHED };
  const elements = feedAdapter.parse(
    item(
      "<maintenanceStartDate>2026-11-28T13:00:00Z</maintenanceStartDate>" +
        "<maintenanceEndDate>2026-11-28T15:00:00Z</maintenanceEndDate>",
      "Network maintenance",
    ),
    ctx,
  ).incidents[0]!;
  deepStrictEqual(
    [elements.status, elements.scheduledStartAt, elements.scheduledEndAt],
    ["SCHEDULED", T(13, 0), T(15, 0)],
  );
  const titled = feedAdapter.parse(item("", "Database upgrade 11:00–16:00 GMT"), ctx)
    .incidents[0]!;
  deepStrictEqual(
    [titled.status, titled.startedAt, titled.scheduledEndAt],
    ["IN_PROGRESS", T(11, 0), T(16, 0)],
  );
});

Deno.test("a title that states the status is believed when the text states none", () => {
  const item = (title: string) =>
    `<rss version="2.0"><channel><item><guid>a</guid><title>${title}</title>` +
    `<pubDate>Sat, 28 Nov 2026 11:00:00 GMT</pubDate><description>Some text.</description>` +
    `</item></channel></rss>`;
  const ctx = { pageUrl: new URL("https://status.example.com"), fetchedAt: FETCHED };
  equal(
    feedAdapter.parse(item("[Investigating] API errors"), ctx).incidents[0]!.status,
    "INVESTIGATING",
  );
  equal(feedAdapter.parse(item("API errors [RESOLVED]"), ctx).incidents[0]!.status, "RESOLVED");
});
