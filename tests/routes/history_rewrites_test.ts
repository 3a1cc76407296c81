/**
 * A vendor's rewrites of what it published are kept and shown: the API lists an incident's
 * revisions, the service page marks the incident and counts rewrites over 90 days.
 * @module
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import type { IncidentSnapshot } from "../../domain/mod.ts";
import { feedAdapter } from "../../ingest/adapters/feed.ts";
import { createServer } from "../../routes/mod.ts";
import { testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { runStatus, serveApi } from "../support/status_cli.ts";
import { Client, mcpRig, StreamableHTTPClientTransport } from "./mcp/_rig.ts";

const T0 = Date.UTC(2026, 10, 28, 9);
const HOUR = 3_600_000;

const outage = (body: string, impact: "MAJOR" | "MINOR"): IncidentSnapshot => ({
  externalId: "i1",
  title: "Checkout errors",
  status: "RESOLVED",
  impact,
  startedAt: T0,
  updatedAt: T0 + HOUR,
  resolvedAt: T0 + HOUR,
  url: null,
  componentIds: [],
  updates: [
    { at: T0, status: "INVESTIGATING", body },
    { at: T0 + HOUR, status: "RESOLVED", body: "Resolved." },
  ],
});

Deno.test("an edited, downgraded incident shows what the vendor said first, on the API and the page", async () => {
  let now = T0 + 2 * HOUR;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - HOUR);
  const read = (i: IncidentSnapshot, at: number) =>
    recordReading(
      ctx.store,
      "acme",
      { indicator: "OPERATIONAL", components: [], incidents: [i] },
      at,
    );
  await read(outage("All checkouts fail.", "MAJOR"), T0 + 2 * HOUR);
  await read(outage("A few checkouts were slow.", "MINOR"), T0 + 4 * HOUR);
  now = T0 + 5 * HOUR;
  const app = createServer({ app: ctx });

  const incidents = await (await app.request("http://localhost:8080/api/incidents?service=acme"))
    .json();
  const i = incidents.content[0];
  equal(i.updates[0].body, "A few checkouts were slow.");
  deepStrictEqual(i.revisions.map((r: { kind: string }) => r.kind).sort(), [
    "impact_lowered",
    "update_edited",
  ]);
  deepStrictEqual(
    i.revisions.find((r: { kind: string }) => r.kind === "update_edited").before,
    "All checkouts fail.",
  );

  const page = await (await app.request("http://localhost:8080/services/acme")).text();
  match(
    page,
    /An update was edited by the vendor 4 h after the incident was posted; it first said: “All checkouts fail\.”/,
  );
  match(page, /lowered its impact from major to minor after it ended/);
  match(page, /History rewrites in the last 90 days: 2 rewrites of 1 incident/);
});

Deno.test("an incident the vendor deletes from its feed is kept and marked, on the API, the page, the CLI and MCP", async () => {
  const atom = Deno.readTextFileSync(
    new URL("../fixtures/rss/github-history-resolved.atom", import.meta.url),
  );
  const fetchedAt = Date.parse("2026-08-22T04:00:00Z");
  const parse = (body: string) =>
    feedAdapter.parse(body, { pageUrl: new URL("https://www.githubstatus.com"), fetchedAt });
  // The vendor deletes its fourth incident: the recorded feed without that <entry>.
  const entries = atom.split("<entry>");
  const gone = entries[4]!;
  const title = /<title>([^<]*)<\/title>/.exec(gone)![1]!;
  const edited = entries.filter((e) => e !== gone).join("<entry>");

  let now = fetchedAt;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], fetchedAt - HOUR);
  await recordReading(ctx.store, "github", parse(atom), fetchedAt);
  now = fetchedAt + HOUR;
  await recordReading(ctx.store, "github", parse(edited), now);
  const app = createServer({ app: ctx });

  const body =
    await (await app.request("http://localhost:8080/api/incidents?service=github&size=100"))
      .json();
  equal(body.content.length, 25, "every incident is still listed");
  const removed = body.content.filter((i: { removedAt: string | null }) => i.removedAt !== null);
  deepStrictEqual(removed.map((i: { title: string }) => i.title), [title]);
  equal(removed[0].removedAt, new Date(now).toISOString());
  deepStrictEqual(removed[0].revisions.map((r: { kind: string }) => r.kind), ["removed"]);
  ok(removed[0].updates.length > 0, "what the vendor said is kept");

  const page = await (await app.request("http://localhost:8080/services/github")).text();
  match(page, /removed from the vendor(?:'|&#39;|&#x27;)s page/);
  match(page, /The vendor removed it from its status page/);

  const served = serveApi(ctx.store, { now: () => now });
  try {
    const run = await runStatus(["--api", served.api, "incidents", "--service", "github"]);
    equal(run.code, 0, run.stderr);
    match(run.stdout, new RegExp(`${title} \\(removed from the vendor's page\\)`));
    equal(run.stdout.match(/removed from the vendor's page/g)?.length, 1);
  } finally {
    await served.close();
  }

  const rig = await mcpRig();
  try {
    await syncVendors(
      rig.ctx.store,
      [vendorOf({ slug: "githubstatus", name: "GitHub Status" })],
      fetchedAt,
    );
    await recordReading(rig.ctx.store, "githubstatus", parse(atom), fetchedAt);
    await recordReading(rig.ctx.store, "githubstatus", parse(edited), fetchedAt + HOUR);
    rig.clock.set(fetchedAt + HOUR);
    const client = new Client({ name: "removed-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
        requestInit: { headers: { "X-API-Key": rig.keys.all } },
      }),
    );
    try {
      const r = await client.callTool({
        name: "list_incidents",
        arguments: { service: "githubstatus", which: "recent", days: 30, limit: 50 },
      });
      equal(r.isError, undefined);
      const listed = (r.structuredContent as {
        incidents: { title: string; removedAt: string | null; revisions: { kind: string }[] }[];
      }).incidents.filter((i) => i.removedAt !== null);
      deepStrictEqual(listed.map((i) => [i.title, i.revisions.map((x) => x.kind)]), [
        [title, ["removed"]],
      ]);
    } finally {
      await client.close();
    }
  } finally {
    await rig.close();
  }
});
