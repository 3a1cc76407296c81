/**
 * The reading limits and the time range through the poller: what a vendor publishes beyond
 * them is left out before the store sees it, the reading still succeeds, and its notes (passed
 * to the store with the reading) say what was left out.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { fixedClock, READING_LIMITS } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { createAppContext } from "../../app/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { PUBLIC_URL } from "../support/api.ts";
import { syncVendors } from "../support/seed.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import { memoryStore, pollerStats } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const iso = (t: number) => new Date(t).toISOString();

/** A Statuspage summary with too many components and out-of-range times. */
function hostileSummary(): string {
  return JSON.stringify({
    status: { indicator: "minor" },
    components: Array.from({ length: READING_LIMITS.components + 7 }, (_, i) => ({
      id: `c${i}`,
      name: `Component ${i}`,
      status: "operational",
    })),
    incidents: [
      {
        id: "far",
        name: "Created in the year 287,000",
        status: "investigating",
        impact: "minor",
        created_at: 9e15,
        incident_updates: [],
      },
      {
        id: "partly",
        name: "One bad update",
        status: "identified",
        impact: "minor",
        created_at: iso(T0 - 3_600_000),
        incident_updates: [
          { id: "u2", status: "identified", body: "Found it", created_at: 9e15 },
          { id: "u1", status: "investigating", body: "Looking", created_at: iso(T0 - 3_600_000) },
        ],
      },
    ],
  });
}

Deno.test("a reading beyond the limits is stored within them, and its notes say what was left out", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const [vendor] = sim.catalog(1, "big");
  await syncVendors(db, [vendor!], clock.now());
  sim.setDocument(vendor!.slug, "/api/v2/summary.json", {
    body: hostileSummary(),
    contentType: "application/json",
  });
  const store = db.polls;
  const notes: string[][] = [];
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 2,
      timeoutMs: 5000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    // The real store; the notes it is handed are kept to check them.
    testPollerDeps(
      {
        polls: {
          ...store,
          recordSuccess: (id, snapshot, poll) => {
            notes.push([...poll.notes]);
            return store.recordSuccess(id, snapshot, poll);
          },
        },
      },
      clock,
      { adapters: { statuspage } },
    ),
  );
  try {
    const report = await poller.runOnce();
    deepStrictEqual([report.polled, report.failed], [1, 0]);
    const detail = (await db.catalog.detail(vendor!.slug, { start: T0, end: T0 + 1 }, 0))!;
    equal(detail.components.length, READING_LIMITS.components);
    const incidents = (await db.incidents.page({}, { page: 0, limit: 10 }))!.items;
    deepStrictEqual(
      incidents.map((i) => [i.title, i.startedAt, i.updates.length]),
      [["One bad update", T0 - 3_600_000, 1]],
    );
    equal(notes.length, 1);
    const [n] = notes;
    ok(n!.some((x) => x.startsWith("components: 7 of 2007 left out")), n!.join("\n"));
    ok(n!.some((x) => x.startsWith("incidents[0]: startedAt 9000000000000000 is out of range")));
    ok(n!.some((x) => x.startsWith("incidents[1].updates[1]: 9000000000000000 is out of range")));

    const app = createServer({
      app: createAppContext({
        store: db,
        clock,
        log: silentLogger,
        settings: { publicUrl: PUBLIC_URL, pollStableSeconds: 300, pollMovingSeconds: 60 },
      }),
      pollerStats: () => pollerStats(true),
    });
    for (const path of ["/api/incidents", `/api/services/${vendor!.slug}`, "/sitemap.xml"]) {
      const res = await app.request(`${PUBLIC_URL}${path}`);
      equal(res.status, 200, path);
      await res.body?.cancel();
    }
  } finally {
    await poller.stop();
    await sim.close();
    await db.close();
  }
});
