import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { type Change, fixedClock, MINUTE_MS, SECOND_MS } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller, type PollerDeps } from "../../ingest/mod.ts";
import { createLogger, silentLogger } from "../../log.ts";
import type { DueVendor, PollStore, Store } from "../../domain/mod.ts";
import { fetchOutcomes, serviceTransitions, vendorState } from "../support/inspect.ts";
import { syncVendors } from "../support/seed.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";
import { testPollerDeps } from "../support/poller.ts";
import { until } from "../support/statusd_process.ts";

const T0 = Date.UTC(2026, 0, 1, 12);
const CONFIG = {
  enabled: true,
  movingSeconds: 60,
  stableSeconds: 300,
  concurrency: 8,
  // Room for the huge body to pass the size bound before the deadline on a loaded machine (at
  // 1 s, CI once read it as a timeout); the hanging vendor still meets it.
  timeoutMs: 3000,
  allowPrivate: ALLOW_SIMULATOR,
};

interface Rig {
  store: Store;
  sim: Simulator;
  clock: ReturnType<typeof fixedClock>;
  published: Change[];
  poller: ReturnType<typeof createPoller>;
  close(): Promise<void>;
}

async function rig(count: number, deps: Partial<PollerDeps> = {}): Promise<Rig> {
  const store = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  await syncVendors(store, sim.catalog(count), clock.now());
  const published: Change[] = [];
  store.changes.subscribe((c) => published.push(...c));
  const poller = createPoller(
    CONFIG,
    testPollerDeps(store, clock, { adapters: { statuspage }, ...deps }),
  );
  return {
    store,
    sim,
    clock,
    published,
    poller,
    close: async () => {
      await poller.stop();
      await sim.close();
      await store.close();
    },
  };
}

const vendor = vendorState;

Deno.test("a poll cycle against the simulator stores status, components and transitions", async () => {
  const r = await rig(2);
  try {
    r.sim.setScenario("sim-00002", "outage");
    const report = await r.poller.runOnce();
    deepStrictEqual(report.polled, 2);
    equal((await vendor(r.store, "sim-00001")).currentStatus, "OPERATIONAL");
    equal((await vendor(r.store, "sim-00002")).currentStatus, "PARTIAL_OUTAGE");
    deepStrictEqual(await serviceTransitions(r.store, "sim-00002"), [
      { from: "UNKNOWN", to: "PARTIAL_OUTAGE", at: T0 },
    ]);
    const detail = (await r.store.catalog.detail("sim-00002", { start: T0, end: T0 + 1 }, 0))!;
    ok(detail.components.length > 0);
    equal(detail.incidents.length, 1);
    ok(
      r.published.some((c) =>
        c.kind === "status" && c.slug === "sim-00002" && c.to === "PARTIAL_OUTAGE"
      ),
    );
    ok(r.published.some((c) => c.kind === "incident" && c.slug === "sim-00002"));
    for (const slug of ["sim-00001", "sim-00002"]) {
      deepStrictEqual(
        (await r.store.history.fetchLog(slug, 0)).map((f) => [f.outcome, f.httpStatus]),
        [["ok", 200]],
      );
    }
  } finally {
    await r.close();
  }
});

Deno.test("a scenario flip is stored within one moving interval; an unchanged page writes only the check", async () => {
  const r = await rig(1);
  try {
    await r.poller.runOnce(); // calm: next poll within the stable interval
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce(); // conditional GET: 304
    const stored = async () => ({
      transitions: (await serviceTransitions(r.store, "sim-00001")).length,
      components: (await r.store.catalog.detail("sim-00001", { start: T0, end: T0 + 1 }, 0))!
        .components.length,
      changes: await r.store.changes.latestId(),
    });
    const before = await stored();
    deepStrictEqual(await fetchOutcomes(r.store, "sim-00001"), ["ok", "not_modified"]);
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce();
    deepStrictEqual(
      await stored(),
      before,
      "a poll that changes nothing stores nothing but the fetch",
    );

    // Vendor now becomes moving after the outage is seen; the recovery is seen within 60 s.
    r.sim.setScenario("sim-00001", "outage");
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce();
    equal((await vendor(r.store, "sim-00001")).currentStatus, "PARTIAL_OUTAGE");
    const flippedAt = r.clock.now();
    r.sim.setScenario("sim-00001", "calm");
    for (let t = 0; t < CONFIG.movingSeconds; t++) {
      r.clock.advance(SECOND_MS);
      await r.poller.runOnce();
    }
    const last = (await serviceTransitions(r.store, "sim-00001")).at(-1)!;
    deepStrictEqual({ from: last.from, to: last.to }, {
      from: "PARTIAL_OUTAGE",
      to: "OPERATIONAL",
    });
    ok(last.at - flippedAt <= CONFIG.movingSeconds * SECOND_MS);
  } finally {
    await r.close();
  }
});

const FAILURES = [
  ["hang", "timeout"],
  ["html", "not_machine_readable"],
  ["invalid_json", "parse_error"],
  ["wrong_shape", "bad_payload"],
  ["status_500", "http_status"],
  ["redirect_loop", "redirect_loop"],
  ["huge", "too_large"],
] as const;

Deno.test("each broken vendor is recorded with its reason and the others are unaffected", async () => {
  const r = await rig(FAILURES.length + 2);
  try {
    FAILURES.forEach(([scenario], i) =>
      r.sim.setScenario(`sim-${String(i + 1).padStart(5, "0")}`, scenario)
    );
    const healthyOutage = `sim-${String(FAILURES.length + 2).padStart(5, "0")}`;
    r.sim.setScenario(healthyOutage, "outage");
    const report = await r.poller.runOnce();
    equal(report.failed, FAILURES.length);
    for (const [i, [, reason]] of FAILURES.entries()) {
      const slug = `sim-${String(i + 1).padStart(5, "0")}`;
      const v = await vendor(r.store, slug);
      equal(v.failures, 1);
      equal(v.reading.error?.kind, reason);
      equal(v.currentStatus, "UNKNOWN");
      deepStrictEqual(await fetchOutcomes(r.store, slug), [reason]);
    }
    equal(
      (await vendor(r.store, `sim-${String(FAILURES.length + 1).padStart(5, "0")}`)).currentStatus,
      "OPERATIONAL",
    );
    equal((await vendor(r.store, healthyOutage)).currentStatus, "PARTIAL_OUTAGE");
    deepStrictEqual(r.poller.stats().failuresByReason, {
      timeout: 1,
      not_machine_readable: 1,
      parse_error: 1,
      bad_payload: 1,
      http_status: 1,
      redirect_loop: 1,
      too_large: 1,
    });
  } finally {
    await r.close();
  }
});

Deno.test("failures back off, and the service reads UNKNOWN once data is older than three intervals", async () => {
  const r = await rig(1);
  try {
    await r.poller.runOnce();
    equal((await vendor(r.store, "sim-00001")).currentStatus, "OPERATIONAL");
    r.sim.setScenario("sim-00001", "status_500");
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      r.clock.set((await vendor(r.store, "sim-00001")).nextPollAt);
      await r.poller.runOnce();
      waits.push((await vendor(r.store, "sim-00001")).nextPollAt - r.clock.now());
    }
    ok(waits[1]! > waits[0]! && waits[2]! > waits[1]!, `backoff grows: ${waits}`);
    ok(waits.every((w) => w <= CONFIG.stableSeconds * SECOND_MS), "capped at the stable interval");
    const transitions = await serviceTransitions(r.store, "sim-00001");
    deepStrictEqual(transitions.map((t) => t.to), ["OPERATIONAL", "UNKNOWN"]);
    // Calm (read once, never changed): the stable interval applies, so 3 × 300 s.
    ok(transitions[1]!.at - T0 > 3 * CONFIG.stableSeconds * SECOND_MS);
    ok(transitions[1]!.at - T0 <= 3 * CONFIG.stableSeconds * SECOND_MS + 2 * waits.at(-1)!);
    ok(r.published.some((c) => c.kind === "status" && c.to === "UNKNOWN"));

    r.sim.setScenario("sim-00001", "calm");
    r.clock.set((await vendor(r.store, "sim-00001")).nextPollAt);
    await r.poller.runOnce();
    equal((await vendor(r.store, "sim-00001")).currentStatus, "OPERATIONAL");
    equal((await vendor(r.store, "sim-00001")).failures, 0);
  } finally {
    await r.close();
  }
});

Deno.test("an unmapped platform value is logged once per platform, field and value", async () => {
  const lines: string[] = [];
  const r = await rig(3, {
    log: createLogger("warn", (l) => lines.push(l)),
    adapters: {
      statuspage: {
        ...statuspage,
        parse: (body, ctx) => {
          ctx.unknownValue?.("status", "under_review");
          return statuspage.parse(body, ctx);
        },
      },
    },
  });
  try {
    await r.poller.runOnce();
    const unmapped = lines.filter((l) => l.includes("unmapped platform value"));
    equal(unmapped.length, 1);
    ok(unmapped[0]!.includes("under_review"));
  } finally {
    await r.close();
  }
});

Deno.test("the started poller polls on its own tick and stops cleanly", async () => {
  const store = memoryStore();
  const sim = startSimulator();
  const { systemClock } = await import("../../clock.ts");
  await syncVendors(store, sim.catalog(3), systemClock.now());
  const poller = createPoller({ ...CONFIG, movingSeconds: 1, stableSeconds: 2 }, {
    store: store.polls,
    clock: systemClock,
    log: silentLogger,
    adapters: { statuspage },
    hostSpacingMs: 0,
  });
  try {
    poller.start();
    ok(poller.stats().running);
    while (sim.totalRequests < 6) await new Promise((res) => setTimeout(res, 50));
    await poller.stop();
    equal(poller.stats().running, false);
    const known = await store.catalog.page(
      { status: "OPERATIONAL" },
      { page: 0, limit: 10 },
      { start: 0, end: 1 },
    );
    equal(known.total, 3);
  } finally {
    await poller.stop();
    await sim.close();
    await store.close();
  }
});

Deno.test("a vendor of unknown platform is detected once, the result stored, then polled", async () => {
  const r = await rig(0);
  try {
    const [entry] = r.sim.catalog(1, "mystery");
    await syncVendors(r.store, [{ ...entry!, platform: "unknown" }], r.clock.now());
    await r.poller.runOnce();
    const row = await vendor(r.store, entry!.slug);
    deepStrictEqual(
      { detectedPlatform: row.detectedPlatform, currentStatus: row.currentStatus },
      { detectedPlatform: "statuspage", currentStatus: "OPERATIONAL" },
    );
    const afterDetection = r.sim.requests(entry!.slug);
    r.clock.advance(10 * MINUTE_MS);
    await r.poller.runOnce();
    equal(r.sim.requests(entry!.slug), afterDetection + 1, "no second detection");
  } finally {
    await r.close();
  }
});

/** `polls` telling `seen` the vendor of every poll it records, before recording it. */
function noting(polls: PollStore, seen: (id: number) => void): PollStore {
  const noted =
    <A extends unknown[], R>(f: (id: number, ...a: A) => Promise<R>) => (id: number, ...a: A) => {
      seen(id);
      return f(id, ...a);
    };
  return {
    ...polls,
    recordSuccess: noted(polls.recordSuccess),
    recordNotModified: noted(polls.recordNotModified),
    recordPulse: noted(polls.recordPulse),
    recordFailure: noted(polls.recordFailure),
  };
}

/**
 * `polls` whose claims, once `reshape()` was called, come sorted by id through `shape` (a test
 * sets when they fell due and what they were promised); before that, as the store answers.
 */
function reshapedClaims(
  polls: PollStore,
  shape: (due: DueVendor[], now: number) => DueVendor[],
): { store: PollStore; reshape(): void } {
  let on = false;
  return {
    store: {
      ...polls,
      async claimDue(now, limit) {
        const due = [...await polls.claimDue(now, limit)].sort((a, b) => a.id - b.id);
        return on ? shape(due, now) : due;
      },
    },
    reshape() {
      on = true;
    },
  };
}

Deno.test("a catalog that grows never delays the vendors already watched: they are polled before the new ones", async () => {
  const r = await rig(4);
  const order: number[] = [];
  // One fetch at a time: the poller starts four polls per round, in the order the store gives.
  const poller = createPoller(
    { ...CONFIG, concurrency: 1 },
    testPollerDeps(r.store, r.clock, {
      adapters: { statuspage },
      store: noting(r.store.polls, (id) => order.push(id)),
    }),
  );
  try {
    await poller.runOnce(); // the four are read and promised their next poll
    const watched = new Set(order);
    equal(watched.size, 4);
    // A minute later the catalog grows by twenty: due now, so due longer than the four when
    // those fall due again.
    r.clock.advance(MINUTE_MS);
    await syncVendors(r.store, r.sim.catalog(20, "new"), r.clock.now());
    r.clock.advance(3 * MINUTE_MS); // the four are due, within their deadline
    order.length = 0;
    const report = await poller.runOnce();
    equal(report.polled, 24);
    deepStrictEqual(
      order.slice(0, 4).filter((id) => watched.has(id)).length,
      4,
      "the first round polls the four watched vendors",
    );
    equal(poller.stats().missedDeadlines, 0);
  } finally {
    await poller.stop();
    await r.close();
  }
});

Deno.test("among vendors due again, the nearest deadline is polled first: a pulse 2 s from its deadline before a full read 10 s from its own", async () => {
  const r = await rig(2);
  const order: number[] = [];
  // From the second round on the store hands both out as it would a full read that fell due
  // 20 s ago and a pulse that fell due 1 s ago: by when they fell due, the full read first.
  const claims = reshapedClaims(
    noting(r.store.polls, (id) => order.push(id)),
    (due, now) =>
      due.length < 2 ? due : [
        { ...due[0]!, nextPollAt: now - 20 * SECOND_MS, deadlineAt: now + 10 * SECOND_MS },
        { ...due[1]!, nextPollAt: now - SECOND_MS, deadlineAt: now + 2 * SECOND_MS },
      ],
  );
  const poller = createPoller(
    { ...CONFIG, concurrency: 1 }, // one fetch at a time: they run in the order they start
    testPollerDeps(r.store, r.clock, { adapters: { statuspage }, store: claims.store }),
  );
  try {
    await poller.runOnce(); // both are read and promised their next poll
    const [full, pulse] = [...order].sort((a, b) => a - b);
    r.clock.advance(5 * MINUTE_MS);
    claims.reshape();
    order.length = 0;
    equal((await poller.runOnce()).polled, 2);
    deepStrictEqual(order, [pulse, full], "the pulse, nearer its deadline, goes first");
    equal(poller.stats().missedDeadlines, 0);
  } finally {
    await poller.stop();
    await r.close();
  }
});

Deno.test("a poll that starts after its deadline is counted, and the last one's lateness kept (/healthz shows them)", async () => {
  const r = await rig(2);
  const claims = reshapedClaims(r.store.polls, (due, now) =>
    due.length < 2 ? due : [
      { ...due[0]!, deadlineAt: now - 1 * SECOND_MS },
      { ...due[1]!, deadlineAt: now - 3 * SECOND_MS },
    ]);
  const poller = createPoller(
    CONFIG,
    testPollerDeps(r.store, r.clock, { adapters: { statuspage }, store: claims.store }),
  );
  try {
    await poller.runOnce();
    equal(poller.stats().missedDeadlines, 0);
    equal(poller.stats().lastMissAt, null);
    r.clock.advance(5 * MINUTE_MS);
    claims.reshape();
    equal((await poller.runOnce()).polled, 2);
    equal(poller.stats().missedDeadlines, 2);
    equal(poller.stats().lastMissAt, r.clock.now());
    // The one further past its deadline starts first (nearest deadline first): the last is 1 s late.
    equal(poller.stats().lastMissByMs, SECOND_MS);
  } finally {
    await poller.stop();
    await r.close();
  }
});

/**
 * Two watched vendors (read, their next poll promised 217.5 s after T0) and six added a minute
 * later, polled by a poller with four places in flight whose first readings stall until `open`.
 */
async function stallingFirstReads() {
  const r = await rig(2);
  await r.poller.runOnce();
  r.clock.advance(MINUTE_MS);
  equal((await syncVendors(r.store, r.sim.catalog(6, "new"), r.clock.now())).added, 6);
  const polls = r.store.polls;
  const recorded = new Set<number>();
  const firstReads = new Set<number>();
  const watched = new Set<number>();
  for (const v of await polls.claimDue(r.clock.now() + 10 * MINUTE_MS, 100)) {
    (v.lastSuccessAt === null ? firstReads : watched).add(v.id);
  }
  equal(watched.size, 2);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  const s = { stalled: 0 };
  const noted = noting(polls, (id) => recorded.add(id));
  const poller = createPoller(
    { ...CONFIG, concurrency: 1 }, // four polls in flight at most
    testPollerDeps(r.store, r.clock, {
      adapters: { statuspage },
      store: {
        ...noted,
        recordSuccess: async (id, snapshot, poll) => {
          if (firstReads.has(id)) {
            s.stalled++;
            await gate;
          }
          return await noted.recordSuccess(id, snapshot, poll);
        },
      },
    }),
  );
  const all = (ids: Set<number>) => () =>
    Promise.resolve([...ids].every((id) => recorded.has(id)) || null);
  return {
    r,
    poller,
    s,
    open: () => open(),
    watchedPolled: all(watched),
    firstReadsStored: all(firstReads),
    close: async () => {
      open();
      await poller.stop();
      await r.close();
    },
  };
}

Deno.test("first reads hold at most half the polls in flight while a watched vendor falls due: it still gets its poll while first reads are slow", async () => {
  const t = await stallingFirstReads();
  try {
    // 1.5 s before the watched two fall due: within a poll's timeout (3 s).
    t.r.clock.set(T0 + 216 * SECOND_MS);
    t.poller.start();
    await until("two first reads stalled", () => Promise.resolve(t.s.stalled >= 2 || null));
    t.r.clock.advance(3 * SECOND_MS); // the watched two are due, within their deadline
    await until("the watched vendors polled while first reads stall", t.watchedPolled, 10_000);
    equal(t.s.stalled, 2, "two of the four places went to first reads, no more");
    equal(t.poller.stats().missedDeadlines, 0);
    t.open();
    await until("every first read stored", t.firstReadsStored);
  } finally {
    await t.close();
  }
});

Deno.test("with no promised poll near, first reads take every place in flight", async () => {
  const t = await stallingFirstReads();
  try {
    t.poller.start(); // at T0 + 1 min: the watched two are due in 157 s
    await until("four first reads stalled", () => Promise.resolve(t.s.stalled >= 4 || null));
    t.open();
    await until("every first read stored", t.firstReadsStored);
  } finally {
    await t.close();
  }
});
