/**
 * The response cache under async reads: a body computed while a change is committed is served
 * to the request that computed it but never kept, so no later request is served a body from
 * before the change (the store's reads are async, so a change can land mid-read).
 */
import { equal } from "node:assert/strict";
import { Hono } from "hono";
import { createResponseCache } from "../../../routes/mod.ts";
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
