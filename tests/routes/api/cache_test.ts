/**
 * The response cache under async reads: a body computed while a change is committed is served
 * to the request that computed it but never kept, so no later request is served a body from
 * before the change (the store's reads are async, so a change can land mid-read).
 */
import { equal, ok } from "node:assert/strict";
import { Hono } from "hono";
import { createResponseCache } from "../../../routes/mod.ts";
import { REPLAY_BYTES_MAX } from "../../../routes/api/cache.ts";
import { createChangeFanOut } from "../../../store/shared/change_feed.ts";

Deno.test("a body computed across a committed change is not kept; one computed after it is", async () => {
  const feed = createChangeFanOut();
  const cache = createResponseCache(feed);
  let version = 1;
  let hold: Promise<void> | null = null;
  let computed = 0;
  const app = new Hono();
  app.get("/x", (c) =>
    cache.json(c, async () => {
      computed++;
      const seen = version;
      if (hold) await hold;
      return { version: seen };
    }));
  const get = async () => (await (await app.request("/x")).json()).version as number;

  const gate = Promise.withResolvers<void>();
  hold = gate.promise;
  const first = get();
  // A change commits while the first read is under way.
  version = 2;
  feed.publish([{
    kind: "status",
    slug: "a",
    component: null,
    from: "OPERATIONAL",
    to: "MAJOR_OUTAGE",
    id: 1,
    at: 0,
  }]);
  gate.resolve();
  hold = null;
  equal(await first, 1, "the request that read before the change gets what it read");
  equal(await get(), 2, "the next request reads again");
  equal(computed, 2);
  equal(await get(), 2);
  equal(computed, 2, "kept once computed after the change");
});

Deno.test("an answer that sets a cookie or is private is never replayed; a plain one is until a change", async () => {
  const feed = createChangeFanOut();
  const cache = createResponseCache(feed);
  const app = new Hono();
  app.get("/plain", (c) => cache.json(c, () => Promise.resolve({ n: 1 })));
  app.get("/cookie", async (c) => {
    const res = await cache.json(c, () => Promise.resolve({ n: 2 }));
    res.headers.append("set-cookie", "sid=1; HttpOnly");
    return res;
  });
  app.get("/private", async (c) => {
    const res = await cache.json(c, () => Promise.resolve({ n: 3 }));
    res.headers.set("cache-control", "private, max-age=60");
    return res;
  });
  const through = async (path: string, headers: Record<string, string> = {}) => {
    const req = new Request(`http://x.test${path}`, { headers });
    return await (await cache.remember(req, req, await app.fetch(req))).text();
  };
  const replayed = (path: string, headers: Record<string, string> = {}) =>
    cache.replay(new Request(`http://x.test${path}`, { headers }));
  for (const path of ["/plain", "/cookie", "/private"]) await through(path);
  equal(await replayed("/plain")?.text(), '{"n":1}');
  equal(replayed("/cookie"), null);
  equal(replayed("/private"), null);
  equal(replayed("/plain", { "x-api-key": "sd_live_x" }), null, "a credential is never replayed");
  equal(replayed("/plain", { accept: "text/html" }), null, "another Accept is another answer");
  await through("/plain", { cookie: "a=b" });
  equal(replayed("/plain", { cookie: "a=b" }), null, "nor a request with cookies");
  feed.publish([{
    kind: "status",
    slug: "a",
    component: null,
    from: "OPERATIONAL",
    to: "MAJOR_OUTAGE",
    id: 1,
    at: 0,
  }]);
  equal(replayed("/plain"), null, "a change ends every replay");
});

Deno.test("the replays hold at most REPLAY_BYTES_MAX bytes of body together", async () => {
  const cache = createResponseCache(createChangeFanOut());
  const half = "x".repeat(REPLAY_BYTES_MAX / 2 + 1);
  const app = new Hono();
  app.get("/:n", (c) => cache.json(c, () => Promise.resolve(half)));
  const through = async (path: string) => {
    const req = new Request(`http://x.test${path}`);
    return (await (await cache.remember(req, req, await app.fetch(req))).text()).length;
  };
  equal(await through("/a"), half.length + 2);
  equal(await through("/a"), half.length + 2, "the same key again replaces, not adds");
  ok(cache.replay(new Request("http://x.test/a")) !== null);
  await through("/b");
  equal(cache.replay(new Request("http://x.test/a")), null, "over the budget: started again");
  ok(cache.replay(new Request("http://x.test/b")) !== null);
});
