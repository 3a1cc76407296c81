/**
 * statusd's own probes against loopback endpoints: an endpoint failing while the vendor's page
 * stays green is suspected within two rounds and the vendor's status is untouched; the vendor's
 * incident then acknowledges it with the measured delay; a local outage (every vendor failing at
 * once) warns no vendor and says so; two members' reports are a suspicion; private addresses
 * are refused unless allowed; two probers sharing a store never probe a vendor twice a round.
 * @module
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { fixedClock, MINUTE_MS, type Snapshot, type Store, type Vendor } from "../../domain/mod.ts";
import { createProber, type ProberConfig } from "../../ingest/mod.ts";
import { createLogger, silentLogger } from "../../log.ts";
import { memoryStore } from "../support/store.ts";
import { ALLOW_SIMULATOR } from "../support/simulator.ts";

const T0 = Date.UTC(2026, 10, 28, 10);

/** Loopback endpoints: each path answers the status it is told (200 until told otherwise). */
function startEndpoints() {
  const statuses = new Map<string, number>();
  const hits = new Map<string, number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    return new Response("hello", { status: statuses.get(path) ?? 200 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    set: (path: string, status: number) => statuses.set(path, status),
    hits: (path: string) => hits.get(path) ?? 0,
    close: () => server.shutdown(),
  };
}

type Endpoints = ReturnType<typeof startEndpoints>;

function vendorOf(slug: string): Vendor {
  return {
    name: slug.toUpperCase(),
    slug,
    statusPageUrl: `https://status.${slug}.test`,
    platform: "statuspage",
    category: "devtools",
    provider: slug,
    domains: [`${slug}.test`],
  };
}

const CONFIG: ProberConfig = {
  scope: "all",
  intervalMs: MINUTE_MS,
  timeoutMs: 2_000,
  allowPrivate: ALLOW_SIMULATOR,
};

async function rig(slugs: string[], config: Partial<ProberConfig> = {}) {
  const ep = startEndpoints();
  const store = memoryStore();
  const clock = fixedClock(T0);
  await store.catalog.sync(slugs.map(vendorOf), T0);
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("info", (line) => lines.push(JSON.parse(line)));
  const prober = createProber({ ...CONFIG, ...config }, {
    store: store.warnings,
    clock,
    log,
    hostSpacingMs: 0,
    // Two targets per vendor, both on the loopback endpoints.
    catalogProbes: (slug) => [`${ep.origin}/${slug}/api`, `${ep.origin}/${slug}/www`],
  });
  /** One round a minute after the last. */
  const round = async () => {
    clock.set(clock.now() + MINUTE_MS);
    return await prober.runOnce();
  };
  return {
    ep,
    store,
    clock,
    lines,
    prober,
    round,
    async [Symbol.asyncDispose]() {
      await prober.stop();
      await ep.close();
      await store.close();
    },
  };
}

async function read(store: Store, slug: string, s: Snapshot, at: number) {
  const id = (await store.catalog.service(slug))!.id;
  await store.polls.recordSuccess(id, s, {
    at,
    latencyMs: 10,
    httpStatus: 200,
    nextPollAt: at + MINUTE_MS,
    deadlineAt: at + 2 * MINUTE_MS,
    etag: null,
    lastModified: null,
    notes: [],
  });
}

function failBoth(ep: Endpoints, slug: string, status = 502) {
  ep.set(`/${slug}/api`, status);
  ep.set(`/${slug}/www`, status);
}

Deno.test("an endpoint failing under a green page is suspected, then acknowledged with the delay", async () => {
  await using r = await rig(["acme"]);
  await read(r.store, "acme", { indicator: "OPERATIONAL", components: [], incidents: [] }, T0);
  await r.round(); // Both targets answer: they count from now on.
  equal((await r.store.warnings.of("acme"))?.state.episode ?? null, null);
  failBoth(r.ep, "acme");
  const firstFailure = r.clock.now() + MINUTE_MS;
  await r.round();
  equal(
    (await r.store.warnings.of("acme"))!.state.episode,
    null,
    "one failing round is not enough",
  );
  await r.round();
  const suspected = (await r.store.warnings.of("acme"))!.state.episode!;
  equal(suspected.firstEvidenceAt, firstFailure);
  equal(suspected.acknowledgedAt, null);
  deepStrictEqual(suspected.hosts, [new URL(r.ep.origin).host]);
  equal(suspected.failed, 2);
  equal(r.prober.stats().suspected, 1);
  equal(
    (await r.store.catalog.service("acme"))!.currentStatus,
    "OPERATIONAL",
    "the vendor's own status is untouched",
  );
  ok(r.lines.some((l) => l.msg === "early warning suspected" && l.service === "acme"));

  // Twenty minutes after the first failure the vendor says so.
  const said = firstFailure + 20 * MINUTE_MS;
  r.clock.set(said - MINUTE_MS);
  await read(r.store, "acme", { indicator: "MAJOR_OUTAGE", components: [], incidents: [] }, said);
  await r.round();
  const acknowledged = (await r.store.warnings.of("acme"))!.state.episode!;
  equal(acknowledged.acknowledgedAt, said);
  equal(r.prober.stats().suspected, 1);

  // Probes recover: cleared, and the episode's delay is kept for the grade.
  r.ep.set("/acme/api", 200);
  r.ep.set("/acme/www", 200);
  await r.round();
  equal((await r.store.warnings.of("acme"))!.state.episode, null);
  deepStrictEqual(await r.store.warnings.episodes("acme", 0), [
    { firstEvidenceAt: firstFailure, delayMs: 20 * MINUTE_MS, acknowledged: true },
  ]);
  equal(r.prober.stats().suspected, 0);
});

Deno.test("an API answering 401 or 404 is up; a target that never answered is no evidence", async () => {
  await using r = await rig(["quiet"]);
  r.ep.set("/quiet/api", 401);
  r.ep.set("/quiet/www", 404);
  await r.round();
  await r.round();
  equal((await r.store.warnings.of("quiet"))?.state.episode ?? null, null);

  await using fresh = await rig(["fresh"]);
  failBoth(fresh.ep, "fresh", 503);
  for (let i = 0; i < 3; i++) await fresh.round();
  equal(
    (await fresh.store.warnings.of("fresh"))?.state.episode ?? null,
    null,
    "never seen up: not counted",
  );
});

Deno.test("a local outage (every vendor failing at once) warns no vendor and says so", async () => {
  const slugs = ["a1", "a2", "a3", "a4"];
  await using r = await rig(slugs);
  await r.round();
  for (const s of slugs) failBoth(r.ep, s);
  for (let i = 0; i < 4; i++) await r.round();
  deepStrictEqual(await r.store.warnings.open(), []);
  const local = r.prober.stats().localOutage;
  ok(local !== null);
  equal(local.failing, 4);
  ok(r.lines.some((l) => /statusd's own network seems at fault/.test(String(l.msg))));
  // It comes back: one vendor still failing is that vendor's trouble.
  for (const s of slugs.slice(1)) {
    r.ep.set(`/${s}/api`, 200);
    r.ep.set(`/${s}/www`, 200);
  }
  await r.round();
  equal(r.prober.stats().localOutage, null);
  await r.round();
  deepStrictEqual((await r.store.warnings.open()).map((w) => w.slug), ["a1"]);
});

Deno.test("reports weigh in public once per account of standing; healthy probes need a third", async () => {
  await using r = await rig(["rep"], { scope: "monitored" });
  const { accountOf, memberOf } = await import("../store/conformance/accounts.ts");
  const now = r.clock.now();
  // a1..a3 have monitored the vendor for eight days; a4 signed up today.
  for (const [id, since] of [["a1", 8], ["a2", 8], ["a3", 8], ["a4", 0]] as const) {
    await r.store.accounts.create(accountOf(id), memberOf(`m-${id}`, id, `${id}@x.test`));
    await r.store.monitors.create({
      id: `mon-${id}`,
      accountId: id,
      serviceSlug: "rep",
      components: [],
      label: null,
      slaTarget: null,
      paused: false,
      createdAt: now - since * 24 * 60 * MINUTE_MS,
    }, 10);
  }
  await r.round(); // Both targets answer: they count from now on.
  const report = (id: string, accountId: string, reporter: string) => ({
    id,
    accountId,
    reporter,
    slug: "rep",
    component: "API",
    note: "500s on checkout",
    at: r.clock.now(),
    standingSince: r.clock.now() - 7 * 24 * 60 * MINUTE_MS,
  });
  const episode = async () => (await r.store.warnings.of("rep"))?.state.episode ?? null;
  await r.store.warnings.addReport(report("r1", "a1", "a1@x.test"), 0);
  await r.store.warnings.addReport(report("r2", "a1", "key k1"), 0);
  await r.store.warnings.addReport(report("r3", "a4", "a4@x.test"), 0);
  await r.round();
  equal(await episode(), null, "one account of standing (twice) and a new one: nothing public");
  await r.store.warnings.addReport(report("r4", "a2", "a2@x.test"), 0);
  await r.round();
  equal(await episode(), null, "two accounts, but every probe answers: not yet");
  await r.store.warnings.addReport(report("r5", "a3", "a3@x.test"), 0);
  await r.round();
  const e = (await episode())!;
  equal(e.evidence, "reports");
  equal(e.reporters, 3);
  equal("component" in e, false, "what members typed stays with their accounts");
});

Deno.test("private addresses are refused unless allowed: no probe reaches them", async () => {
  await using r = await rig(["priv"], { allowPrivate: undefined });
  failBoth(r.ep, "priv");
  for (let i = 0; i < 3; i++) await r.round();
  equal(r.ep.hits("/priv/api"), 0);
  equal((await r.store.warnings.of("priv"))?.state.episode ?? null, null);
  ok(r.lines.some((l) => l.msg === "probe target refused"));
});

Deno.test("two probers on one store probe each vendor once a round", async () => {
  await using r = await rig(["x1", "x2", "x3"]);
  const other = createProber(CONFIG, {
    store: r.store.warnings,
    clock: r.clock,
    log: silentLogger,
    hostSpacingMs: 0,
    catalogProbes: (slug) => [`${r.ep.origin}/${slug}/api`, `${r.ep.origin}/${slug}/www`],
  });
  try {
    for (let i = 0; i < 3; i++) {
      r.clock.set(r.clock.now() + MINUTE_MS);
      const [a, b] = await Promise.all([r.prober.runOnce(), other.runOnce()]);
      equal(a + b, 3);
    }
    for (const s of ["x1", "x2", "x3"]) equal(r.ep.hits(`/${s}/api`), 3, s);
  } finally {
    await other.stop();
  }
});

Deno.test("the words a surface shows for a suspected vendor", async () => {
  await using r = await rig(["words"]);
  await r.round();
  failBoth(r.ep, "words");
  await r.round();
  await r.round();
  const line = r.lines.find((l) => l.msg === "early warning suspected")!;
  match(
    String(line.words),
    /^statusd's own checks have seen errors from 127\.0\.0\.1:\d+ since .* \(2 of 2 failed\); the vendor has not acknowledged it\.$/,
  );
});

Deno.test("explicit probes are used as written: another port of the status page's host is probed", async () => {
  const ep = startEndpoints();
  const store = memoryStore();
  const clock = fixedClock(T0);
  const page = `http://127.0.0.1:${new URL(ep.origin).port === "9" ? 10 : 9}/`;
  await store.catalog.sync([{
    ...vendorOf("same"),
    statusPageUrl: page,
    probes: [`${ep.origin}/same/api`, `${ep.origin}/same/www`],
  }], T0);
  const prober = createProber(CONFIG, {
    store: store.warnings,
    clock,
    log: silentLogger,
    hostSpacingMs: 0,
  });
  try {
    await prober.runOnce();
    equal(ep.hits("/same/api"), 1, "probed although the page is on 127.0.0.1 too");
    equal(ep.hits("/same/www"), 1);
    ep.set("/same/api", 503);
    clock.set(T0 + MINUTE_MS);
    await prober.runOnce();
    const targets = (await store.warnings.targets("same"))!;
    deepStrictEqual(targets.probes, [`${ep.origin}/same/api`, `${ep.origin}/same/www`]);
    deepStrictEqual(targets.lastAnswers, {
      [`${ep.origin}/same/api`]: { answer: "down", since: T0 + MINUTE_MS },
      [`${ep.origin}/same/www`]: { answer: "up", since: T0 },
    });
  } finally {
    await prober.stop();
    await ep.close();
    await store.close();
  }
});
