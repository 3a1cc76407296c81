/**
 * Every page people look at, in headless Chromium at 1280 px and at 390 px (a phone): a
 * screenshot of each (under tests/e2e/screenshots/, not committed; `STATUSD_SCREENSHOTS=0`, as
 * in `.ci/run`, skips them: nobody looks at a CI machine's files), axe-core run on each with
 * no critical or serious violation, no horizontal scroll at 390 px, and no request refused by
 * the Content-Security-Policy. Then the keyboard (skip link, visible focus) and search as you
 * type on /services.
 */
import { createBoard, createGroup, createMonitor } from "../../app/mod.ts";
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import axe from "axe-core";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { account, key, PASSWORD } from "../support/accounts.ts";
import { consent, pkcePair } from "../routes/mcp/_rig.ts";
import { apiRig } from "../support/api.ts";
import { fillPagesStore } from "../support/pages.ts";
import { episodeAt, openState } from "../support/warnings.ts";

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = new URL("./screenshots/", import.meta.url);
const WIDTHS = [1280, 390] as const;
/** Whether to write the screenshots (a person looks at them; CI does not). */
const SCREENSHOTS = Deno.env.get("STATUSD_SCREENSHOTS") !== "0";
/** axe-core's own source, injected into each page (its npm entry exports it as `source`). */
const AXE_SOURCE = (axe as unknown as { source: string }).source;

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: { target: string[] }[];
}

/** Runs axe-core on the page: WCAG 2.1 A/AA rules and best practices. */
async function audit(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) allows it.
  await page.evaluate(AXE_SOURCE);
  return await page.evaluate(`axe.run(document, {
    runOnly: {
      type: "tag",
      values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
  }).then((result) => result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
  })))`) as Violation[];
}

/** The page's scrolling width and the viewport's width. */
async function widths(page: Page): Promise<[number, number]> {
  return await page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]") as [
    number,
    number,
  ];
}

/** A new page of `ctx` with a `width` × 900 viewport. */
async function pageOf(ctx: BrowserContext, width: number): Promise<Page> {
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: 900 });
  return page;
}

async function launch(home: string): Promise<Browser> {
  return await chromium.launch({
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
}

/** A consent page URL for a freshly registered public client. */
async function consentUrl(base: string): Promise<string> {
  const reg = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Browser test client",
      redirect_uris: ["http://localhost:40000/cb"],
      token_endpoint_auth_method: "none",
    }),
  });
  const clientId = (await reg.json()).client_id as string;
  return `${base}/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: "http://localhost:40000/cb",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "s",
  })}`;
}

/** Connects an MCP client to the signed-in account (approval and code exchange), so Settings › MCP lists one. */
async function connectClient(base: string, cookie: string): Promise<void> {
  const redirect = "http://localhost:40000/cb";
  const reg = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Desk agent",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    }),
  });
  const clientId = (await reg.json()).client_id as string;
  const { verifier, challenge } = pkcePair();
  const url = `${base}/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s",
  })}`;
  const { location } = await consent(url, cookie);
  const token = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: location.searchParams.get("code")!,
      redirect_uri: redirect,
      code_verifier: verifier,
      client_id: clientId,
    }),
  });
  if (token.status !== 200) throw new Error(`token: ${token.status}`);
  await token.body?.cancel();
}

/** What one visit found. */
interface Visit {
  readonly name: string;
  readonly width: number;
  readonly status: number;
  readonly serious: Violation[];
  readonly minor: string[];
  readonly scrollWidth: number;
  readonly innerWidth: number;
}

Deno.test({
  name: "browser: every page at 1280 and 390 px, axe-core clean, no sideways scroll on a phone",
  ignore: !existsSync(CHROMIUM),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    mkdirSync(SHOTS, { recursive: true });
    const r = apiRig();
    await fillPagesStore(r.store, 60);
    const owner = await account(r.ctx, "owner@example.com");
    key(r.ctx, owner, "CI pipeline", ["status:read", "incidents:read"]);
    const admin = { kind: "admin", account: owner.account } as const;
    const acme = await createMonitor(r.ctx, admin, { service: "acme", label: "Acme API" });
    const stripe = await createMonitor(r.ctx, admin, { service: "stripe" });
    const group = await createGroup(r.ctx, admin, { name: "Payments", monitors: [stripe.id] });
    await createBoard(r.ctx, admin, {
      slug: "our-stack",
      title: "Everything we depend on",
      public: true,
      items: [{ kind: "monitor", id: acme.id }, { kind: "group", id: group.id }],
      description: "The services our checkout depends on, as their vendors report them.",
      accentColor: "#8250df",
      links: [{ label: "Our site", url: "https://example.com/" }],
      earlyWarning: true,
    });
    // statusd's own eyes see trouble at acme: its service and board pages show the warning.
    const now = r.clock.now();
    await r.store.warnings.record((await r.store.catalog.service("acme"))!.id, {
      answered: {},
      state: openState(
        episodeAt(now - 120_000, {
          suspectedAt: now,
          evidence: "probes_and_reports",
          hosts: ["api.acme.example"],
          reporters: 2,
        }),
      ),
      finished: [],
    }, now);
    const broken = apiRig();
    await broken.store.close(); // its every read fails: the 500 page
    const serve = (app: typeof r.app) =>
      Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => app.fetch(req));
    const server = serve(r.app);
    const brokenServer = serve(broken.app);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const home = await Deno.makeTempDir();
    const browser = await launch(home);
    const visits: Visit[] = [];
    const refused: string[] = [];
    try {
      const anonymous = await browser.newContext();
      const dark = await browser.newContext({ colorScheme: "dark" });
      const signedIn = await browser.newContext();
      const signInPage = await signedIn.newPage();
      await signInPage.goto(`${base}/sign-in`);
      await signInPage.getByLabel("Email").fill("owner@example.com");
      await signInPage.getByLabel("Password").fill(PASSWORD);
      await signInPage.getByRole("button", { name: "Sign in" }).click();
      await signInPage.waitForURL(`${base}/settings/api-keys`);
      await signInPage.close();
      const session = (await signedIn.cookies()).find((c) => c.name === "sd_session")!;
      await connectClient(base, `sd_session=${session.value}`);
      const consentPage = await consentUrl(base);

      // 10 failed sign-ins from this address: the next one is refused (the 429 page).
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${base}/sign-in`, { method: "POST", body: new FormData() });
        await res.body?.cancel();
      }

      // `phoneOnly`: the dark scheme's colours do not depend on the width, so once is enough.
      const pages: {
        name: string;
        url: string;
        ctx: typeof anonymous;
        ready?: string;
        phoneOnly?: boolean;
      }[] = [
        { name: "home", url: `${base}/`, ctx: anonymous },
        { name: "services", url: `${base}/services`, ctx: anonymous },
        { name: "services-search", url: `${base}/services?q=vendor&page=1`, ctx: anonymous },
        { name: "service", url: `${base}/services/acme`, ctx: anonymous },
        { name: "service-outage", url: `${base}/services/stripe`, ctx: anonymous },
        { name: "board", url: `${base}/b/our-stack`, ctx: anonymous },
        { name: "board-embed", url: `${base}/b/our-stack/embed`, ctx: anonymous },
        { name: "board-dark", url: `${base}/b/our-stack`, ctx: dark, phoneOnly: true },
        { name: "home-dark", url: `${base}/`, ctx: dark, phoneOnly: true },
        { name: "service-dark", url: `${base}/services/stripe`, ctx: dark, phoneOnly: true },
        { name: "sign-in", url: `${base}/sign-in`, ctx: anonymous },
        { name: "sign-up", url: `${base}/sign-up`, ctx: anonymous },
        {
          name: "docs",
          url: `${base}/docs`,
          ctx: anonymous,
          ready: "text=List services with their current status",
        },
        { name: "error-404", url: `${base}/no/such/page`, ctx: anonymous },
        { name: "error-404-service", url: `${base}/services/acmee`, ctx: anonymous },
        { name: "error-500", url: `http://127.0.0.1:${brokenServer.addr.port}/`, ctx: anonymous },
        { name: "home-signed-in", url: `${base}/`, ctx: signedIn },
        { name: "settings", url: `${base}/settings`, ctx: signedIn },
        { name: "settings-api-keys", url: `${base}/settings/api-keys`, ctx: signedIn },
        { name: "settings-mcp", url: `${base}/settings/mcp`, ctx: signedIn },
        { name: "oauth-consent", url: consentPage, ctx: signedIn },
      ];
      for (const width of WIDTHS) {
        // One tab per browsing context at this width, navigated from page to page (a new tab per
        // visit cost about half a second each); a navigation starts every document afresh.
        const tabs = new Map<BrowserContext, Page>();
        let visiting = "";
        for (const p of pages) {
          if (p.phoneOnly && width !== 390) continue;
          visiting = p.name;
          let page = tabs.get(p.ctx);
          if (page === undefined) {
            page = await pageOf(p.ctx, width);
            page.on("console", (m) => {
              if (/Content Security Policy|Refused to/i.test(m.text())) {
                refused.push(`${visiting}: ${m.text()}`);
              }
            });
            tabs.set(p.ctx, page);
          }
          const res = await page.goto(p.url);
          if (p.ready) {
            // Attached, not visible: at 390 px the viewer folds its sidebar away.
            await page.locator(p.ready).first().waitFor({ state: "attached", timeout: 30_000 });
          }
          if (SCREENSHOTS) {
            await page.screenshot({
              path: new URL(`${p.name}-${width}.png`, SHOTS).pathname,
              fullPage: true,
            });
          }
          const violations = await audit(page);
          const [scrollWidth, innerWidth] = await widths(page);
          visits.push({
            name: p.name,
            width,
            status: res!.status(),
            serious: violations.filter((v) => v.impact === "critical" || v.impact === "serious"),
            minor: violations.filter((v) => v.impact !== "critical" && v.impact !== "serious")
              .map((v) => `${v.id} (${v.impact})`),
            scrollWidth,
            innerWidth,
          });
        }
        for (const tab of tabs.values()) await tab.close();
      }
      // The 429 page: the sign-in form sent once more after the limit was reached.
      for (const width of WIDTHS) {
        const page = await pageOf(anonymous, width);
        await page.goto(`${base}/sign-in`);
        await page.getByLabel("Email").fill("someone@example.com");
        await page.getByLabel("Password").fill("not the password");
        const [res] = await Promise.all([
          page.waitForResponse((x) =>
            x.url() === `${base}/sign-in` && x.request().method() === "POST"
          ),
          page.getByRole("button", { name: "Sign in" }).click(),
        ]);
        await page.waitForLoadState();
        if (SCREENSHOTS) {
          await page.screenshot({
            path: new URL(`error-429-${width}.png`, SHOTS).pathname,
            fullPage: true,
          });
        }
        const violations = await audit(page);
        const [scrollWidth, innerWidth] = await widths(page);
        visits.push({
          name: "error-429",
          width,
          status: res.status(),
          serious: violations.filter((v) => v.impact === "critical" || v.impact === "serious"),
          minor: violations.filter((v) => v.impact !== "critical" && v.impact !== "serious")
            .map((v) => `${v.id} (${v.impact})`),
          scrollWidth,
          innerWidth,
        });
        await page.close();
      }
    } finally {
      await browser.close();
      await server.shutdown();
      await brokenServer.shutdown();
      await r.close();
      await Deno.remove(home, { recursive: true });
    }
    const statuses = Object.fromEntries(
      visits.filter((v) => v.width === 390).map((v) => [v.name, v.status]),
    );
    deepStrictEqual(statuses, {
      "home": 200,
      "services": 200,
      "services-search": 200,
      "service": 200,
      "service-outage": 200,
      "board": 200,
      "board-embed": 200,
      "board-dark": 200,
      "home-dark": 200,
      "service-dark": 200,
      "sign-in": 200,
      "sign-up": 200,
      "docs": 200,
      "error-404": 404,
      "error-404-service": 404,
      "error-500": 500,
      "home-signed-in": 200,
      "settings": 200,
      "settings-api-keys": 200,
      "settings-mcp": 200,
      "oauth-consent": 200,
      "error-429": 429,
    });
    const serious = visits.filter((v) => v.serious.length).map((v) =>
      `${v.name} @${v.width}: ${
        v.serious.map((x) => `${x.id} (${x.impact}) ${x.help} ${JSON.stringify(x.nodes)}`).join(
          "; ",
        )
      }`
    );
    deepStrictEqual(serious, [], "axe-core: no critical or serious violation");
    const sideways = visits.filter((v) => v.width === 390 && v.scrollWidth > v.innerWidth)
      .map((v) => `${v.name}: ${v.scrollWidth} > ${v.innerWidth}`);
    deepStrictEqual(sideways, [], "no horizontal scroll at 390 px");
    deepStrictEqual(refused, [], "nothing refused by the Content-Security-Policy");
    const minor = [...new Set(visits.flatMap((v) => v.minor.map((m) => `${v.name}: ${m}`)))];
    if (minor.length) console.log(`axe-core, moderate/minor findings:\n  ${minor.join("\n  ")}`);
  },
});

Deno.test({
  name: "browser: a skip link first, visible focus, and search as you type on /services",
  ignore: !existsSync(CHROMIUM),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const r = apiRig();
    await fillPagesStore(r.store, 60);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => r.app.fetch(req),
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const home = await Deno.makeTempDir();
    const browser = await launch(home);
    try {
      const page = await pageOf(await browser.newContext(), 390);
      await page.goto(`${base}/services`);
      await page.keyboard.press("Tab");
      const skip = await page.evaluate(`(() => {
        const el = document.activeElement;
        const box = el.getBoundingClientRect();
        return {
          text: el.textContent,
          outline: getComputedStyle(el).outlineStyle,
          top: box.top,
          height: box.height,
        };
      })()`) as { text: string; outline: string; top: number; height: number };
      equal(skip.text, "Skip to content");
      ok(skip.outline !== "none" && skip.top >= 0 && skip.height > 0, JSON.stringify(skip));
      await page.keyboard.press("Enter");
      equal(await page.evaluate("document.activeElement.id"), "main");

      // Search as you type: the list changes without a page load, ranked as the server ranks.
      await page.evaluate(
        () => ((globalThis as unknown as { stillHere: boolean }).stillHere = true),
      );
      const search = page.getByLabel("Search");
      await search.focus();
      const outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle");
      ok(outline !== "none", "the focused field shows its focus");
      await search.pressSequentially("vendor 0", { delay: 20 });
      await page.waitForURL(`${base}/services?q=vendor+0`);
      await page.locator("#results tbody tr").first().waitFor();
      await page.waitForFunction('document.querySelectorAll("#results tbody tr").length === 9');
      const listed = await page.locator('#results td[data-label="Service"] a').allTextContents();
      const api = await (await fetch(`${base}/api/services?q=vendor+0&limit=50`)).json();
      deepStrictEqual(listed, api.content.map((s: { name: string }) => s.name));
      ok((await page.locator("#result-count").textContent())!.startsWith("9 services"));
      equal(await page.evaluate("window.stillHere"), true, "no page load");
      // A filter change applies at once too.
      await page.getByLabel("Status").selectOption("MAJOR_OUTAGE");
      await page.waitForURL(`${base}/services?q=vendor+0&status=MAJOR_OUTAGE`);
      await page.getByText(/No service matches “vendor 0” with these filters\./).waitFor();
    } finally {
      await browser.close();
      await server.shutdown();
      await r.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: another site may frame a board's embed page, and no other page",
  ignore: !existsSync(CHROMIUM),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const r = apiRig();
    await fillPagesStore(r.store, 5);
    const owner = await account(r.ctx, "owner@example.com");
    const admin = { kind: "admin", account: owner.account } as const;
    const acme = await createMonitor(r.ctx, admin, { service: "acme", label: "Acme API" });
    await createBoard(r.ctx, admin, {
      slug: "our-stack",
      title: "Our stack",
      public: true,
      items: [{ kind: "monitor", id: acme.id }],
    });
    const statusd = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => r.app.fetch(req),
    );
    const base = `http://127.0.0.1:${statusd.addr.port}`;
    // Another origin (another port) whose page frames three statusd pages.
    const frames = ["/b/our-stack/embed", "/b/our-stack", "/services/acme"];
    const site = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response(
          `<!DOCTYPE html><title>Team site</title>${
            frames.map((f, i) => `<iframe name="f${i}" src="${base}${f}"></iframe>`).join("")
          }`,
          { headers: { "content-type": "text/html" } },
        ),
    );
    const home = await Deno.makeTempDir();
    const browser = await launch(home);
    try {
      const page = await (await browser.newContext()).newPage();
      const blocked: string[] = [];
      page.on("console", (m) => {
        if (/frame-ancestors|Refused to (display|frame)/i.test(m.text())) blocked.push(m.text());
      });
      await page.goto(`http://localhost:${site.addr.port}/`);
      await page.waitForLoadState("load");
      const texts: string[] = [];
      for (let i = 0; i < frames.length; i++) {
        const frame = page.frame({ name: `f${i}` })!;
        texts.push(await frame.evaluate("document.body ? document.body.innerText : ''") as string);
      }
      ok(texts[0]!.includes("Our stack"), `the embed shows the board: ${texts[0]}`);
      for (const i of [1, 2]) {
        equal(texts[i]!.includes("Our stack") || texts[i]!.includes("Acme"), false, frames[i]);
      }
      equal(blocked.length, 2, `two frames refused by frame-ancestors: ${blocked.join(" | ")}`);
    } finally {
      await browser.close();
      await statusd.shutdown();
      await site.shutdown();
      await r.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
