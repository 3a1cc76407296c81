import { equal, ok } from "node:assert/strict";
import { MINUTE_MS } from "../../../domain/mod.ts";
import { apiRig, polledRig } from "../../support/api.ts";

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
