import { deepStrictEqual, equal, match, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import {
  DEFAULT_IMPACT,
  feedAdapter,
  LABEL_STATUS,
  SEVERITY_IMPACT,
} from "../../../ingest/adapters/feed.ts";
import { IMPACT_LEVEL, incidentLevel } from "../../../ingest/adapters/_feed_common.ts";
import { parseRfc822, parseWallDateForTest } from "./_feed_support.ts";

const dir = new URL("../../fixtures/rss/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, dir));
const at = (iso: string) => Date.parse(iso);

function parse(name: string, fetchedAt: string) {
  const unknown: string[] = [];
  const snapshot = feedAdapter.parse(read(name), {
    pageUrl: new URL("https://status.example.com"),
    fetchedAt: at(fetchedAt),
    unknownValue: (field, value) => unknown.push(`${field}=${value}`),
  });
  return { ...snapshot, unknown };
}

Deno.test("GitHub Atom: a same-minute Investigating printed above Resolved does not reopen", () => {
  const s = parse("github-history-investigating.atom", "2024-05-30T03:00:00Z");
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 25);
  equal(s.incidents.filter((i) => i.resolvedAt === null).length, 0);
  const first = s.incidents[0]!;
  equal(first.externalId, "tag:www.githubstatus.com,2005:Incident/20910208");
  equal(first.title, "Incident with Codespaces");
  equal(first.status, "RESOLVED");
  equal(first.impact, DEFAULT_IMPACT);
  equal(first.url, "https://www.githubstatus.com/incidents/k8nz2ljtvzv4");
  equal(first.updates.length, 7);
  equal(first.startedAt, at("2024-05-28T20:17:00Z"));
  equal(first.updatedAt, at("2024-05-28T21:24:34Z"));
  equal(first.resolvedAt, at("2024-05-28T21:24:00Z"));
  deepStrictEqual(first.updates.slice(-2).map((u) => [u.status, u.body]), [
    ["INVESTIGATING", "Codespaces is operating normally."],
    ["RESOLVED", "This incident has been resolved."],
  ]);
  equal(
    first.updates[0]!.body,
    "We are investigating reports of degraded performance for Codespaces",
  );
  const second = s.incidents[1]!;
  equal(second.status, "RESOLVED");
  equal(second.resolvedAt, at("2024-05-23T16:02:00Z"));
  deepStrictEqual(s.components, []);
  deepStrictEqual(s.unknown, []);
});

Deno.test("a later minute does reopen: Investigating after Resolved is open", () => {
  const body = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>e1</id><title>t</title>
    <published>2024-05-28T20:00:00Z</published><updated>2024-05-28T21:30:00Z</updated>
    <content type="html">&lt;p&gt;&lt;small&gt;May 28, 21:30 UTC&lt;/small&gt;&lt;br&gt;&lt;strong&gt;Investigating&lt;/strong&gt; - back again&lt;/p&gt;&lt;p&gt;&lt;small&gt;May 28, 21:00 UTC&lt;/small&gt;&lt;br&gt;&lt;strong&gt;Resolved&lt;/strong&gt; - fixed&lt;/p&gt;</content>
    </entry></feed>`;
  const s = feedAdapter.parse(body, {
    pageUrl: new URL("https://x.test"),
    fetchedAt: at("2024-05-28T22:00:00Z"),
  });
  equal(s.incidents[0]!.status, "INVESTIGATING");
  equal(s.incidents[0]!.resolvedAt, null);
  equal(s.indicator, "DEGRADED_PERFORMANCE");
});

Deno.test("GitHub Atom: a maintenance in progress reads UNDER_MAINTENANCE", () => {
  const s = parse("github-history-maintenance-in-progress.atom", "2025-05-30T00:00:00Z");
  equal(s.indicator, "UNDER_MAINTENANCE");
  const [now, before] = s.incidents;
  equal(now!.status, "IN_PROGRESS");
  equal(now!.impact, "MAINTENANCE");
  equal(now!.startedAt, at("2025-05-29T21:30:00Z"));
  deepStrictEqual(now!.updates.map((u) => u.status), ["SCHEDULED", "IN_PROGRESS"]);
  equal(before!.status, "COMPLETED");
  equal(before!.resolvedAt, at("2025-05-29T16:30:00Z"));
  deepStrictEqual(before!.updates.map((u) => u.status), ["SCHEDULED", "IN_PROGRESS", "COMPLETED"]);
});

Deno.test("GitHub Atom: an upcoming maintenance is SCHEDULED at its window and does not raise the level", () => {
  const s = parse("github-history-scheduled-maintenance.atom", "2025-05-28T00:00:00Z");
  equal(s.indicator, "OPERATIONAL");
  const m = s.incidents[0]!;
  equal(m.title, "Codespaces Scheduled Maintenance");
  equal(m.status, "SCHEDULED");
  equal(m.impact, "MAINTENANCE");
  equal(m.startedAt, at("2025-05-28T16:30:00Z"));
  equal(m.scheduledStartAt, at("2025-05-28T16:30:00Z"), "THIS IS A SCHEDULED EVENT start");
  equal(m.scheduledEndAt, at("2025-05-29T16:30:00Z"), "… and end");
  equal(m.updates.length, 1);
  equal(m.updates[0]!.at, at("2025-05-22T15:26:00Z"));
  equal(s.incidents[3]!.title, "[Retroactive] Incident with Git Operations");
  equal(s.incidents[3]!.status, "RESOLVED");
});

Deno.test("GitHub Atom: all resolved → OPERATIONAL; timeline lengths and epoch ms", () => {
  const s = parse("github-history-resolved.atom", "2026-08-22T00:00:00Z");
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 25);
  equal(s.incidents.every((i) => i.status === "RESOLVED"), true);
  const big = s.incidents[3]!;
  equal(big.title, "Incident with GitHub.com");
  equal(big.updates.length, 36);
  equal(big.startedAt, at("2026-08-17T13:40:00Z"));
  equal(big.resolvedAt, at("2026-08-17T21:15:00Z"));
  equal(big.updatedAt, at("2026-08-18T19:21:36Z"));
  deepStrictEqual(s.incidents[1]!.updates.map((u) => u.status), [
    "INVESTIGATING",
    "MONITORING",
    "MONITORING",
    "MONITORING",
    "RESOLVED",
  ]);
});

Deno.test("GitHub RSS 2022: space-padded days and pubDate +0000", () => {
  const s = parse("github-history-rss-2022-03.rss", "2022-03-17T00:00:00Z");
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 25);
  const slack = s.incidents[1]!;
  equal(slack.title, "Incident with Slack Integration");
  deepStrictEqual(slack.updates.map((u) => u.at), [
    at("2022-03-09T11:24:00Z"),
    at("2022-03-09T11:57:00Z"),
    at("2022-03-09T17:45:00Z"),
  ]);
  equal(s.incidents[0]!.updates.length, 8);
  // "Update" keeps the previous status
  equal(s.incidents[0]!.updates[3]!.status, "INVESTIGATING");
});

Deno.test("Parse RSS 2014: year-less dates across New Year, Postmortem keeps the resolve time", () => {
  const s = parse("parse-history-rss-2014-postmortem-update.rss", "2014-01-10T00:00:00Z");
  equal(s.incidents.length, 17);
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents[0]!.startedAt, at("2014-01-01T16:17:00Z")); // Jan  1, 08:17 PST
  equal(s.incidents[1]!.startedAt, at("2013-12-29T16:04:00Z")); // Dec 29, 08:04 PST
  const pm = s.incidents[3]!;
  equal(pm.title, "Elevated error rates and latency");
  deepStrictEqual(pm.updates.map((u) => u.status), ["INVESTIGATING", "RESOLVED", "RESOLVED"]);
  equal(pm.resolvedAt, at("2013-12-24T19:21:00Z"));
  equal(pm.updatedAt, at("2013-12-26T18:22:00Z"));
});

Deno.test("Quay RSS: EST/EDT local zones, maintenance statuses", () => {
  const s = parse("quay-history-rss-maintenance-local-tz.rss", "2021-12-14T09:00:00Z");
  equal(s.indicator, "OPERATIONAL");
  const [done, postponed] = s.incidents;
  equal(done!.status, "COMPLETED");
  equal(done!.impact, "MAINTENANCE");
  deepStrictEqual(done!.updates.map((u) => [u.status, u.at]), [
    ["SCHEDULED", at("2021-11-02T13:29:00Z")], // 09:29 EDT
    ["IN_PROGRESS", at("2021-11-07T08:00:00Z")], // 03:00 EST
    ["IN_PROGRESS", at("2021-11-07T10:44:00Z")], // Verifying
    ["COMPLETED", at("2021-11-07T12:01:00Z")],
  ]);
  equal(done!.startedAt, at("2021-11-07T08:00:00Z"));
  equal(postponed!.status, "COMPLETED");
  equal(postponed!.updates.length, 2);
});

Deno.test("LambStatus: content:encoded only; a monitoring incident is open, a future maintenance is not", () => {
  const s = parse(
    "lambstatus-demo-history-rss-maintenance-monitoring-resolved.rss",
    "2017-10-14T06:00:00Z",
  );
  equal(s.indicator, "DEGRADED_PERFORMANCE");
  const [maintenance, dns, webhooks] = s.incidents;
  equal(maintenance!.status, "SCHEDULED");
  equal(maintenance!.impact, "MAINTENANCE");
  equal(maintenance!.startedAt, at("2017-10-15T06:45:00Z"));
  equal(dns!.status, "MONITORING");
  equal(dns!.resolvedAt, null);
  equal(dns!.updates.length, 3);
  equal(dns!.updates[0]!.at, at("2017-05-13T06:41:00Z"));
  equal(webhooks!.status, "RESOLVED");
  equal(webhooks!.resolvedAt, at("2017-05-13T06:41:00Z"));
});

Deno.test("xAI: duplicate guids merge into one incident; severity and state from the HTML", () => {
  const s = parse(
    "xai-status-feed-rss-severity-categories-duplicate-guids-TRIMMED.xml",
    "2026-10-07T12:00:00Z",
  );
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 3);
  deepStrictEqual(s.incidents.map((i) => i.externalId), [
    "ps_d022a635bce02f4a",
    "ps_f64984fa7d669b08",
    "INC578e0bc8",
  ]);
  const merged = s.incidents[2]!;
  equal(merged.title, "Outages across API, Grok.com, and Grok Build");
  equal(merged.impact, "CRITICAL");
  equal(merged.status, "RESOLVED");
  equal(merged.startedAt, at("2026-09-22T01:02:42Z"));
  equal(merged.resolvedAt, at("2026-09-22T01:28:43Z"));
  equal(merged.updates.length, 3);
  equal(merged.updates[0]!.body, "We are investigating a datacenter issue");
  equal(s.incidents[1]!.impact, "MAJOR"); // disruption
});

Deno.test("an open feed incident takes its severity's level", () => {
  const body = `<rss version="2.0"><channel><item><guid>a</guid><title>API down</title>
    <pubDate>Wed, 07 Oct 2026 00:24:33 GMT</pubDate>
    <description><![CDATA[<h3>Status: INVESTIGATING</h3><p>Severity: outage</p>]]></description>
    </item></channel></rss>`;
  const s = feedAdapter.parse(body, {
    pageUrl: new URL("https://x.test"),
    fetchedAt: at("2026-10-07T01:00:00Z"),
  });
  equal(s.indicator, "MAJOR_OUTAGE");
  equal(s.incidents[0]!.status, "INVESTIGATING");
});

Deno.test("unknown labels and severities are reported, never guessed", () => {
  const body = `<rss version="2.0"><channel><item><guid>a</guid><title>x</title>
    <pubDate>Wed, 07 Oct 2026 00:24:33 GMT</pubDate>
    <description><![CDATA[<p>Severity: apocalyptic</p><p><small>Oct 7, 00:20 XYZT</small><br><strong>Investigating</strong> - a</p><p><small>Oct 7, 00:10 UTC</small><br><strong>Pondering</strong> - b</p>]]></description>
    </item></channel></rss>`;
  const seen: string[] = [];
  const s = feedAdapter.parse(body, {
    pageUrl: new URL("https://x.test"),
    fetchedAt: at("2026-10-07T01:00:00Z"),
    unknownValue: (f, v) => seen.push(`${f}=${v}`),
  });
  deepStrictEqual(seen.sort(), [
    "severity=apocalyptic",
    "time zone=XYZT",
    "update label=Pondering",
  ]);
  equal(s.incidents[0]!.impact, DEFAULT_IMPACT);
  equal(s.incidents[0]!.status, "INVESTIGATING");
});

Deno.test("an entry with no status signal is read as closed, however recent, and the reading says so", () => {
  const body = (date: string) =>
    `<rss version="2.0"><channel><item><guid>a</guid><title>x</title><pubDate>${date}</pubDate></item></channel></rss>`;
  for (const date of ["Wed, 07 Oct 2026 11:56:00 GMT", "Mon, 05 Oct 2026 06:00:00 GMT"]) {
    const notes: string[] = [];
    const ctx = {
      pageUrl: new URL("https://x.test"),
      fetchedAt: at("2026-10-07T12:00:00Z"),
      dropped: (path: string, reason: string) => notes.push(`${path}: ${reason}`),
    };
    const s = feedAdapter.parse(body(date), ctx);
    equal(s.incidents[0]!.status, "RESOLVED", date);
    equal(s.indicator, "OPERATIONAL", date);
    equal(notes.length, 1);
    match(notes[0]!, /entries\[0\]: "x": no timeline or status could be read.*read as resolved/);
  }
});

Deno.test("mapping tables: labels, severities, impact levels", () => {
  const labels: [string, string | null][] = [
    ["investigating", "INVESTIGATING"],
    ["identified", "IDENTIFIED"],
    ["update", null],
    ["monitoring", "MONITORING"],
    ["resolved", "RESOLVED"],
    ["postmortem", "RESOLVED"],
    ["scheduled", "SCHEDULED"],
    ["in progress", "IN_PROGRESS"],
    ["verifying", "IN_PROGRESS"],
    ["completed", "COMPLETED"],
  ];
  deepStrictEqual(Object.entries(LABEL_STATUS), labels);
  deepStrictEqual(SEVERITY_IMPACT.outage, "CRITICAL");
  deepStrictEqual(SEVERITY_IMPACT.disruption, "MAJOR");
  deepStrictEqual(IMPACT_LEVEL, {
    NONE: "OPERATIONAL",
    MINOR: "DEGRADED_PERFORMANCE",
    MAJOR: "PARTIAL_OUTAGE",
    CRITICAL: "MAJOR_OUTAGE",
    MAINTENANCE: "UNDER_MAINTENANCE",
  });
  equal(incidentLevel({ status: "SCHEDULED", impact: "MAINTENANCE" }), "OPERATIONAL");
  equal(incidentLevel({ status: "IN_PROGRESS", impact: "MAINTENANCE" }), "UNDER_MAINTENANCE");
  equal(incidentLevel({ status: "RESOLVED", impact: "CRITICAL" }), "OPERATIONAL");
  equal(incidentLevel({ status: "MONITORING", impact: "CRITICAL" }), "MAJOR_OUTAGE");
});

Deno.test("timestamps: RFC 822 zones and year-less wall clocks", () => {
  equal(parseRfc822("Mon, 12 Nov 2018 16:25:40 Z"), at("2018-11-12T16:25:40Z"));
  equal(parseRfc822("Fri, 10 Feb 2023 15:48:00 PST"), at("2023-02-10T23:48:00Z"));
  equal(parseRfc822("Sun, 07 Nov 2021 07:01:01 -0500"), at("2021-11-07T12:01:01Z"));
  equal(parseRfc822("yesterday"), null);
  equal(
    parseWallDateForTest("Dec 31, 23:00 UTC", "2014-01-01T05:00:00Z"),
    at("2013-12-31T23:00:00Z"),
  );
  equal(
    parseWallDateForTest("Nov  7, 07:01 EST", "2021-11-07T12:01:01Z"),
    at("2021-11-07T12:01:00Z"),
  );
});

Deno.test("malformed or foreign bodies are PayloadErrors naming the path", () => {
  const ctx = { pageUrl: new URL("https://x.test"), fetchedAt: 0 };
  throws(
    () => feedAdapter.parse("<html><body>504</body></html>", ctx),
    (e) =>
      e instanceof PayloadError &&
      /"\$": expected an <rss> or Atom <feed> root, found html/.test(e.message),
  );
  throws(() => feedAdapter.parse("<rss><channel><item></channel></rss>", ctx), PayloadError);
  throws(() => feedAdapter.parse('{"status":"ok"}', ctx), PayloadError);
  throws(
    () => feedAdapter.parse("<rss><channel>just text</channel></rss>", ctx),
    (e) => e instanceof PayloadError && e.path === "$.rss.channel",
  );
});

Deno.test("a malformed feed entry is dropped with a note, the other entries read", () => {
  const dropped: string[] = [];
  const ctx = {
    pageUrl: new URL("https://www.githubstatus.com"),
    fetchedAt: Date.parse("2022-12-01T00:00:00Z"),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const atom = Deno.readTextFileSync(
    new URL("../../fixtures/rss/github-history-resolved.atom", import.meta.url),
  );
  const whole = feedAdapter.parse(atom, ctx);
  const start = atom.indexOf("<entry>");
  const end = atom.indexOf("</entry>", start) + "</entry>".length;
  const broken = atom.slice(0, start) + "<entry>only text</entry>" + atom.slice(end);
  const snap = feedAdapter.parse(broken, ctx);
  deepStrictEqual(
    snap.incidents.map((i) => i.externalId),
    whole.incidents.map((i) => i.externalId).slice(1),
  );
  equal(dropped.length, 1);
  equal(dropped[0]!.split(":")[0], "feed.entry[0]");
});

Deno.test("endpoint: feed URLs as given, else <page>/history.atom", () => {
  const ep = (u: string) => feedAdapter.endpoint({ statusPageUrl: u, slug: "x" }).href;
  equal(ep("https://status.x.ai/feed.xml"), "https://status.x.ai/feed.xml");
  equal(ep("https://www.githubstatus.com"), "https://www.githubstatus.com/history.atom");
  equal(ep("https://status.example.com/sub/"), "https://status.example.com/sub/history.atom");
  equal(ep("https://status.example.com/history.rss"), "https://status.example.com/history.rss");
});
