/**
 * Payloads built to cost time before any field is read: nesting thousands of levels deep, or a
 * feed of tens of thousands of entries. Each is refused or cut before the parser spends
 * seconds on the event loop.
 */
import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { UndecodableError } from "../../../ingest/adapters/adapter.ts";
import {
  capArrays,
  MAX_JSON_ARRAY_ITEMS,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
} from "../../../ingest/adapters/_json_payload.ts";
import { decodeXml, firstEntries, MAX_FEED_ENTRIES } from "../../../ingest/adapters/_xml.ts";
import { statuspage } from "../../../ingest/adapters/statuspage.ts";

const ctx = { pageUrl: new URL("https://status.example.test/"), fetchedAt: Date.now() };

Deno.test("JSON nested deeper than the limit is undecodable before it is parsed", () => {
  const deep = "[".repeat(2_000_000) + "]".repeat(2_000_000);
  throws(() => statuspage.parse(deep, ctx), (err: unknown) => {
    ok(err instanceof UndecodableError);
    equal(
      err.message,
      `Cannot parse statuspage payload at "$": nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    return true;
  });
  equal(
    nestsDeeperThan(`{"a":"${"[".repeat(500)}"}`, MAX_JSON_DEPTH),
    false,
    "brackets in strings",
  );
  equal(nestsDeeperThan(`{"a":"\\"${"[".repeat(500)}"}`, MAX_JSON_DEPTH), false, "after an escape");
  equal(
    nestsDeeperThan("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH),
    false,
  );
});

Deno.test("a feed is decoded up to its first entries only", () => {
  const items = Array.from(
    { length: MAX_FEED_ENTRIES + 500 },
    (_, i) => `<item><title>t${i}</title><guid>g${i}</guid></item>`,
  ).join("");
  const rss = decodeXml("rss", `<rss><channel><title>Feed</title>${items}</channel></rss>`) as {
    rss: { channel: { title: string; item: { title: string }[] } };
  };
  equal(rss.rss.channel.title, "Feed");
  equal(rss.rss.channel.item.length, MAX_FEED_ENTRIES);
  equal(rss.rss.channel.item.at(-1)!.title, `t${MAX_FEED_ENTRIES - 1}`);
  equal(
    firstEntries("<feed><entry>a</entry><entry>b</entry><entry>c</entry></feed>", 2),
    "<feed><entry>a</entry><entry>b</entry></feed>",
  );
  equal(firstEntries("<feed><entry>a</entry></feed>", 2), "<feed><entry>a</entry></feed>");
});

Deno.test("a JSON array longer than the cap is cut before validation", () => {
  const components = Array.from({ length: MAX_JSON_ARRAY_ITEMS + 5 }, (_, i) => ({
    id: `c${i}`,
    name: `C${i}`,
    status: "operational",
  }));
  const snapshot = statuspage.parse(
    JSON.stringify({ status: { indicator: "none" }, components }),
    ctx,
  );
  equal(snapshot.components.length, MAX_JSON_ARRAY_ITEMS);
  deepStrictEqual(capArrays({ a: [[1, 2, 3], [4]] }, 2), { a: [[1, 2], [4]] });
});
