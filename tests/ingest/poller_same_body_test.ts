/**
 * A vendor that sends no ETag or Last-Modified serves the same bytes poll after poll: the
 * poller records those readings as not modified instead of parsing and writing them again,
 * until the bytes change or a reading fails.
 */
import { deepStrictEqual } from "node:assert/strict";
import { fixedClock, MINUTE_MS, type Vendor } from "../../domain/mod.ts";
import { memoryStore } from "../support/store.ts";
import { loopbackStatuspagePoller } from "../support/poller.ts";

const summary = (status: string) =>
  JSON.stringify({
    status: { indicator: "none" },
    components: [{ id: "api", name: "API", status }],
    incidents: [],
  });

Deno.test("the same bytes without validators are not parsed or written again", async () => {
  let body = summary("operational");
  let code = 200;
  // No ETag, no Last-Modified: every answer is a full 200.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(body, { status: code, headers: { "content-type": "application/json" } }),
  );
  const db = memoryStore();
  const clock = fixedClock(Date.UTC(2026, 10, 20, 12));
  const vendor: Vendor = {
    name: "Plain",
    slug: "plain",
    statusPageUrl: `http://127.0.0.1:${server.addr.port}/`,
    platform: "statuspage",
    category: "other",
    provider: "plain",
    domains: [],
  };
  await db.catalog.sync([vendor], clock.now());
  const poller = loopbackStatuspagePoller(db, clock);
  const round = async () => {
    await poller.runOnce();
    clock.advance(MINUTE_MS);
  };
  try {
    await round();
    await round();
    body = summary("major_outage");
    await round();
    await round();
    code = 500;
    await round();
    code = 200;
    await round();
    deepStrictEqual(
      (await db.history.fetchLog("plain", 0)).map((f) => `${f.outcome} ${f.httpStatus}`),
      [
        "ok 200",
        "not_modified 200",
        "ok 200",
        "not_modified 200",
        "http_status 500",
        "ok 200",
      ],
    );
    deepStrictEqual((await db.catalog.service("plain"))?.currentStatus, "MAJOR_OUTAGE");
  } finally {
    await poller.stop();
    await server.shutdown();
    await db.close();
  }
});
