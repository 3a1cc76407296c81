import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { type ComponentSnapshot, MINUTE_MS, type StatusLevel } from "../../../domain/mod.ts";
import { LIVE_BUFFER_MAX } from "../../../routes/api/events.ts";
import { addVendor, apiRig, polledRig, T0 } from "../../support/api.ts";
import { recordReading } from "../../support/seed.ts";

interface SseEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Reads SSE events from a response body until `done(events)` says so. */
async function readEvents(
  res: Response,
  done: (events: SseEvent[]) => boolean,
): Promise<{ events: SseEvent[]; comments: string[] }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let buffer = "";
  while (!done(events)) {
    const { value, done: end } = await reader.read();
    if (end) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line.slice(1).trim());
        const m = /^(\w+): ?(.*)$/.exec(line);
        if (m) fields[m[1]!] = m[2]!;
      }
      if (fields.data) {
        events.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) });
      }
    }
  }
  await reader.cancel();
  return { events, comments };
}

Deno.test("the event stream delivers a simulated flip, then resumes from Last-Event-ID", async () => {
  const r = await polledRig(2);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const live = await fetch(`${base}/api/events`);
    equal(live.status, 200);
    ok(live.headers.get("content-type")!.startsWith("text/event-stream"));
    const reading = readEvents(
      live,
      (events) =>
        events.some((e) => e.event === "incident") && events.some((e) => e.event === "status"),
    );
    r.sim.setScenario("sim-00002", "outage");
    r.clock.advance(10 * MINUTE_MS);
    await r.poller.runOnce();
    const { events, comments } = await reading;
    ok(comments.includes("connected"));
    const flip = events.find((e) => e.event === "status" && e.data.component === null)!;
    equal(flip.data.slug, "sim-00002");
    equal(flip.data.from, "OPERATIONAL");
    equal(flip.data.to, "PARTIAL_OUTAGE");
    equal(flip.data.at, new Date(r.clock.now()).toISOString());
    equal(flip.id, String(flip.data.id));
    const incident = events.find((e) => e.event === "incident")!;
    equal(incident.data.status, "INVESTIGATING");
    ok(String(incident.data.title).length > 0);

    // A reconnecting client gets what came after its last id, oldest first.
    const first = Number(events[0]!.id);
    const resumed = await fetch(`${base}/api/events`, {
      headers: { "Last-Event-ID": String(first) },
    });
    const again = await readEvents(resumed, (got) => got.length >= events.length - 1);
    equal(again.events[0]!.id, events[1]!.id);
    ok(again.events.every((e, i) => i === 0 || Number(e.id) > Number(again.events[i - 1]!.id)));

    const bad = await fetch(`${base}/api/events`, { headers: { "Last-Event-ID": "abc" } });
    equal(bad.status, 400);
    equal((await bad.json()).error, "invalid_request");
  } finally {
    await server.shutdown();
    await r.close();
  }
});

Deno.test("an open event stream ends when the server is stopping, so shutdown never waits", async () => {
  const stopping = new AbortController();
  const r = apiRig({ shutdown: stopping.signal });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  try {
    const live = await fetch(`http://127.0.0.1:${server.addr.port}/api/events`);
    equal(live.status, 200);
    const reader = live.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": connected")) text += (await reader.read()).value ?? "";
    stopping.abort();
    while (!(await reader.read()).done) { /* drain until the server closes the stream */ }
    ok(text.includes("retry: 3000"));
  } finally {
    await server.shutdown();
    await r.close();
  }
});

/** An SSE reader that keeps its place across calls (events, control events and comments). */
function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  let ended = false;
  return {
    events,
    get ended() {
      return ended;
    },
    /**
     * Reads until `done(events)` or the end of the stream. `guardMs` only stops a test that
     * would otherwise hang (it fails it); it is not a speed requirement.
     */
    async until(done: (events: SseEvent[]) => boolean, guardMs = 60_000): Promise<SseEvent[]> {
      const guard = setTimeout(() => reader.cancel("guard"), guardMs);
      try {
        while (!done(events) && !ended) {
          const { value, done: end } = await reader.read();
          if (end) {
            ended = true;
            break;
          }
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split("\n")) {
              const m = /^(\w+): ?(.*)$/.exec(line);
              if (m) fields[m[1]!] = m[2]!;
            }
            if (fields.data) {
              events.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) });
            } else if (block.includes(": connected")) {
              events.push({ id: "", event: "connected", data: {} });
            }
          }
        }
      } finally {
        clearTimeout(guard);
      }
      return events;
    },
    cancel: () => reader.cancel(),
  };
}

/**
 * A vendor whose page lists `size` components beside one in a major outage (so the service's
 * level never moves): `commit(count)` records one reading in which `count` components change
 * level, i.e. exactly `count` committed changes, published by the store. `base` is the id of the
 * newest change after the setup reading.
 */
async function flipper(r: ReturnType<typeof apiRig>, size: number) {
  await addVendor(r.store, { slug: "acme" });
  const levels: StatusLevel[] = Array(size).fill("OPERATIONAL");
  let at = T0;
  const page = (): ComponentSnapshot[] => [
    { externalId: "anchor", name: "anchor", group: null, status: "MAJOR_OUTAGE" },
    ...levels.map((status, i) => ({ externalId: `c${i}`, name: `c${i}`, group: null, status })),
  ];
  const read = () =>
    recordReading(
      r.store,
      "acme",
      { indicator: "OPERATIONAL", components: page(), incidents: [] },
      at++,
    );
  await read();
  return {
    base: await r.store.changes.latestId(),
    async commit(count: number) {
      for (let i = 0; i < count; i++) {
        levels[i] = levels[i] === "OPERATIONAL" ? "DEGRADED_PERFORMANCE" : "OPERATIONAL";
      }
      const committed = await read();
      equal(committed.length, count);
      return committed;
    },
  };
}

/** Asserts `events` are change events with consecutive ids `from`..`to`. */
function assertConsecutive(events: SseEvent[], from: number, to: number): void {
  equal(events.length, to - from + 1);
  events.forEach((e, i) => {
    equal(e.event, "status");
    equal(Number(e.id), from + i);
  });
}

Deno.test("one poll committing more changes than a stream buffers: the live client is told to resume, and the replay delivers every one", async () => {
  const r = apiRig();
  const count = 3 * LIVE_BUFFER_MAX;
  try {
    const flips = await flipper(r, count);
    const live = sseReader(await r.get("/api/events"));
    await live.until((e) => e.some((x) => x.event === "connected"));
    await flips.commit(count);
    const got = await live.until((e) => e.some((x) => x.event === "resume"));
    const resume = got.find((x) => x.event === "resume")!;
    // Whatever reached the client before the resume event is consecutive from the start (an
    // engine may hand the commit to the stream in chunks), and the resume names the last one.
    const delivered = got.filter((x) => x.event === "status");
    assertConsecutive(delivered, flips.base + 1, flips.base + delivered.length);
    const last = flips.base + delivered.length;
    deepStrictEqual(resume.data, { lastEventId: last, reason: "behind" });
    equal(resume.id, String(last));
    await live.until(() => false); // the server ends the stream after `resume`
    ok(live.ended);
    ok(delivered.length < LIVE_BUFFER_MAX);

    const again = sseReader(await r.get("/api/events", { "Last-Event-ID": resume.id }));
    const rest = count - delivered.length;
    const replayed = await again.until((e) => e.length >= rest + 1);
    assertConsecutive(
      replayed.filter((x) => x.event !== "connected"),
      last + 1,
      flips.base + count,
    );
    await again.cancel();
  } finally {
    await r.close();
  }
});

Deno.test("a client that stops reading falls behind the bounded buffer: resume, then nothing is missing", async () => {
  const r = apiRig();
  try {
    const flips = await flipper(r, 1000);
    const base = flips.base;
    const slow = sseReader(await r.get("/api/events"));
    await slow.until((e) => e.some((x) => x.event === "connected"));
    // The stream takes the first batch and then blocks on the client; the rest overflow.
    const batches = Math.ceil(LIVE_BUFFER_MAX / 1000) + 2;
    for (let i = 0; i < batches; i++) await flips.commit(1000);
    const got = await slow.until(() => false);
    const resume = got.at(-1)!;
    equal(resume.event, "resume");
    const delivered = got.filter((x) => x.event === "status");
    assertConsecutive(delivered, base + 1, base + delivered.length);
    equal(resume.data.lastEventId, base + delivered.length);

    const again = sseReader(await r.get(`/api/events?lastEventId=${resume.id}`));
    const rest = await again.until((e) => e.length >= batches * 1000 - delivered.length + 1);
    assertConsecutive(rest.slice(1), base + delivered.length + 1, base + batches * 1000);
    await again.cancel();
  } finally {
    await r.close();
  }
});

Deno.test("a Last-Event-ID beyond the newest change is clamped with a reset event, and new changes arrive", async () => {
  const r = apiRig();
  try {
    const flips = await flipper(r, 3);
    await flips.commit(3);
    const newest = flips.base + 3;
    const stream = sseReader(await r.get("/api/events", { "Last-Event-ID": "999" }));
    const first = await stream.until((e) => e.some((x) => x.event === "reset"));
    const reset = first.find((x) => x.event === "reset")!;
    equal(reset.id, String(newest));
    deepStrictEqual(reset.data, { lastEventId: newest, reason: "unknown_id", requested: 999 });
    await flips.commit(1);
    const got = await stream.until((e) => e.some((x) => x.event === "status"));
    equal(got.find((x) => x.event === "status")!.id, String(newest + 1));
    await stream.cancel();
  } finally {
    await r.close();
  }
});

Deno.test("a Last-Event-ID older than the oldest change kept gets a reset saying events expired, then the rest", async () => {
  const r = apiRig();
  try {
    const flips = await flipper(r, 5);
    for (let i = 0; i < 4; i++) await flips.commit(5);
    const newest = flips.base + 20;
    // Retention prunes all but the newest 8 changes.
    await r.store.retention.pruneChangeFeed(0, 8);
    const oldest = newest - 7;
    const stream = sseReader(await r.get("/api/events", { "Last-Event-ID": String(flips.base) }));
    const got = await stream.until((e) => e.filter((x) => x.event === "status").length >= 8);
    const reset = got.find((x) => x.event === "reset")!;
    deepStrictEqual(reset.data, {
      lastEventId: oldest - 1,
      reason: "expired",
      requested: flips.base,
    });
    ok(got.indexOf(reset) < got.findIndex((x) => x.event === "status"), "the reset comes first");
    assertConsecutive(got.filter((x) => x.event === "status"), oldest, newest);
    await stream.cancel();

    // A client that missed nothing gets no reset.
    const current = sseReader(await r.get("/api/events", { "Last-Event-ID": String(oldest) }));
    const rest = await current.until((e) => e.filter((x) => x.event === "status").length >= 7);
    ok(!rest.some((x) => x.event === "reset"));
    await current.cancel();
  } finally {
    await r.close();
  }
});

Deno.test("statusd's own early warning reaches the event stream as early_warning events, live and on resume", async () => {
  const { createProber } = await import("../../../ingest/mod.ts");
  const { ALLOW_SIMULATOR } = await import("../../support/simulator.ts");
  const { silentLogger } = await import("../../../log.ts");
  const r = apiRig();
  let failing = false;
  const endpoint = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x", { status: failing ? 503 : 200 }),
  );
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const prober = createProber({
    scope: "all",
    intervalMs: MINUTE_MS,
    timeoutMs: 2_000,
    allowPrivate: ALLOW_SIMULATOR,
  }, {
    store: r.store.warnings,
    clock: r.clock,
    log: silentLogger,
    hostSpacingMs: 0,
    catalogProbes: () => [`http://127.0.0.1:${endpoint.addr.port}/api`],
  });
  const round = async () => {
    r.clock.advance(MINUTE_MS);
    await prober.runOnce();
  };
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    await round();
    const live = await fetch(`${base}/api/events`);
    const reading = readEvents(live, (events) => events.some((e) => e.event === "early_warning"));
    failing = true;
    await round();
    await round();
    const { events } = await reading;
    const warned = events.find((e) => e.event === "early_warning")!;
    equal(warned.data.slug, "acme");
    equal(warned.data.phase, "suspected");
    equal(warned.data.kind, "early_warning");
    ok(String(warned.data.summary).startsWith("statusd's own checks have seen errors"));
    equal(warned.id, String(warned.data.id));
    // The service's cached answer is dropped by the change: it shows the warning at once.
    equal((await (await r.get("/api/services/acme")).json()).earlyWarning.phase, "suspected");

    failing = false;
    await round();
    const resumed = await fetch(`${base}/api/events`, { headers: { "Last-Event-ID": warned.id } });
    const { events: after } = await readEvents(resumed, (got) => got.length >= 1);
    deepStrictEqual(after.map((e) => [e.event, e.data.phase]), [["early_warning", "cleared"]]);
  } finally {
    await prober.stop();
    await server.shutdown();
    await endpoint.shutdown();
    await r.close();
  }
});
