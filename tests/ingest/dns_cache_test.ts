import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { createDnsCache } from "../../ingest/dns_cache.ts";

/** A resolver that counts its lookups per name and answers from `answers`. */
function countingResolver(answers: Record<string, string[] | Error>) {
  const asked: string[] = [];
  return {
    asked,
    resolve: (name: string) => {
      asked.push(name);
      const a = answers[name];
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a ?? []);
    },
  };
}

Deno.test("a name is looked up once per TTL; the answer is reused until it expires", async () => {
  let now = 0;
  const r = countingResolver({ "status.example.com": ["203.0.113.7"] });
  const dns = createDnsCache({ resolve: r.resolve, ttlMs: 60_000, now: () => now });
  deepStrictEqual(await dns.resolve("status.example.com"), ["203.0.113.7"]);
  now = 59_999;
  deepStrictEqual(await dns.resolve("status.example.com"), ["203.0.113.7"]);
  equal(r.asked.length, 1);
  now = 60_000;
  await dns.resolve("status.example.com");
  equal(r.asked.length, 2, "looked up again once the answer is as old as the TTL");
});

Deno.test("callers asking for one name at once share one lookup", async () => {
  let release = (_: string[]) => {};
  const asked: string[] = [];
  const dns = createDnsCache({
    resolve: (name) => {
      asked.push(name);
      return new Promise((resolve) => release = resolve);
    },
  });
  const answers = [dns.resolve("a.example"), dns.resolve("a.example"), dns.resolve("a.example")];
  release(["198.51.100.1"]);
  deepStrictEqual(await Promise.all(answers), [
    ["198.51.100.1"],
    ["198.51.100.1"],
    ["198.51.100.1"],
  ]);
  deepStrictEqual(asked, ["a.example"]);
});

Deno.test("failed and empty lookups are not kept: the next request asks again", async () => {
  const r = countingResolver({ "down.example": new Error("SERVFAIL"), "empty.example": [] });
  const dns = createDnsCache({ resolve: r.resolve });
  await rejects(dns.resolve("down.example"), /SERVFAIL/);
  await rejects(dns.resolve("down.example"), /SERVFAIL/);
  deepStrictEqual(await dns.resolve("empty.example"), []);
  deepStrictEqual(await dns.resolve("empty.example"), []);
  deepStrictEqual(r.asked, ["down.example", "down.example", "empty.example", "empty.example"]);
  equal(dns.size, 0);
});

Deno.test("a forgotten name is looked up again at once", async () => {
  const r = countingResolver({ "moved.example": ["192.0.2.1"] });
  const dns = createDnsCache({ resolve: r.resolve });
  await dns.resolve("moved.example");
  dns.forget("moved.example");
  await dns.resolve("moved.example");
  equal(r.asked.length, 2);
});

Deno.test("the cache keeps at most maxEntries names; the oldest answers go first", async () => {
  const r = countingResolver({
    "a.example": ["192.0.2.1"],
    "b.example": ["192.0.2.2"],
    "c.example": ["192.0.2.3"],
  });
  const dns = createDnsCache({ resolve: r.resolve, maxEntries: 2 });
  for (const name of ["a.example", "b.example", "c.example", "b.example", "c.example"]) {
    await dns.resolve(name);
  }
  equal(dns.size, 2);
  deepStrictEqual(r.asked, ["a.example", "b.example", "c.example"], "b and c were kept");
  await dns.resolve("a.example");
  deepStrictEqual(r.asked.at(-1), "a.example", "a, the oldest, went");
});
