/**
 * Every HTML page forbids framing and runs under a Content-Security-Policy that allows only
 * statusd's own stylesheet and script; every response says nosniff and a Referrer-Policy; HSTS
 * is sent when the public URL is https.
 */
import { equal, match, ok } from "node:assert/strict";
import { createServer } from "../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../support/accounts.ts";
import { addVendor } from "../support/api.ts";
import { formBrowser } from "../support/web.ts";

/** Inline code a strict CSP would block: `<script>` without src, `<style>`, style/on* attributes. */
function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) if (!/\bsrc=/.test(m[1]!)) found.push(m[0]);
  for (const m of html.matchAll(/<style\b[^>]*>/gi)) found.push(m[0]);
  for (const m of html.matchAll(/<[^>]+\s(style|on[a-z]+)=/gi)) found.push(m[0]);
  return found;
}

Deno.test("every HTML page forbids framing, sends a strict CSP and links its assets instead of inlining them", async () => {
  await using ctx = testContext({ publicUrl: "https://status.example.com" });
  await addVendor(ctx.store, { slug: "acme" });
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const anonymous = formBrowser(app);
  const signedIn = formBrowser(app);
  await signedIn.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const pages: [string, ReturnType<typeof formBrowser>][] = [
    ["/", anonymous],
    ["/services", anonymous],
    ["/services/acme", anonymous],
    ["/sign-in", anonymous],
    ["/sign-up", anonymous],
    ["/oauth/authorize", anonymous], // its error page; the consent page: tests/routes/mcp
    ["/settings/api-keys", signedIn],
    ["/settings/mcp", signedIn],
  ];
  const assets = new Set<string>();
  for (const [path, b] of pages) {
    const res = await b.get(path);
    match(res.headers.get("content-type")!, /^text\/html/, path);
    const csp = res.headers.get("content-security-policy") ?? "";
    match(csp, /frame-ancestors 'none'/, path);
    match(csp, /default-src 'none'/, path);
    match(csp, /script-src 'self'(;|$)/, path);
    match(csp, /style-src 'self'(;|$)/, path);
    equal(res.headers.get("x-frame-options"), "DENY", path);
    equal(res.headers.get("x-content-type-options"), "nosniff", path);
    equal(res.headers.get("referrer-policy"), "same-origin", path);
    equal(res.headers.get("strict-transport-security"), "max-age=31536000", path);
    const html = await res.text();
    equal(inlineCode(html).join(" "), "", `${path} has inline code the CSP would block`);
    for (
      const m of html.matchAll(/<(?:link rel="stylesheet"|script) [^>]*(?:href|src)="([^"]+)"/g)
    ) {
      assets.add(m[1]!);
    }
  }
  equal(assets.size, 3); // the stylesheet, the copy button and search as you type
  for (const asset of assets) {
    const res = await anonymous.get(asset);
    equal(res.status, 200, asset);
    match(res.headers.get("content-type")!, /^text\/(css|javascript)/);
    equal(res.headers.get("x-content-type-options"), "nosniff");
    ok((await res.text()).length > 100);
  }
});

Deno.test("JSON answers say nosniff too; HSTS only behind an https public URL", async () => {
  await using ctx = testContext();
  const plain = createServer({ app: ctx });
  for (const path of ["/api/services", "/openapi.json", "/api/nope", "/healthz"]) {
    const res = await plain.request(path);
    await res.body?.cancel();
    equal(res.headers.get("x-content-type-options"), "nosniff", path);
    equal(res.headers.get("referrer-policy"), "same-origin", path);
    equal(res.headers.get("strict-transport-security"), null, path);
  }
  await using secure = testContext({ publicUrl: "https://status.example.com" });
  const https = createServer({ app: secure });
  const res = await https.request("/api/services");
  equal(res.headers.get("strict-transport-security"), "max-age=31536000");
});
