import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { HOUR_MS } from "../../domain/mod.ts";
import {
  addIncident,
  addTransitions,
  addVendor,
  apiRig,
  body,
  PUBLIC_URL,
  T0,
} from "../support/api.ts";

Deno.test("the api-catalog is an RFC 9727 linkset built from the public URL", async () => {
  const r = apiRig();
  try {
    for (const method of ["GET", "HEAD"]) {
      const res = await r.app.request(`http://evil.test/.well-known/api-catalog`, { method });
      equal(res.status, 200);
      equal(
        res.headers.get("content-type"),
        'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      );
      ok(res.headers.get("link")!.includes('rel="api-catalog"'), `${method} carries the Link`);
      if (method === "HEAD") continue;
      const doc = await res.json();
      deepStrictEqual(Object.keys(doc), ["linkset"]);
      const api = doc.linkset[0];
      equal(api.anchor, `${PUBLIC_URL}/api`);
      equal(api["service-desc"][0].href, `${PUBLIC_URL}/openapi.json`);
      ok(api["service-doc"].length >= 1);
      equal(api.status[0].href, `${PUBLIC_URL}/healthz`);
      for (const ctx of doc.linkset) {
        for (const [rel, targets] of Object.entries(ctx)) {
          if (rel === "anchor") continue;
          ok(Array.isArray(targets), `${rel} is an array of targets`);
          for (const t of targets as { href: string }[]) ok(t.href.startsWith(PUBLIC_URL));
        }
      }
    }
    // The links point at things that exist.
    equal((await r.get("/openapi.json")).status, 200);
    equal((await r.get("/healthz")).status, 200);
  } finally {
    await r.close();
  }
});

Deno.test("the homepage sends RFC 8288 Link headers for the discovery files", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", name: "Acme", status: "MAJOR_OUTAGE" });
    const res = await r.get("/");
    equal(res.status, 200);
    ok(res.headers.get("content-type")!.startsWith("text/html"));
    const link = res.headers.get("link")!;
    for (
      const [path, rel] of [
        ["/.well-known/api-catalog", "api-catalog"],
        ["/openapi.json", "service-desc"],
        ["/healthz", "status"],
        ["/llms.txt", "describedby"],
        ["/sitemap.xml", "https://www.sitemaps.org/protocol.html"],
      ]
    ) {
      ok(link.includes(`<${PUBLIC_URL}${path}>; rel="${rel}"`), `${rel} → ${path}`);
    }
    const html = await res.text();
    ok(html.includes("Acme"), "the home page lists a disrupted service");
    ok(html.includes(`rel="api-catalog" href="${PUBLIC_URL}/.well-known/api-catalog"`));
  } finally {
    await r.close();
  }
});

Deno.test("the sitemap lists home, catalog and every service page with its last change", async () => {
  const r = apiRig();
  try {
    // Each changed level an hour after its first reading.
    await addVendor(r.store, { slug: "acme" });
    await addTransitions(r.store, "acme", [
      [T0 - 6 * HOUR_MS, "OPERATIONAL"],
      [T0 - 5 * HOUR_MS, "MAJOR_OUTAGE"],
    ]);
    await addVendor(r.store, { slug: "b&q" });
    await addTransitions(r.store, "b&q", [
      [T0 - 10 * HOUR_MS, "OPERATIONAL"],
      [T0 - 9 * HOUR_MS, "MAJOR_OUTAGE"],
    ]);
    await addIncident(r.store, "b&q", {
      externalId: "1",
      title: "t",
      status: "RESOLVED",
      impact: "MINOR",
      startedAt: T0 - 4 * HOUR_MS,
      updatedAt: T0 - 2 * HOUR_MS,
    });
    const res = await r.get("/sitemap.xml");
    equal(res.status, 200);
    equal(res.headers.get("content-type"), "application/xml; charset=utf-8");
    const xml = await res.text();
    ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
    const parsed = new XMLParser().parse(xml);
    const urls = parsed.urlset.url as { loc: string; lastmod: string }[];
    deepStrictEqual(urls, [
      { loc: `${PUBLIC_URL}/`, lastmod: "2026-11-20T10:00:00Z" },
      { loc: `${PUBLIC_URL}/services`, lastmod: "2026-11-20T10:00:00Z" },
      { loc: `${PUBLIC_URL}/services/acme`, lastmod: "2026-11-20T07:00:00Z" },
      { loc: `${PUBLIC_URL}/services/b%26q`, lastmod: "2026-11-20T10:00:00Z" },
    ]);
    equal(res.headers.get("last-modified"), new Date(T0 - 2 * HOUR_MS).toUTCString());
    const again = await r.get("/sitemap.xml", {
      "If-Modified-Since": res.headers.get("last-modified")!,
    });
    equal(again.status, 304);
    equal((await r.get("/services/acme")).status, 200, "listed pages exist");
  } finally {
    await r.close();
  }
});

Deno.test("llms.txt is a plain-text map with the API base, operations, MCP and OpenAPI URLs", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    const res = await r.get("/llms.txt");
    equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
    const text = await res.text();
    ok(text.startsWith("# statusd\n\n> "));
    for (
      const needle of [
        `${PUBLIC_URL}/api`,
        `${PUBLIC_URL}/openapi.json`,
        `${PUBLIC_URL}/api/mcp`,
        `${PUBLIC_URL}/.well-known/api-catalog`,
        "listServices",
        "getServiceUptime",
        "listIncidents",
        "## Optional",
      ]
    ) ok(text.includes(needle), needle);
    ok(
      (await r.get("/robots.txt").then((x) => x.text())).includes(
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      ),
    );
  } finally {
    await r.close();
  }
});

Deno.test("healthz reports the database, the poller and counts", async () => {
  const r = apiRig({ running: false });
  await addVendor(r.store, { slug: "acme" });
  const res = await body(await r.get("/healthz"));
  equal(res.status, 200);
  equal(res.json.status, "degraded");
  deepStrictEqual(res.json.poller, { running: false });
  deepStrictEqual(res.json.database, { ok: true, engine: r.store.engine });
  equal((res.json.counts as { services: number }).services, 1);
  await r.store.close();
  const down = await body(await r.app.request(`${PUBLIC_URL}/healthz`));
  equal(down.status, 503);
  equal(down.json.status, "down");
  equal((down.json.database as { engine: string }).engine, r.store.engine);
});

Deno.test("service pages render, and an unknown slug gets an HTML 404 with suggestions", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    const page = await r.get("/services/github");
    equal(page.status, 200);
    ok((await page.text()).includes("GitHub"));
    const missing = await r.get("/services/githb");
    equal(missing.status, 404);
    ok((await missing.text()).includes('href="/services/github"'));
    const list = await r.get("/services?q=git");
    ok((await list.text()).includes("GitHub"));
  } finally {
    await r.close();
  }
});

Deno.test("the home page lists disrupted services and says how many have no fresh data", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub", status: "MAJOR_OUTAGE" });
    await addVendor(r.store, { slug: "stripe", name: "Stripe", status: "OPERATIONAL" });
    await addVendor(r.store, { slug: "acme", name: "Acme", status: "UNKNOWN" });
    await addVendor(r.store, { slug: "zeta", name: "Zeta", status: "UNKNOWN" });
    const html = await (await r.get("/")).text();
    ok(html.includes("Disrupted right now (1)"), html);
    ok(html.includes('href="/services/github"'));
    ok(!html.includes('href="/services/stripe"'));
    ok(html.includes('<a href="/services?status=UNKNOWN">2 services</a>'), html);
  } finally {
    await r.close();
  }
});

/** Splits an RFC 8288 `Link` value into links (commas inside `<…>` or quotes do not split). */
function parseLinkHeader(value: string): { target: string; params: Record<string, string> }[] {
  const links: string[] = [];
  let current = "";
  let inUri = false;
  let inQuote = false;
  for (const ch of value) {
    if (ch === "<" && !inQuote) inUri = true;
    if (ch === ">" && !inQuote) inUri = false;
    if (ch === '"' && !inUri) inQuote = !inQuote;
    if (ch === "," && !inUri && !inQuote) {
      links.push(current);
      current = "";
    } else current += ch;
  }
  links.push(current);
  return links.map((link) => {
    const [target, ...rest] = link.split(";").map((p) => p.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf("=");
      params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, "");
    }
    return { target: target!.slice(1, -1), params };
  });
}

/**
 * IANA "Link Relation Types" entries statusd may use (RFC 8631: service-desc, service-doc,
 * status; RFC 9727: api-catalog; POWDER: describedby). Anything else must be an absolute URI
 * (RFC 8288 §2.1.2).
 */
const REGISTERED = new Set(["api-catalog", "service-desc", "service-doc", "status", "describedby"]);

Deno.test("homepage Link relations are registered names or URIs, and each target serves the type it advertises", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    for (const method of ["GET", "HEAD"]) {
      const res = await r.app.request(`${PUBLIC_URL}/`, { method });
      await res.body?.cancel();
      const links = parseLinkHeader(res.headers.get("link")!);
      ok(links.length >= 8, method);
      for (const { target, params } of links) {
        const rel = params.rel!;
        ok(
          REGISTERED.has(rel) || /^https?:\/\/[^\s]+$/.test(rel),
          `${rel} is a registered relation or an absolute URI`,
        );
        ok(target.startsWith(PUBLIC_URL), target);
        if (params.anchor) ok(params.anchor.startsWith(PUBLIC_URL), params.anchor);
        const served = await r.app.request(target);
        equal(served.status, 200, target);
        const type = served.headers.get("content-type")!;
        equal(type.split(";")[0]!.trim(), params.type, `${target}: served as ${type}`);
        if (params.profile) {
          ok(type.includes(`profile="${params.profile}"`), `${target}: profile ${params.profile}`);
        }
        await served.body?.cancel();
      }
      const rels = links.map((l) => l.params.rel);
      for (const rel of ["api-catalog", "service-desc", "status", "describedby"]) {
        ok(rels.includes(rel), rel);
      }
      ok(
        links.some((l) =>
          l.target.endsWith("/.well-known/mcp.json") && l.params.anchor === `${PUBLIC_URL}/api/mcp`
        ),
        "the MCP manifest describes /api/mcp",
      );
      ok(links.some((l) => l.target.endsWith("/sitemap.xml")), "the sitemap is advertised");
    }
    // The api-catalog's own targets are served as the types it names.
    const catalog = await (await r.get("/.well-known/api-catalog")).json();
    for (const context of catalog.linkset) {
      for (const [rel, targets] of Object.entries(context)) {
        if (rel === "anchor") continue;
        for (const t of targets as { href: string; type: string }[]) {
          const served = await r.app.request(t.href);
          equal(served.headers.get("content-type")!.split(";")[0], t.type, t.href);
          await served.body?.cancel();
        }
      }
    }
  } finally {
    await r.close();
  }
});

Deno.test("llms.txt follows llmstxt.org, names the CLI's real variable and links only to things that exist", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "github", name: "GitHub" });
    await addVendor(r.store, { slug: "acme" });
    const text = await (await r.get("/llms.txt")).text();
    const lines = text.split("\n");
    equal(lines[0], "# statusd");
    ok(lines.some((l) => l.startsWith("> ")), "a blockquote summary");
    ok(text.includes(`STATUS_API_URL=${PUBLIC_URL}`), "the status CLI's variable");
    ok(!text.includes("STATUSD_URL"), "no variable the CLI does not read");
    ok(!/monitors|alerts/i.test(text), "no account resources that do not exist yet");
    // Below the first H2 every non-blank line is a list item `- [name](url)` or `- [name](url): notes`.
    const first = lines.findIndex((l) => l.startsWith("## "));
    ok(first > 0);
    const urls: string[] = [];
    for (const line of lines.slice(first)) {
      if (line === "" || line.startsWith("## ")) continue;
      const m = /^- \[([^\]]+)\]\(([^)\s]+)\)(: .+)?$/.exec(line);
      ok(m, `list form: ${line}`);
      urls.push(m[2]!);
    }
    ok(urls.length >= 10);
    for (const url of urls) {
      ok(!/[{}]/.test(url), `no URI template: ${url}`);
      ok(url.startsWith(PUBLIC_URL), url);
      const res = await r.app.request(url);
      await res.body?.cancel();
      ok(res.status !== 404 && res.status < 500, `${url} exists (${res.status})`);
    }
    ok(urls.includes(`${PUBLIC_URL}/api/services/github`), "a concrete service link");
  } finally {
    await r.close();
  }
});
