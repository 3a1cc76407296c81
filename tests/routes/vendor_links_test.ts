/**
 * Only `http:` and `https:` links from vendors are kept or shown (issue #27): a `javascript:` or
 * `data:` incident link is dropped when a reading is bounded (with a note), and one already in
 * the store from before is served as no link on every surface — REST, the Atom and RSS feeds and
 * the service pages (MCP reads the same rows through the same guard).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { boundSnapshot, isWebLink } from "../../domain/mod.ts";
import { apiRig, T0 } from "../support/api.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { incident } from "../store/conformance/_support.ts";

const HOSTILE = [
  "javascript:alert(document.cookie)",
  "JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
];

Deno.test("a reading keeps only http(s) incident links, saying what it dropped", () => {
  const dropped: [string, string][] = [];
  const bounded = boundSnapshot(
    {
      indicator: "PARTIAL_OUTAGE",
      components: [],
      incidents: [
        ...HOSTILE.map((url, i) => incident(`bad${i}`, T0 - 60_000, { url })),
        incident("good", T0 - 60_000, { url: "https://status.example.com/incidents/1" }),
      ],
    },
    T0,
    (path, reason) => void dropped.push([path, reason]),
  );
  deepStrictEqual(
    bounded.incidents.map((i) => i.url),
    [null, null, null, null, "https://status.example.com/incidents/1"],
  );
  equal(dropped.filter(([, r]) => r === "not an http: or https: link").length, HOSTILE.length);
  ok(!isWebLink("//evil.example/x") && !isWebLink("ftp://x.example/") && isWebLink("http://a.b/"));
});

Deno.test("a javascript: link stored before the rule is served as no link anywhere", async () => {
  const rig = apiRig();
  try {
    await syncVendors(rig.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - 86_400_000);
    await recordReading(rig.store, "acme", {
      indicator: "PARTIAL_OUTAGE",
      components: [],
      incidents: HOSTILE.map((url, i) => incident(`bad${i}`, T0 - 60_000, { url })),
    }, T0 - 30_000);
    for (
      const path of [
        "/api/incidents",
        "/api/services/acme",
        "/feed.atom",
        "/feed.rss",
        "/services/acme",
        "/services/acme/feed.atom",
      ]
    ) {
      const res = await rig.get(path, { accept: "text/html,application/json,*/*" });
      const body = await res.text();
      ok(res.status === 200 || res.status === 404, `${path}: ${res.status}`);
      for (const scheme of ["javascript:", "data:text", "vbscript:"]) {
        ok(!body.toLowerCase().includes(scheme), `${path} carries ${scheme}`);
      }
    }
    const incidents = await (await rig.get("/api/incidents")).json();
    const list = incidents.content;
    ok(
      Array.isArray(list) && list.length >= HOSTILE.length,
      JSON.stringify(incidents).slice(0, 300),
    );
    for (const i of list) equal(i.url, null);
  } finally {
    await rig.close();
  }
});
