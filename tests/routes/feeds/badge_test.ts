/**
 * `/badge/{slug}.svg`: what the image says and its colour per level, the label and style
 * options, cache headers and 304, and the "not found" image for an unknown slug.
 */
import { deepStrictEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import type { StatusLevel } from "../../../domain/mod.ts";
import { BADGE_STYLES } from "../../../routes/feeds/mod.ts";
import { addVendor, apiRig } from "../../support/api.ts";
import { ShieldsEndpointSchema } from "../../support/shields.ts";
import { feedRig } from "./_rig.ts";

const svg = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });

/** The badge's accessible text and the fill colour of its right-hand (message) part. */
async function read(res: Response): Promise<{ label: string; fill: string }> {
  equal(res.headers.get("content-type"), "image/svg+xml; charset=utf-8");
  const doc = svg.parse(await res.text()).svg;
  const rects = [doc.g].flat().flatMap((g: { rect?: unknown }) => [g.rect ?? []].flat()) as {
    fill: string;
    x?: string;
  }[];
  const message = rects.find((r) => r.x !== undefined && r.fill !== "url(#s)")!;
  return { label: doc["aria-label"], fill: message.fill };
}

/** `#rgb` or `#rrggbb` as [r, g, b]. */
function rgb(hex: string): number[] {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
}

Deno.test("a badge says the service's name and status in words, coloured by level", async () => {
  const r = apiRig();
  try {
    const levels: [StatusLevel, string][] = [
      ["OPERATIONAL", "operational"],
      ["UNDER_MAINTENANCE", "maintenance"],
      ["DEGRADED_PERFORMANCE", "degraded"],
      ["PARTIAL_OUTAGE", "partial outage"],
      ["MAJOR_OUTAGE", "major outage"],
      ["UNKNOWN", "unknown"],
    ];
    const fills = new Map<StatusLevel, string>();
    for (const [status, words] of levels) {
      const slug = status.toLowerCase().replaceAll("_", "-");
      await addVendor(r.store, { slug, name: `Vendor ${slug}`, status });
      const res = await r.get(`/badge/${slug}.svg`);
      equal(res.status, 200);
      const badge = await read(res);
      equal(badge.label, `Vendor ${slug}: ${words}`);
      fills.set(status, badge.fill);
    }
    equal(new Set(fills.values()).size, 6, "six levels, six colours");
    const [ur, ug, ub] = rgb(fills.get("UNKNOWN")!);
    ok(ur === ug && ug === ub, `UNKNOWN is grey, got ${fills.get("UNKNOWN")}`);
    const [or, og, ob] = rgb(fills.get("OPERATIONAL")!);
    ok(og > or && og > ob, `operational is green, got ${fills.get("OPERATIONAL")}`);
    const [mr, mg, mb] = rgb(fills.get("MAJOR_OUTAGE")!);
    ok(mr > mg && mr > mb, `major outage is red, got ${fills.get("MAJOR_OUTAGE")}`);
  } finally {
    await r.close();
  }
});

Deno.test("badge options: label override (bounded), every style, bad style 400", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub", status: "OPERATIONAL" });
    const labelled = await read(await r.get("/badge/github.svg?label=Our%20Git%20host"));
    equal(labelled.label, "Our Git host: operational");
    for (const style of BADGE_STYLES) {
      const res = await r.get(`/badge/github.svg?style=${style}`);
      equal(res.status, 200, style);
      match(await res.text(), /^<svg /);
    }
    const flat = await (await r.get("/badge/github.svg?style=flat")).text();
    const square = await (await r.get("/badge/github.svg?style=flat-square")).text();
    notEqual(flat, square, "styles draw differently");
    const bad = await r.get("/badge/github.svg?style=3d");
    equal(bad.status, 400);
    equal((await bad.json()).issues[0].parameter, "style");
    equal((await r.get(`/badge/github.svg?label=${"x".repeat(65)}`)).status, 400);
    const hostile = await (await r.get(
      `/badge/github.svg?label=${encodeURIComponent('<script>alert(1)</script>"')}`,
    )).text();
    ok(!hostile.includes("<script>"), "the label is escaped inside the SVG");
    svg.parse(hostile);
  } finally {
    await r.close();
  }
});

Deno.test("an unknown slug answers a 404 'not found' badge image, not JSON", async () => {
  const r = apiRig();
  try {
    const res = await r.get("/badge/no-such-vendor.svg");
    equal(res.status, 404);
    const badge = await read(res);
    equal(badge.label, "status: not found");
    equal((await read(await r.get("/badge/..svg"))).label, "status: not found");
  } finally {
    await r.close();
  }
});

Deno.test("badges: short max-age, ETag and 304, and a new image after a status change", async () => {
  const r = await feedRig();
  try {
    const first = await r.get("/badge/outage-hub.svg");
    equal(first.headers.get("cache-control"), "public, max-age=60");
    const etag = first.headers.get("etag")!;
    match(etag, /^"[0-9a-f]{32}"$/);
    equal((await read(first)).label, "Outage Hub: partial outage");
    const cached = await r.get("/badge/outage-hub.svg", { "If-None-Match": etag });
    equal(cached.status, 304);
    equal(cached.headers.get("etag"), etag);
    deepStrictEqual(await cached.text(), "");
    r.sim.setScenario("outage-hub", "calm");
    await r.poll();
    const after = await r.get("/badge/outage-hub.svg", { "If-None-Match": etag });
    equal(after.status, 200);
    ok(after.headers.get("etag") !== etag);
    equal((await read(after)).label, "Outage Hub: operational");
  } finally {
    await r.close();
  }
});

Deno.test("shields endpoint JSON: a service's level in words and colour, label override, not found", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", name: "Acme", status: "PARTIAL_OUTAGE" });
    const res = await r.get("/badge/acme.json");
    equal(res.status, 200);
    match(res.headers.get("content-type") ?? "", /^application\/json/);
    deepStrictEqual(ShieldsEndpointSchema.parse(await res.json()), {
      schemaVersion: 1,
      label: "Acme",
      message: "partial outage",
      color: "orange",
      cacheSeconds: 300,
    });
    equal(
      ShieldsEndpointSchema.parse(await (await r.get("/badge/acme.json?label=")).json()).label,
      "",
    );
    equal((await r.get(`/badge/acme.json?label=${"x".repeat(65)}`)).status, 400);
    const missing = await r.get("/badge/nobody.json");
    equal(missing.status, 404);
    deepStrictEqual(ShieldsEndpointSchema.parse(await missing.json()), {
      schemaVersion: 1,
      label: "status",
      message: "not found",
      color: "lightgrey",
      isError: true,
      cacheSeconds: 300,
    });
  } finally {
    await r.close();
  }
});
