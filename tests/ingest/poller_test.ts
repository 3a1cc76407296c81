import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { type Change, fixedClock, MINUTE_MS, SECOND_MS } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller, type PollerDeps } from "../../ingest/mod.ts";
import { createLogger, silentLogger } from "../../log.ts";
import { createChangeFeed, type Db, pollStore, syncCatalog } from "../../store/mod.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";

const T0 = Date.UTC(2026, 0, 1, 12);
const CONFIG = {
  enabled: true,
  movingSeconds: 60,
  stableSeconds: 300,
  concurrency: 8,
  timeoutMs: 1000,
  allowPrivate: ALLOW_SIMULATOR,
};

interface Rig {
  db: Db;
  sim: Simulator;
  clock: ReturnType<typeof fixedClock>;
  published: Change[];
  poller: ReturnType<typeof createPoller>;
  close(): Promise<void>;
}

function rig(count: number, deps: Partial<PollerDeps> = {}): Rig {
  const db = memoryStore();
  const sim = startSimulator();
  const clock = fixedClock(T0);
  syncCatalog(db, sim.catalog(count), clock.now());
  const changes = createChangeFeed();
  const published: Change[] = [];
  changes.subscribe((c) => published.push(...c));
  const poller = createPoller(CONFIG, {
    store: pollStore(db),
    changes,
    clock,
    log: silentLogger,
    adapters: { statuspage },
    hostSpacingMs: 0,
    random: () => 0.5,
    ...deps,
  });
  return {
    db,
    sim,
    clock,
    published,
    poller,
    close: async () => {
      await poller.stop();
      await sim.close();
      db.close();
    },
  };
}

function vendor(db: Db, slug: string) {
  return db.prepare(
    "SELECT id, current_status, failures, last_error, last_success_at, next_poll_at FROM vendors WHERE slug = ?",
  ).get(slug) as {
    id: number;
    current_status: string;
    failures: number;
    last_error: string | null;
    last_success_at: number | null;
    next_poll_at: number;
  };
}

function serviceTransitions(db: Db, slug: string) {
  return db.prepare(
    `SELECT t.from_status AS "from", t.to_status AS "to", t.at FROM transitions t
     JOIN vendors v ON v.id = t.vendor_id WHERE v.slug = ? AND t.component_id IS NULL ORDER BY t.id`,
  ).all(slug).map((r) => ({ ...r }) as { from: string; to: string; at: number });
}

Deno.test("a poll cycle against the simulator stores status, components and transitions", async () => {
  const r = rig(2);
  try {
    r.sim.setScenario("sim-00002", "outage");
    const report = await r.poller.runOnce();
    deepStrictEqual(report.polled, 2);
    equal(vendor(r.db, "sim-00001").current_status, "OPERATIONAL");
    equal(vendor(r.db, "sim-00002").current_status, "PARTIAL_OUTAGE");
    deepStrictEqual(serviceTransitions(r.db, "sim-00002"), [
      { from: "UNKNOWN", to: "PARTIAL_OUTAGE", at: T0 },
    ]);
    const components = r.db.prepare(
      "SELECT COUNT(*) AS n FROM components c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = 'sim-00002'",
    ).get() as { n: number };
    ok(components.n > 0);
    const open = r.db.prepare(
      "SELECT title, status FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = 'sim-00002'",
    ).all();
    equal(open.length, 1);
    ok(
      r.published.some((c) =>
        c.kind === "status" && c.slug === "sim-00002" && c.to === "PARTIAL_OUTAGE"
      ),
    );
    ok(r.published.some((c) => c.kind === "incident" && c.slug === "sim-00002"));
    const fetches = r.db.prepare("SELECT outcome, http_status FROM fetches ORDER BY id").all()
      .map((f) => ({ ...f }));
    deepStrictEqual(fetches, [
      { outcome: "ok", http_status: 200 },
      { outcome: "ok", http_status: 200 },
    ]);
  } finally {
    await r.close();
  }
});

Deno.test("a scenario flip is stored within one moving interval; an unchanged page writes only the check", async () => {
  const r = rig(1);
  try {
    await r.poller.runOnce(); // calm: next poll within the stable interval
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce(); // conditional GET: 304
    const countRows = () =>
      (r.db.prepare(
        "SELECT (SELECT COUNT(*) FROM transitions) + (SELECT COUNT(*) FROM components) + (SELECT COUNT(*) FROM changes) AS n",
      ).get() as { n: number }).n;
    const before = countRows();
    deepStrictEqual(
      r.db.prepare("SELECT outcome FROM fetches ORDER BY id").all().map((f) => f.outcome),
      ["ok", "not_modified"],
    );
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce();
    equal(countRows(), before, "a poll that changes nothing adds no rows but the fetch");

    // Vendor now becomes moving after the outage is seen; the recovery is seen within 60 s.
    r.sim.setScenario("sim-00001", "outage");
    r.clock.advance(5 * MINUTE_MS);
    await r.poller.runOnce();
    equal(vendor(r.db, "sim-00001").current_status, "PARTIAL_OUTAGE");
    const flippedAt = r.clock.now();
    r.sim.setScenario("sim-00001", "calm");
    for (let t = 0; t < CONFIG.movingSeconds; t++) {
      r.clock.advance(SECOND_MS);
      await r.poller.runOnce();
    }
    const last = serviceTransitions(r.db, "sim-00001").at(-1)!;
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
  const r = rig(FAILURES.length + 2);
  try {
    FAILURES.forEach(([scenario], i) =>
      r.sim.setScenario(`sim-${String(i + 1).padStart(5, "0")}`, scenario)
    );
    const healthyOutage = `sim-${String(FAILURES.length + 2).padStart(5, "0")}`;
    r.sim.setScenario(healthyOutage, "outage");
    const report = await r.poller.runOnce();
    equal(report.failed, FAILURES.length);
    FAILURES.forEach(([, reason], i) => {
      const v = vendor(r.db, `sim-${String(i + 1).padStart(5, "0")}`);
      equal(v.failures, 1);
      ok(v.last_error?.startsWith(`${reason}:`), `${v.last_error} should start with ${reason}`);
      equal(v.current_status, "UNKNOWN");
      const row = r.db.prepare("SELECT outcome FROM fetches WHERE vendor_id = ?").get(v.id) as {
        outcome: string;
      };
      equal(row.outcome, reason);
    });
    equal(
      vendor(r.db, `sim-${String(FAILURES.length + 1).padStart(5, "0")}`).current_status,
      "OPERATIONAL",
    );
    equal(vendor(r.db, healthyOutage).current_status, "PARTIAL_OUTAGE");
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
  const r = rig(1);
  try {
    await r.poller.runOnce();
    equal(vendor(r.db, "sim-00001").current_status, "OPERATIONAL");
    r.sim.setScenario("sim-00001", "status_500");
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      r.clock.set(vendor(r.db, "sim-00001").next_poll_at);
      await r.poller.runOnce();
      waits.push(vendor(r.db, "sim-00001").next_poll_at - r.clock.now());
    }
    ok(waits[1]! > waits[0]! && waits[2]! > waits[1]!, `backoff grows: ${waits}`);
    ok(waits.every((w) => w <= CONFIG.stableSeconds * SECOND_MS), "capped at the stable interval");
    const transitions = serviceTransitions(r.db, "sim-00001");
    deepStrictEqual(transitions.map((t) => t.to), ["OPERATIONAL", "UNKNOWN"]);
    // Calm (read once, never changed): the stable interval applies, so 3 × 300 s.
    ok(transitions[1]!.at - T0 > 3 * CONFIG.stableSeconds * SECOND_MS);
    ok(transitions[1]!.at - T0 <= 3 * CONFIG.stableSeconds * SECOND_MS + 2 * waits.at(-1)!);
    ok(r.published.some((c) => c.kind === "status" && c.to === "UNKNOWN"));

    r.sim.setScenario("sim-00001", "calm");
    r.clock.set(vendor(r.db, "sim-00001").next_poll_at);
    await r.poller.runOnce();
    equal(vendor(r.db, "sim-00001").current_status, "OPERATIONAL");
    equal(vendor(r.db, "sim-00001").failures, 0);
  } finally {
    await r.close();
  }
});

Deno.test("an unmapped platform value is logged once per platform, field and value", async () => {
  const lines: string[] = [];
  const r = rig(3, {
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
  const db = memoryStore();
  const sim = startSimulator();
  const { systemClock } = await import("../../domain/mod.ts");
  syncCatalog(db, sim.catalog(3), systemClock.now());
  const poller = createPoller({ ...CONFIG, movingSeconds: 1, stableSeconds: 2 }, {
    store: pollStore(db),
    changes: createChangeFeed(),
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
    const known = db.prepare(
      "SELECT COUNT(*) AS n FROM vendors WHERE current_status = 'OPERATIONAL'",
    )
      .get() as { n: number };
    equal(known.n, 3);
  } finally {
    await poller.stop();
    await sim.close();
    db.close();
  }
});

Deno.test("a vendor of unknown platform is detected once, the result stored, then polled", async () => {
  const r = rig(0);
  try {
    const [entry] = r.sim.catalog(1, "mystery");
    syncCatalog(r.db, [{ ...entry!, platform: "unknown" }], r.clock.now());
    await r.poller.runOnce();
    const row = r.db.prepare(
      "SELECT detected_platform, current_status FROM vendors WHERE slug = ?",
    ).get(entry!.slug) as { detected_platform: string; current_status: string };
    deepStrictEqual({ ...row }, { detected_platform: "statuspage", current_status: "OPERATIONAL" });
    const afterDetection = r.sim.requests(entry!.slug);
    r.clock.advance(10 * MINUTE_MS);
    await r.poller.runOnce();
    equal(r.sim.requests(entry!.slug), afterDetection + 1, "no second detection");
  } finally {
    await r.close();
  }
});
