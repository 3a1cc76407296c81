/**
 * Errors for people and for programs: browsers (`Accept: text/html`) get HTML pages for 404,
 * 429 and 500 outside `/api`; `/api/*` and `Accept: application/json` keep the JSON bodies. A
 * 500 page shows a request id, never what failed. The favicon is served and cached.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { apiRig } from "../../support/api.ts";
import { formBrowser } from "../../support/web.ts";
import { visibleText } from "../../support/html.ts";

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
const JSON_ONLY = { accept: "application/json" };

Deno.test("404: an HTML page for a browser, JSON for /api and for Accept: application/json", async () => {
  const r = apiRig();
  try {
    const page = await r.get("/no/such/page", BROWSER);
    equal(page.status, 404);
    match(page.headers.get("content-type")!, /^text\/html/);
    match(page.headers.get("content-security-policy")!, /default-src 'none'/);
    const text = visibleText(await page.text());
    ok(text.includes("Page not found There is no page at /no/such/page."), text);
    ok(text.includes("Home · All services"));

    for (
      const [path, headers] of [
        ["/no/such/page", JSON_ONLY],
        ["/no/such/page", {}],
        ["/api/nope", BROWSER],
      ] as const
    ) {
      const res = await r.get(path, headers);
      equal(res.status, 404, path);
      match(res.headers.get("content-type")!, /^application\/json/, path);
      equal((await res.json()).error, "not_found", path);
    }
  } finally {
    await r.close();
  }
});

Deno.test("429: the sign-in limit is an HTML page with Retry-After for a browser, JSON for a script", async () => {
  const r = apiRig();
  const browser = formBrowser(r.app, "203.0.113.9");
  try {
    let last: Response | null = null;
    for (let i = 0; i < 11; i++) {
      last = await browser.submit("/sign-in", "/sign-in", {
        email: "x@example.com",
        password: "wrong password",
      });
      if (last.status === 429) break;
      await last.body?.cancel();
    }
    equal(last!.status, 429);
    match(last!.headers.get("content-type")!, /^text\/html/);
    ok(Number(last!.headers.get("retry-after")) > 0);
    const text = visibleText(await last!.text());
    ok(text.includes("Too many attempts"), text);
    match(text, /Try again in \d+ seconds/);

    const script = await r.app.request("https://status.example.test/sign-in", {
      method: "POST",
      headers: { ...JSON_ONLY, "content-type": "application/x-www-form-urlencoded" },
      body: "email=x%40example.com&password=nope",
    }, { remoteAddr: { hostname: "203.0.113.9", port: 40000, transport: "tcp" } });
    equal(script.status, 429);
    equal((await script.json()).error, "rate_limited");
  } finally {
    await r.close();
  }
});

Deno.test("500: a page with a request id for a browser, JSON for a script, no detail either way", async () => {
  const r = apiRig();
  await r.store.close(); // every read now fails inside statusd
  const page = await r.get("/services", BROWSER);
  equal(page.status, 500);
  match(page.headers.get("content-type")!, /^text\/html/);
  const html = await page.text();
  const text = visibleText(html);
  ok(text.includes("Something went wrong on our side"), text);
  match(text, /request id [0-9a-f-]{36}/);
  ok(!/database|sqlite|stack|at .*\.ts/i.test(text), text);

  for (const [path, headers] of [["/services", JSON_ONLY], ["/api/services", BROWSER]] as const) {
    const res = await r.get(path, headers);
    equal(res.status, 500, path);
    const body = await res.json();
    deepStrictEqual(Object.keys(body).sort(), ["error", "message", "requestId", "status"]);
    equal(body.error, "internal");
  }
});

Deno.test("the favicon: a 32×32 icon and an SVG, linked by pages, cached with an ETag", async () => {
  const r = apiRig();
  try {
    const ico = await r.get("/favicon.ico");
    equal(ico.status, 200);
    equal(ico.headers.get("content-type"), "image/x-icon");
    equal(ico.headers.get("cache-control"), "public, max-age=604800");
    const bytes = new Uint8Array(await ico.arrayBuffer());
    deepStrictEqual([...bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0]); // an icon with one image
    deepStrictEqual([bytes[6], bytes[7]], [32, 32]);
    const png = bytes.subarray(22);
    deepStrictEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
    deepStrictEqual([ihdr.getUint32(0), ihdr.getUint32(4)], [32, 32]);
    const etag = ico.headers.get("etag")!;
    equal((await r.get("/favicon.ico", { "if-none-match": etag })).status, 304);

    const svg = await r.get("/favicon.svg");
    equal(svg.headers.get("content-type"), "image/svg+xml");
    match(await svg.text(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const home = await (await r.get("/", { accept: "text/html" })).text();
    ok(home.includes('<link rel="icon" href="/favicon.svg" type="image/svg+xml">'));
  } finally {
    await r.close();
  }
});
