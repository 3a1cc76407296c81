/**
 * The RSS 2.0 and Atom incident feeds, read back by an independent feed parser (`rss-parser`)
 * and checked element by element against what RSS 2.0 and RFC 4287 require.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import Parser from "rss-parser";
import { addIncident, addVendor, apiRig } from "../../support/api.ts";
import { feedRig, T0 } from "./_rig.ts";

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  isArray: (name) => ["item", "entry", "link", "atom:link", "category", "author"].includes(name),
});
const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** The text of an element that may repeat or carry attributes. */
function text(v: unknown): string | undefined {
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "object" && first !== null
    ? (first as { "#text"?: string })["#text"]
    : first as string | undefined;
}

/** What RSS 2.0 requires of a channel and its items. */
function checkRss(body: string, selfUrl: string): void {
  const doc = xml.parse(body);
  equal(doc.rss["@_version"], "2.0");
  const ch = doc.rss.channel;
  for (const el of ["title", "link", "description"]) ok(text(ch[el]), `channel has <${el}>`);
  match(ch.lastBuildDate, RFC822);
  ok(
    ch["atom:link"].some((l: Record<string, string>) =>
      l["@_rel"] === "self" && l["@_href"] === selfUrl
    ),
  );
  for (const item of ch.item ?? []) {
    ok(item.title || item.description, "an item has a title or a description");
    ok(text(item.guid), "an item has a guid");
    match(item.pubDate, RFC822);
    ok(text(item.link)!.startsWith("https://status.example.test/services/"));
  }
}

/** What RFC 4287 requires of a feed and its entries. */
function checkAtom(body: string, selfUrl: string): void {
  const feed = xml.parse(body).feed;
  equal(feed["@_xmlns"], "http://www.w3.org/2005/Atom");
  for (const el of ["id", "title", "updated"]) {
    ok(feed[el] !== undefined && !Array.isArray(feed[el]), `one <${el}>`);
  }
  match(feed.updated, RFC3339);
  ok(
    feed.link.some((l: Record<string, string>) => l["@_rel"] === "self" && l["@_href"] === selfUrl),
  );
  for (const entry of feed.entry ?? []) {
    for (const el of ["id", "title", "updated"]) ok(entry[el] !== undefined, `entry <${el}>`);
    match(entry.updated, RFC3339);
    match(entry.published, RFC3339);
    ok(entry.author?.[0]?.name || feed.author, "an author for every entry (RFC 4287 §4.1.1)");
    ok(entry.content || entry.link.some((l: Record<string, string>) => !l["@_rel"]));
  }
}

Deno.test("the all-vendor RSS and Atom feeds list incidents and maintenance, valid and parseable", async () => {
  const r = await feedRig();
  try {
    const rssRes = await r.get("/feed.rss");
    equal(rssRes.status, 200);
    equal(rssRes.headers.get("content-type"), "application/rss+xml; charset=utf-8");
    match(rssRes.headers.get("cache-control")!, /max-age=\d+/);
    const rssBody = await rssRes.text();
    checkRss(rssBody, "https://status.example.test/feed.rss");
    const rss = await new Parser().parseString(rssBody);
    equal(rss.title, "Vendor incidents · statusd");
    deepStrictEqual(rss.items.map((i) => i.title).sort(), [
      "DB Host: Database upgrade",
      "DB Host: Network maintenance",
      "Outage Hub: Incident with Packages and Pages",
    ]);
    const outage = rss.items.find((i) => i.title!.startsWith("Outage Hub"))!;
    match(outage.link!, /^https:\/\/status\.example\.test\/services\/outage-hub#incident-\d+$/);
    const content = outage["content:encoded"] as string;
    match(content, /impact MAJOR · status INVESTIGATING/);
    match(content, /Packages is now experiencing degraded performance/, "the latest update");
    match(content, /href="https:\/\/stspg\.io\/[a-z0-9]+">On the vendor's status page/);
    match(content, /2 earlier updates not shown/, "5 of 7 updates shown");

    const atomRes = await r.get("/feed.atom");
    equal(atomRes.headers.get("content-type"), "application/atom+xml; charset=utf-8");
    const atomBody = await atomRes.text();
    checkAtom(atomBody, "https://status.example.test/feed.atom");
    const atom = await new Parser().parseString(atomBody);
    equal(atom.items.length, 3);
    const upgrade = atom.items.find((i) => i.title === "DB Host: Database upgrade")!;
    match(upgrade.content!, /planned 2026-11-20 14:00:00 UTC to 2026-11-20 16:00:00 UTC/);
    equal(upgrade.author, "DB Host");
  } finally {
    await r.close();
  }
});

Deno.test("a service's feed has only its incidents; an unknown slug is 404", async () => {
  const r = await feedRig();
  try {
    for (const format of ["rss", "atom"] as const) {
      const res = await r.get(`/services/db-host/feed.${format}`);
      equal(res.status, 200);
      const body = await res.text();
      if (format === "rss") checkRss(body, "https://status.example.test/services/db-host/feed.rss");
      else checkAtom(body, "https://status.example.test/services/db-host/feed.atom");
      const feed = await new Parser().parseString(body);
      equal(feed.title, "DB Host incidents · statusd");
      ok(feed.items.length === 2 && feed.items.every((i) => i.title!.startsWith("DB Host: ")));
    }
    const calm = await new Parser().parseString(
      await (await r.get("/services/calm-cloud/feed.rss")).text(),
    );
    deepStrictEqual(calm.items, [], "a vendor without incidents has an empty, valid feed");
    const missing = await r.get("/services/no-such/feed.atom");
    equal(missing.status, 404);
    equal((await missing.json()).error, "not_found");
  } finally {
    await r.close();
  }
});

Deno.test("feeds answer 304 to a current ETag and change after the next stored change", async () => {
  const r = await feedRig();
  try {
    const first = await r.get("/services/db-host/feed.atom");
    const etag = first.headers.get("etag")!;
    match(etag, /^"[0-9a-f]{32}"$/);
    const again = await r.get("/services/db-host/feed.atom", { "If-None-Match": etag });
    equal(again.status, 304);
    equal(await again.text(), "");
    r.setMaintenances([{
      id: "mnt-upgrade",
      name: "Database upgrade (moved)",
      status: "scheduled",
      startsAt: Date.UTC(2026, 10, 21, 2),
      endsAt: Date.UTC(2026, 10, 21, 3),
    }]);
    await r.poll();
    const after = await r.get("/services/db-host/feed.atom", { "If-None-Match": etag });
    equal(after.status, 200, "the change feed emptied the cache");
    match(await after.text(), /Database upgrade \(moved\)/);
  } finally {
    await r.close();
  }
});

Deno.test("vendor text that would break XML is escaped or dropped; the feeds stay well-formed", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "odd", name: "Odd & Co" });
    await addIncident(r.store, "odd", {
      externalId: "x1",
      title: "Errors in <b>API</b> ]]> \u0001again",
      status: "INVESTIGATING",
      impact: "MINOR",
      startedAt: T0,
      updates: [{
        at: T0,
        status: "INVESTIGATING",
        body: "Bad \u0002bytes ]]> & <script>x</script>",
      }],
    });
    for (const format of ["rss", "atom"] as const) {
      const body = await (await r.get(`/feed.${format}`)).text();
      ok(
        !new RegExp(String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F]`).test(body),
        `${format}: no control characters`,
      );
      ok(!body.includes("<script>"), `${format}: vendor markup is escaped`);
      if (format === "rss") checkRss(body, "https://status.example.test/feed.rss");
      else checkAtom(body, "https://status.example.test/feed.atom");
      const [item] = (await new Parser().parseString(body)).items;
      const title = format === "atom"
        ? item!.title!.replaceAll("&#60;", "<").replaceAll("&#62;", ">").replaceAll("&#38;", "&")
        : item!.title;
      equal(title, "Odd & Co: Errors in <b>API</b> ]]> again");
    }
  } finally {
    await r.close();
  }
});

Deno.test("pages advertise the feeds with <link rel=alternate>; a service page its own too", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    const alternates = (html: string) =>
      [...html.matchAll(/<link rel="alternate" type="([^"]+)" title="[^"]*" href="([^"]+)"/g)]
        .map((m) => `${m[1]} ${m[2]}`);
    const site = [
      "application/atom+xml https://status.example.test/feed.atom",
      "application/rss+xml https://status.example.test/feed.rss",
    ];
    deepStrictEqual(alternates(await (await r.get("/")).text()), site);
    deepStrictEqual(alternates(await (await r.get("/services/github")).text()), [
      "application/atom+xml https://status.example.test/services/github/feed.atom",
      "application/rss+xml https://status.example.test/services/github/feed.rss",
      ...site,
    ]);
  } finally {
    await r.close();
  }
});

Deno.test("feeds list the most recently updated first, as their items are dated", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", name: "Acme" });
    // An old incident with a new update, then a newer one left alone.
    const incident = (id: string, startedAt: number, updatedAt: number) =>
      addIncident(r.store, "acme", {
        externalId: id,
        title: `Incident ${id}`,
        status: "MONITORING",
        impact: "MINOR",
        startedAt,
        updatedAt,
        updates: [{ at: updatedAt, status: "MONITORING", body: `Update of ${id}` }],
      });
    await incident("old", T0 - 5 * 3_600_000, T0 - 60_000);
    await incident("new", T0 - 3_600_000, T0 - 3_600_000);
    for (const path of ["/feed.rss", "/feed.atom", "/services/acme/feed.rss"]) {
      const body = await (await r.get(path)).text();
      const feed = await new Parser().parseString(body);
      deepStrictEqual(feed.items.map((i) => i.title), ["Acme: Incident old", "Acme: Incident new"]);
      // RSS dates an item by its one pubDate; Atom by <updated> (next to <published>).
      const dates = path.endsWith(".atom")
        ? xml.parse(body).feed.entry.map((e: { updated: string }) => Date.parse(e.updated))
        : feed.items.map((i) => Date.parse(i.isoDate!));
      equal(dates[0], T0 - 60_000);
      deepStrictEqual(dates, [...dates].sort((a, b) => b - a), `${path}: dates never go up`);
    }
  } finally {
    await r.close();
  }
});
