/**
 * `/docs` in headless Chromium: the API reference viewer, served by statusd itself, renders the
 * operations of `/openapi.json`; no request leaves statusd's origin; and it runs under the
 * Content-Security-Policy statusd serves for it (scripts only from the origin, no eval; inline
 * styles allowed for the viewer) with no violation, its stylesheet applied.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { sha256 } from "@oslojs/crypto/sha2";
import { chromium } from "playwright-core";
import { DOCS_CSP } from "../../routes/middleware/security_headers.ts";
import { API_REFERENCE_PATH } from "../../routes/web/docs.tsx";
import { addVendor, apiRig } from "../support/api.ts";

const CHROMIUM = "/usr/bin/chromium";

Deno.test({
  name: "browser: /docs renders the API reference from statusd's own origin, under a strict CSP",
  ignore: !existsSync(CHROMIUM),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const r = apiRig();
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => r.app.fetch(req),
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const home = await Deno.makeTempDir();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
      env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home },
    });
    try {
      const page = await browser.newPage({ javaScriptEnabled: true });
      const requests: string[] = [];
      const outside: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        requests.push(url);
        if (url.startsWith(`${base}/`) || url.startsWith("data:") || url.startsWith("blob:")) {
          return route.continue();
        }
        outside.push(url);
        return route.abort();
      });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      await page.addInitScript({
        content: `document.addEventListener("securitypolicyviolation", (e) =>
          console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));`,
      });

      const res = await page.goto(`${base}/docs`);
      equal(res!.status(), 200);
      // The policy statusd itself serves for /docs (inline styles for the viewer, no inline script).
      equal(res!.headers()["content-security-policy"], DOCS_CSP);
      // Operation summaries and operationIds of the document, drawn by the viewer.
      await page.getByText("List services with their current status").first().waitFor({
        timeout: 30_000,
      });
      await page.getByText("Upcoming and in-progress vendor maintenance").first().waitFor();
      ok(await page.getByText("listServices").first().isVisible(), "operationIds are shown");
      const title = page.getByText("statusd API", { exact: true }).first();
      ok((await title.boundingBox())!.width > 100, "the viewer lays out its own columns");
      equal(await page.title(), "API reference · statusd");

      deepStrictEqual(outside, [], "no request leaves statusd's origin");
      ok(requests.includes(`${base}${API_REFERENCE_PATH}`), "the viewer came from statusd");
      ok(requests.includes(`${base}/openapi.json`), "the document came from statusd");
      // zod (inside the viewer) probes once whether eval is allowed (`try { Function("") }`) and
      // works without it: that refused probe is expected; nothing else may be refused.
      deepStrictEqual(
        errors.filter((e) =>
          /CSP violation|Refused/.test(e) && e !== "CSP violation: script-src eval"
        ),
        [],
      );
      ok(
        await page.locator('header.site nav.wide-nav a[href="/docs"][aria-current="page"]')
          .isVisible(),
        "the nav links the API reference",
      );
    } finally {
      await browser.close();
      await server.shutdown();
      await r.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("the viewer script: gzip when accepted, identical bytes otherwise, cached for good", async () => {
  const r = apiRig();
  try {
    const gz = await r.get(API_REFERENCE_PATH, { "Accept-Encoding": "gzip, br" });
    equal(gz.status, 200);
    equal(gz.headers.get("content-encoding"), "gzip");
    equal(gz.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const unzipped = new Uint8Array(
      await new Response(gz.body!.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
    );
    const plain = await r.get(API_REFERENCE_PATH, { "Accept-Encoding": "identity" });
    equal(plain.headers.get("content-encoding"), null);
    equal(plain.headers.get("content-type"), "text/javascript; charset=utf-8");
    const bytes = new Uint8Array(await plain.arrayBuffer());
    deepStrictEqual(bytes, unzipped);
    const etag = plain.headers.get("etag")!;
    equal(etag, `"${[...sha256(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`);
    equal((await r.get(API_REFERENCE_PATH, { "If-None-Match": etag })).status, 304);
  } finally {
    await r.close();
  }
});
