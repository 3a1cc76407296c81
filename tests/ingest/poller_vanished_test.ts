/**
 * A Statuspage summary lists open incidents only. When one it listed is gone, the poller reads
 * the page's `/api/v2/incidents.json` once and stores what the vendor says: resolved at the
 * vendor's time with its closing words, or removed from the page; too old for that list, closed
 * when statusd saw it gone, as before. Payloads: GitHub's recorded summary and incidents list
 * (tests/fixtures/statuspage/SOURCES.md), each incident in the open form it had before.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { fixedClock, type Incident, MINUTE_MS, type Vendor } from "../../domain/mod.ts";
import { memoryStore } from "../support/store.ts";
import { loopbackStatuspagePoller } from "../support/poller.ts";

type Json = Record<string, unknown> & { incidents: Record<string, unknown>[] };
const fixture = (name: string): Json =>
  JSON.parse(
    Deno.readTextFileSync(new URL(`../fixtures/statuspage/${name}`, import.meta.url)),
  );

const HISTORY = fixture("github-incidents-resolved-2024-trimmed.json");
const SUMMARY = fixture("github-summary-partial-outage-investigating.json");
/** "Incident with Pages and Actions": resolved 2024-09-16T22:08:39.333Z. */
const RESOLVED = HISTORY.incidents[0]!;

/** An incident as a summary listed it while open: investigating, its first update only. */
function openForm(i: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const updates = i.incident_updates as Record<string, unknown>[];
  return {
    ...i,
    status: "investigating",
    resolved_at: null,
    updated_at: i.started_at,
    incident_updates: [updates[updates.length - 1]],
    ...over,
  };
}

/** A copy of the history's other incident, under another id and title, started at 18:00. */
const DELETED = openForm(HISTORY.incidents[1]!, {
  id: "d3l3t3d0000a",
  name: "Disruption with Git HTTPS",
  shortlink: "https://stspg.io/d3l3t3d0000a",
  started_at: "2024-09-16T18:00:00.000Z",
  created_at: "2024-09-16T18:00:00.000Z",
});
/** The summary's own open incident (2022): older than anything the history lists. */
const ANCIENT = SUMMARY.incidents[0]!;

const summaryWith = (incidents: unknown[]) => JSON.stringify({ ...SUMMARY, incidents });

async function rig(history: () => Response) {
  let summary = summaryWith([openForm(RESOLVED), DELETED, ANCIENT]);
  const asked: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    asked.push(path);
    if (path === "/api/v2/incidents.json") return history();
    return new Response(summary, { headers: { "content-type": "application/json" } });
  });
  const db = memoryStore();
  const clock = fixedClock(Date.UTC(2024, 8, 16, 22, 0));
  const vendor: Vendor = {
    name: "GitHub",
    slug: "github",
    statusPageUrl: `http://127.0.0.1:${server.addr.port}/`,
    platform: "statuspage",
    category: "devtools",
    provider: "github",
    domains: [],
  };
  await db.catalog.sync([vendor], clock.now());
  const poller = loopbackStatuspagePoller(db, clock);
  return {
    db,
    clock,
    asked,
    setSummary: (s: string) => summary = s,
    async round() {
      await poller.runOnce();
      clock.advance(10 * MINUTE_MS);
    },
    async incidents(): Promise<Map<string, Incident>> {
      const page = await db.incidents.page({ service: "github" }, { page: 0, limit: 50 });
      return new Map(page!.items.map((i) => [i.title, i]));
    },
    async [Symbol.asyncDispose]() {
      await poller.stop();
      await server.shutdown();
      await db.close();
    },
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

Deno.test("an incident gone from the summary: resolved as the vendor's history says, removed when it is not listed there, else closed when seen gone", async () => {
  await using r = await rig(() => json(HISTORY));
  await r.round(); // 22:00: three open incidents
  equal(r.asked.filter((p) => p.endsWith("incidents.json")).length, 0, "nothing vanished yet");
  r.setSummary(summaryWith([]));
  await r.round(); // 22:10: all three gone from the summary
  equal(r.asked.filter((p) => p.endsWith("incidents.json")).length, 1);
  const seenGone = Date.UTC(2024, 8, 16, 22, 10);
  const byTitle = await r.incidents();
  const resolved = byTitle.get("Incident with Pages and Actions")!;
  deepStrictEqual(
    [resolved.status, resolved.resolvedAt, resolved.removedAt],
    ["RESOLVED", Date.parse("2024-09-16T22:08:39.333Z"), null],
  );
  deepStrictEqual(resolved.updates.at(-1), {
    at: Date.parse("2024-09-16T22:08:39.333Z"),
    status: "RESOLVED",
    body: "This incident has been resolved.",
  });
  equal(resolved.updates.length, 6, "the whole timeline the vendor published");
  const deleted = byTitle.get("Disruption with Git HTTPS")!;
  deepStrictEqual([deleted.status, deleted.removedAt], ["RESOLVED", seenGone]);
  deepStrictEqual(deleted.revisions?.map((x) => x.kind), ["removed"]);
  const ancient = byTitle.get(String(ANCIENT.name))!;
  deepStrictEqual([ancient.status, ancient.resolvedAt, ancient.removedAt], [
    "RESOLVED",
    seenGone,
    null,
  ]);
  // The same summary again: nothing is open, so the history is not read again.
  await r.round();
  equal(r.asked.filter((p) => p.endsWith("incidents.json")).length, 1);
});

Deno.test("when the history cannot be read, a vanished incident is closed when seen gone and the reading says why", async () => {
  await using r = await rig(() => json({ error: "unavailable" }, 503));
  await r.round();
  r.setSummary(summaryWith([]));
  await r.round();
  const byTitle = await r.incidents();
  const seenGone = Date.UTC(2024, 8, 16, 22, 10);
  for (const title of ["Incident with Pages and Actions", "Disruption with Git HTTPS"]) {
    const i = byTitle.get(title)!;
    deepStrictEqual([i.status, i.resolvedAt, i.removedAt], ["RESOLVED", seenGone, null], title);
  }
  const notes = (await r.db.catalog.service("github"))!.reading.notes;
  ok(
    notes.some((n) => /^\/api\/v2\/incidents\.json: not read \(.*503.*\); 3 incident\(s\)/.test(n)),
    notes.join("\n"),
  );
});
