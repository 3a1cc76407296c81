import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { PayloadError } from "../../../ingest/adapters/adapter.ts";
import { awsAdapter, CODE_IMPACT, CODE_LEVEL, TITLE_IMPACT } from "../../../ingest/adapters/aws.ts";
import { fixture } from "../../support/adapters.ts";

const read = (name: string) => fixture("aws", name);
const at = (iso: string) => Date.parse(iso);
const ctx = (fetchedAt: string, seen: string[] = []) => ({
  pageUrl: new URL("https://health.aws.amazon.com/health/status"),
  fetchedAt: at(fetchedAt),
  unknownValue: (f: string, v: string) => seen.push(`${f}=${v}`),
});

Deno.test("AWS RSS: a resolved item and an open informational message → OPERATIONAL", () => {
  const seen: string[] = [];
  const s = awsAdapter.parse(read("aws-all-rss-two-items.xml"), ctx("2023-02-13T08:10:00Z", seen));
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 2);
  const [rds, billing] = s.incidents;
  equal(rds!.externalId, "http://status.aws.amazon.com/#rds-us-east-1_1676072880");
  equal(rds!.title, "Connectivity issues affecting some instances");
  equal(rds!.status, "RESOLVED");
  equal(rds!.startedAt, at("2023-02-10T23:48:00Z")); // 15:48 PST
  equal(rds!.resolvedAt, at("2023-02-10T23:48:00Z"));
  equal(billing!.status, "INVESTIGATING");
  equal(billing!.impact, "NONE");
  equal(billing!.startedAt, at("2023-02-02T22:19:24Z"));
  equal(billing!.updates.length, 1);
  equal(
    billing!.updates[0]!.body.startsWith("We are currently seeing early signs of recovery"),
    true,
  );
  deepStrictEqual(seen, []);
});

Deno.test("AWS RSS: the empty channel is OPERATIONAL with nothing listed", () => {
  const s = awsAdapter.parse(read("aws-all-rss-empty.xml"), ctx("2023-02-16T08:10:00Z"));
  equal(s.indicator, "OPERATIONAL");
  deepStrictEqual(s.incidents, []);
});

Deno.test("AWS RSS: a service disruption is MAJOR_OUTAGE until the item that ends it", () => {
  const item = (title: string, date: string, epoch: number) =>
    `<item><title><![CDATA[${title}]]></title><pubDate>${date}</pubDate><guid isPermaLink="false">http://status.aws.amazon.com/#ec2-us-east-1_${epoch}</guid><description>x</description></item>`;
  const feed = (...items: string[]) =>
    `<rss version="2.0"><channel>${items.join("")}</channel></rss>`;
  const down = item("Service disruption: Increased API errors", "Fri, 10 Feb 2023 10:00:00 PST", 1);
  const up = item(
    "Service is operating normally: [RESOLVED] Increased API errors",
    "Fri, 10 Feb 2023 12:00:00 PST",
    2,
  );
  equal(awsAdapter.parse(feed(down), ctx("2023-02-10T19:00:00Z")).indicator, "MAJOR_OUTAGE");
  const later = awsAdapter.parse(feed(up, down), ctx("2023-02-10T21:00:00Z"));
  equal(later.indicator, "OPERATIONAL");
  deepStrictEqual(
    later.incidents.map((i) => [i.status, i.impact, i.startedAt, i.resolvedAt, i.updates.length]),
    [["RESOLVED", "CRITICAL", at("2023-02-10T18:00:00Z"), at("2023-02-10T20:00:00Z"), 2]],
  );
});

Deno.test("AWS RSS: the updates of one event are one incident; the item after its end begins the next", () => {
  const item = (prefix: string, text: string, hour: number, epoch: number) =>
    `<item><title><![CDATA[${prefix}: ${text}]]></title><pubDate>Fri, 10 Feb 2023 ${hour}:00:00 GMT</pubDate><guid isPermaLink="false">http://status.aws.amazon.com/#lambda-eu-west-1_${epoch}</guid><description>update ${epoch}</description></item>`;
  // Newest first, as the feed prints them: six updates of two events, and another service's.
  const body = `<rss version="2.0"><channel>${
    [
      item("Service degradation", "Elevated invoke errors", 9, 6),
      item("Service is operating normally", "[RESOLVED] Increased latencies", 8, 5),
      item("Service degradation", "Increased latencies", 7, 4),
      item("Informational message", "Increased latencies", 6, 3),
      item("Performance issues", "Increased latencies", 5, 2),
    ].join("")
  }<item><title>Informational message: Console sign-in delays</title><pubDate>Fri, 10 Feb 2023 04:00:00 GMT</pubDate><guid>http://status.aws.amazon.com/#signin_1</guid><description>x</description></item></channel></rss>`;
  const s = awsAdapter.parse(body, ctx("2023-02-10T09:30:00Z"));
  deepStrictEqual(
    s.incidents.map((i) => [i.externalId.replace(/^.*#/, ""), i.title, i.status, i.impact]),
    [
      ["lambda-eu-west-1_6", "Elevated invoke errors", "INVESTIGATING", "MAJOR"],
      ["lambda-eu-west-1_2", "Increased latencies", "RESOLVED", "MAJOR"],
      ["signin_1", "Console sign-in delays", "INVESTIGATING", "NONE"],
    ],
  );
  const closed = s.incidents[1]!;
  equal(closed.startedAt, at("2023-02-10T05:00:00Z"));
  equal(closed.resolvedAt, at("2023-02-10T08:00:00Z"));
  deepStrictEqual(closed.updates.map((u) => [u.body, u.status]), [
    ["update 2", "INVESTIGATING"],
    ["update 3", "INVESTIGATING"],
    ["update 4", "INVESTIGATING"],
    ["update 5", "RESOLVED"],
  ]);
  // An ongoing degradation is a partial outage, not a minor one.
  equal(s.indicator, "PARTIAL_OUTAGE");
});

Deno.test("AWS Health currentevents: one open event, status 3 → MAJOR_OUTAGE", () => {
  const s = awsAdapter.parse(
    read("aws-health-currentevents-one-open-event-PARTIAL.json"),
    ctx("2026-09-23T12:00:00Z"),
  );
  equal(s.indicator, "MAJOR_OUTAGE");
  equal(s.incidents.length, 1);
  const e = s.incidents[0]!;
  equal(e.title, "Multiple services: Region Availability");
  equal(e.status, "INVESTIGATING");
  equal(e.impact, "CRITICAL");
  equal(e.startedAt, 1772369485000);
  equal(e.updates.length, 1);
  equal(e.updates[0]!.at, 1772369485000);
  deepStrictEqual(e.componentIds, ["cloudwatchsynthetics-me-central-1"]);
  deepStrictEqual(s.components, [{
    externalId: "cloudwatchsynthetics-me-central-1",
    name: "Amazon CloudWatch Synthetics",
    group: null,
    status: "MAJOR_OUTAGE",
  }]);
});

Deno.test("AWS Health currentevents: a UTF-16 body read as UTF-8 still parses", () => {
  const json = `[${read("aws-health-currentevents-one-open-event-PARTIAL.json")}]`;
  const utf16 = "\uFFFD\uFFFD" + [...json].map((c) => c + "\u0000").join("");
  const s = awsAdapter.parse(utf16, ctx("2026-09-23T12:00:00Z"));
  equal(s.indicator, "MAJOR_OUTAGE");
  equal(s.incidents.length, 1);
  equal(awsAdapter.parse("[]", ctx("2026-09-23T12:00:00Z")).indicator, "OPERATIONAL");
});

Deno.test("AWS legacy data.json: timelines anchored to the event day, across midnight", () => {
  const s = awsAdapter.parse(
    read("aws-legacy-shd-data-archive-trimmed.json"),
    ctx("2021-09-01T00:00:00Z"),
  );
  equal(s.indicator, "OPERATIONAL");
  equal(s.incidents.length, 3);
  const acm = s.incidents[1]!;
  equal(acm.title, "AWS Certificate Manager (N. Virginia): Increased API Error Rates and Latency");
  equal(acm.impact, "CRITICAL");
  equal(acm.status, "RESOLVED");
  equal(acm.updates.length, 10);
  equal(acm.updates[0]!.at, at("2021-06-29T19:12:00Z")); // 12:12 PM PDT
  equal(acm.resolvedAt, at("2021-06-30T02:46:00Z")); // 7:46 PM PDT, same local day
  deepStrictEqual(s.incidents.map((i) => i.impact), ["NONE", "CRITICAL", "MINOR"]);
});

Deno.test("AWS mapping tables", () => {
  deepStrictEqual(CODE_IMPACT, { "0": "NONE", "1": "NONE", "2": "MINOR", "3": "CRITICAL" });
  deepStrictEqual(CODE_LEVEL, {
    "0": "OPERATIONAL",
    "1": "OPERATIONAL",
    "2": "DEGRADED_PERFORMANCE",
    "3": "MAJOR_OUTAGE",
  });
  equal(TITLE_IMPACT["performance issues"], "MINOR");
  equal(TITLE_IMPACT["service degradation"], "MAJOR");
  equal(TITLE_IMPACT["service disruption"], "CRITICAL");
  const seen: string[] = [];
  const odd = JSON.parse(read("aws-health-currentevents-one-open-event-PARTIAL.json"));
  odd.status = "7";
  odd.impacted_services["cloudwatchsynthetics-me-central-1"].current = "9";
  const s = awsAdapter.parse(JSON.stringify([odd]), ctx("2026-09-23T12:00:00Z", seen));
  deepStrictEqual(seen, ["status=7", "service status=9"]);
  equal(s.components[0]!.status, "UNKNOWN");
  equal(s.incidents[0]!.impact, "MINOR");
});

Deno.test("AWS: wrong shapes are PayloadErrors naming the path", () => {
  const c = ctx("2026-09-23T12:00:00Z");
  throws(() => awsAdapter.parse("<html><body>oops</body></html>", c), PayloadError);
  throws(
    () => awsAdapter.parse('{"foo":1}', c),
    (e) => e instanceof PayloadError && e.path === "$.archive",
  );
});

Deno.test("AWS: a malformed event or log entry is dropped with a note, the rest read", () => {
  const dropped: string[] = [];
  const c = {
    ...ctx("2026-09-23T12:00:00Z"),
    dropped: (path: string, reason: string) => dropped.push(`${path}: ${reason}`),
  };
  const event = JSON.parse(
    read("aws-health-currentevents-one-open-event-PARTIAL.json").replace(/^\uFEFF/, ""),
  );
  const whole = awsAdapter.parse(JSON.stringify([event]), c);
  const broken = structuredClone(event);
  broken.event_log[0].timestamp = "later";
  const bad = { ...event, date: "soon" };
  const s = awsAdapter.parse(JSON.stringify([bad, broken]), c);
  equal(s.incidents.length, 1);
  equal(s.incidents[0]!.updates.length, whole.incidents[0]!.updates.length - 1);
  deepStrictEqual(dropped.map((d) => d.split(":")[0]), ["[0].date", "[1].event_log[0].timestamp"]);
});
