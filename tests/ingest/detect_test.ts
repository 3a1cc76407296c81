import { deepStrictEqual, equal } from "node:assert/strict";
import {
  detectPlatform,
  platformFromUrl,
  type ProbeFetch,
  type ProbeResponse,
} from "../../ingest/detect.ts";

const fixture = (path: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/${path}`, import.meta.url));

/** Response headers recorded from githubstatus.com (one `name: value` per line). */
const statuspageHeaders = Object.fromEntries(
  fixture("statuspage/github-status-none.headers.txt").trim().split("\n").map((line) => {
    const i = line.indexOf(":");
    return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
  }),
);

const plainPage = "<!DOCTYPE html><html><head><title>Status</title></head><body>ok</body></html>";

/** Sites served under path prefixes of one loopback server: path → [status, body, headers]. */
const SITES: Record<string, Record<string, [number, string, Record<string, string>?]>> = {
  // Statuspage custom domain: the page itself carries x-statuspage-version
  "/atlassian/": { "": [200, plainPage, { ...statuspageHeaders, "content-type": "text/html" }] },
  // Statuspage JSON with no telling header: 12-character ids in summary.json
  "/sp-json/": {
    "": [200, plainPage],
    "api/v2/summary.json": [
      200,
      fixture("statuspage/github-summary-partial-outage-investigating.json"),
    ],
  },
  // incident.io's Statuspage-compatible summary: ULID ids
  "/oa/": {
    "": [200, plainPage],
    "api/v2/summary.json": [200, fixture("incidentio/openai-compat-summary-operational.json")],
  },
  // incident.io page HTML: a Next.js flight chunk with the page structure
  "/oa-html/": {
    "": [
      200,
      `<html><body><script>self.__next_f.push([1,"1:{\\"structure\\":{\\"status_page_id\\":\\"01JMDK9XYNY6RXSED6SDWW50WY\\",\\"items\\":[]}}\\n"])</script></body></html>`,
    ],
  },
  "/inst/": {
    "": [200, plainPage],
    "summary.json": [200, fixture("instatus/instatus-docs-summary-hasissues.json")],
  },
  "/cachet/": { "": [200, plainPage], "api/v1/ping": [200, '{"data":"Pong!"}'] },
  // Cachet 3.x (cachethq/core routes/api.php: GET /api/ping → {"data":"Pong!"})
  "/cachet3/": { "": [200, plainPage], "api/ping": [200, '{"data":"Pong!"}'] },
  // Cachet 3.x page head (cachethq/core resources/views/components/cachet.blade.php)
  "/cachet3-html/": {
    "": [
      200,
      `<html><head><link rel="shortcut icon" href="https://status.example.com/vendor/cachethq/cachet/favicon.ico" /></head><body></body></html>`,
    ],
  },
  // the page links its feed
  "/linked/": {
    "": [
      200,
      `<html><head><link rel="alternate" type="application/rss+xml" href="/linked/feed.rss"></head></html>`,
    ],
    "feed.rss": [
      200,
      fixture("rss/lambstatus-demo-history-rss-maintenance-monitoring-resolved.rss"),
    ],
  },
  // no link, but /history.atom answers
  "/atom/": {
    "": [200, plainPage],
    "history.atom": [200, fixture("rss/github-history-resolved.atom")],
  },
  "/nothing/": { "": [200, plainPage] },
};

/** Better Stack answers 200 with its index for every path: the impostor check. */
const betterstack = fixture(
  "betterstack/betterstack-index-operational-resolved-report-PARTIAL.json",
);

async function withServer(fn: (base: string, fetched: string[]) => Promise<void>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/bs/")) return Response.json(JSON.parse(betterstack));
    for (const [prefix, routes] of Object.entries(SITES)) {
      if (!path.startsWith(prefix)) continue;
      const hit = routes[path.slice(prefix.length)];
      if (hit) return new Response(hit[1], { status: hit[0], headers: hit[2] });
    }
    return new Response("not found", { status: 404 });
  });
  const fetched: string[] = [];
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, fetched);
  } finally {
    await server.shutdown();
  }
}

function probe(fetched: string[]): ProbeFetch {
  return async (url): Promise<ProbeResponse | null> => {
    fetched.push(new URL(url).pathname);
    try {
      const r = await fetch(url);
      return { status: r.status, headers: r.headers, body: await r.text() };
    } catch {
      return null;
    }
  };
}

Deno.test("detectPlatform: each path against a loopback site", async (t) => {
  await withServer(async (base, fetched) => {
    const cases: [string, string][] = [
      ["/atlassian/", "statuspage"],
      ["/sp-json/", "statuspage"],
      ["/oa/", "incidentio"],
      ["/oa-html/", "incidentio"],
      ["/inst/", "instatus"],
      ["/bs/", "betterstack"],
      ["/cachet/", "cachet"],
      ["/cachet3/", "cachet"],
      ["/cachet3-html/", "cachet"],
      ["/linked/", "rss"],
      ["/atom/", "rss"],
      ["/nothing/", "unknown"],
    ];
    for (const [site, expected] of cases) {
      await t.step(`${site} → ${expected}`, async () => {
        fetched.length = 0;
        equal(await detectPlatform(`${base}${site}`, probe(fetched)), expected);
        equal(new Set(fetched).size, fetched.length, `a URL was fetched twice: ${fetched}`);
      });
    }
    await t.step("the page header decides before any API probe", async () => {
      fetched.length = 0;
      await detectPlatform(`${base}/atlassian/`, probe(fetched));
      deepStrictEqual(fetched, ["/atlassian/"]);
    });
    await t.step("probe order when nothing matches", async () => {
      fetched.length = 0;
      await detectPlatform(`${base}/nothing/`, probe(fetched));
      deepStrictEqual(fetched, [
        "/nothing/",
        "/nothing/api/v2/summary.json",
        "/nothing/summary.json",
        "/nothing/index.json",
        "/nothing/api/v1/ping",
        "/nothing/api/ping",
        "/nothing/history.atom",
      ]);
    });
  });
});

Deno.test("detectPlatform: a known host needs no request; failed fetches end in unknown", async () => {
  const fetched: string[] = [];
  const never: ProbeFetch = (url) => {
    fetched.push(url);
    return Promise.resolve(null);
  };
  equal(await detectPlatform("https://status.cloud.google.com/", never), "google-cloud");
  equal(await detectPlatform("https://acme.statuspage.io", never), "statuspage");
  deepStrictEqual(fetched, []);
  equal(await detectPlatform("https://status.acme.example", never), "unknown");
  equal(fetched.length, 7);
});

Deno.test("platformFromUrl: URL-only hints", () => {
  const cases: [string, string | null][] = [
    ["https://status.cloud.google.com/", "google-cloud"],
    ["https://www.google.com/appsstatus/dashboard/", "google-cloud"],
    ["https://health.aws.amazon.com/health/status", "aws"],
    ["https://status.aws.amazon.com/", "aws"],
    ["https://azure.status.microsoft/en-us/status", "azure"],
    ["https://azure.microsoft.com/en-us/status/", "azure"],
    ["https://slack-status.com/", "slack"],
    ["https://status.slack.com/", "slack"],
    ["https://status.heroku.com/", "heroku"],
    ["https://status.salesforce.com/instances/NA1", "salesforce"],
    ["https://acme.statuspage.io/", "statuspage"],
    ["https://acme.instatus.com/", "instatus"],
    ["https://acme.betteruptime.com/", "betterstack"],
    ["https://status.betterstack.com/", "betterstack"],
    ["https://acme.status.io/", "statusio"],
    ["https://status.x.ai/feed.xml", "rss"],
    ["https://www.githubstatus.com/history.atom", "rss"],
    ["https://www.githubstatus.com/", null],
    ["https://status.openai.com/", null],
    ["not a url", null],
  ];
  for (const [url, expected] of cases) equal(platformFromUrl(url), expected, url);
});
