/**
 * Cachet 2.x names its components' groups by id only: the poller reads the groups document
 * (`/api/v1/components/groups`) once an hour per vendor and stores each component's group
 * name; when that document does not read, the components keep no group and the reading says so.
 * The documents are the recorded 2.x components answer with two groups, and a groups answer in
 * the same documented list envelope (no recorded one exists).
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { fixedClock, HOUR_MS, type Vendor } from "../../domain/mod.ts";
import { cachet } from "../../ingest/adapters/cachet.ts";
import { createPoller } from "../../ingest/mod.ts";
import { jsonFixture } from "../support/adapters.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";

const T0 = Date.UTC(2026, 4, 21, 12);
const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: "application/json" });

function components() {
  const recorded = jsonFixture("cachet", "cachet-v2-components-list-operational.json");
  const base = recorded.data[0];
  return {
    ...recorded,
    data: [
      { ...base, id: 1, name: "Website", group_id: 1 },
      { ...base, id: 2, name: "API", group_id: 2 },
      { ...base, id: 3, name: "Docs", group_id: 0 },
    ],
  };
}

/** A Cachet vendor whose catalog URL is its components API (no page to read first). */
function vendor(sim: Simulator, slug: string): Vendor {
  const [entry] = sim.catalog(1, slug);
  return {
    ...entry!,
    slug,
    platform: "cachet",
    statusPageUrl: `${sim.origins[0]}/v/${slug}/api/v1/components`,
  };
}

Deno.test("the poller names Cachet 2.x component groups from the groups document, at most hourly", async () => {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  const p = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 2,
      timeoutMs: 1000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(db, clock, { adapters: { cachet } }),
  );
  try {
    await db.catalog.sync([vendor(sim, "named"), vendor(sim, "unnamed")], T0);
    for (const slug of ["named", "unnamed"]) {
      sim.setDocument(slug, "/api/v1/components", json(components()));
    }
    sim.setDocument(
      "named",
      "/api/v1/components/groups",
      json({ meta: {}, data: [{ id: 1, name: "Websites" }, { id: 2, name: "APIs" }] }),
    );
    sim.setDocument("unnamed", "/api/v1/components/groups", { ...json({}), status: 500 });
    await p.runOnce();
    const groupsOf = async (slug: string) =>
      (await db.catalog.detail(slug, { start: T0, end: T0 + 1 }, 0))!.components.map((c) => [
        c.name,
        c.group,
      ]);
    deepStrictEqual(await groupsOf("named"), [["Website", "Websites"], ["API", "APIs"], [
      "Docs",
      null,
    ]]);
    deepStrictEqual(await groupsOf("unnamed"), [["Website", null], ["API", null], ["Docs", null]]);
    const notes = (await db.catalog.service("unnamed"))!.reading.notes;
    match(
      notes.join("\n"),
      /components\/groups: not read \(http_status.*components are shown without groups/,
    );
    equal(sim.requestsTo("named", "/api/v1/components/groups"), 1);
    // Within the hour the names are reused; after it, the next reading that changed reads
    // them again (an unchanged document records nothing, so it needs no names).
    const changed = (status: number) => {
      const doc = components();
      doc.data[1] = { ...doc.data[1], status };
      sim.setDocument("named", "/api/v1/components", json(doc));
    };
    changed(4);
    clock.set(T0 + 10 * 60_000);
    await p.runOnce();
    equal(sim.requestsTo("named", "/api/v1/components/groups"), 1);
    deepStrictEqual((await groupsOf("named"))[1], ["API", "APIs"]);
    changed(2);
    clock.set(T0 + HOUR_MS + 20 * 60_000);
    await p.runOnce();
    equal(sim.requestsTo("named", "/api/v1/components/groups"), 2);
  } finally {
    await p.stop();
    await sim.close();
    await db.close();
  }
});
