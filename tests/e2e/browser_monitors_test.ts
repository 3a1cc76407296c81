/**
 * Settings > Monitors in headless Chromium at 1280 px and at 390 px (issue #12): a person signs
 * in, finds a service by name and adds it, picks components, adds a second one, makes a group,
 * reorders it, creates a board, lays it out and publishes it, then reads `/b/{slug}` signed out.
 * axe-core finds no serious violation on the settings page, and nothing scrolls sideways on a
 * phone.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { existsSync } from "node:fs";
import axe from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import type { Snapshot } from "../../domain/mod.ts";
import { loadCatalog, loadCatalogSignals } from "../../ingest/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { account, PASSWORD, T0, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const CHROMIUM = "/usr/bin/chromium";
const AXE_SOURCE = (axe as unknown as { source: string }).source;

function awsPage(): Snapshot {
  return {
    indicator: "OPERATIONAL",
    components: ["eu-west-1", "us-east-1"].map((r) => ({
      externalId: r,
      name: `Amazon EC2 (${r})`,
      group: null,
      status: r === "us-east-1" ? "MAJOR_OUTAGE" : "OPERATIONAL",
    })),
    incidents: [],
  };
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

async function serious(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return await page.evaluate(`axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
  }).then((r) => r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")))`) as string[];
}

async function sideways(page: Page): Promise<number> {
  const [scroll, inner] = await page.evaluate(
    "[document.scrollingElement.scrollWidth, innerWidth]",
  ) as [number, number];
  return scroll - inner;
}

for (const width of [1280, 390]) {
  Deno.test({
    name:
      `browser: Settings › Monitors at ${width} px — add, pick components, group, reorder, publish a board`,
    ignore: !existsSync(CHROMIUM),
    async fn() {
      await using ctx = testContext();
      await syncVendors(ctx.store, [
        vendorOf({ slug: "aws", name: "AWS" }),
        vendorOf({ slug: "github", name: "GitHub" }),
      ], T0 - 40 * 86_400_000);
      await recordReading(ctx.store, "aws", awsPage(), T0 - 86_400_000);
      await account(ctx, "owner@example.com");
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        createServer({ app: ctx }).fetch,
      );
      const base = `http://127.0.0.1:${server.addr.port}`;
      const home = await Deno.makeTempDir();
      const browser = await launch(home);
      try {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const refused: string[] = [];
        page.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
        });
        await page.goto(`${base}/settings/monitors`);
        equal(new URL(page.url()).pathname, "/sign-in");
        await page.getByLabel("Email").fill("owner@example.com");
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${base}/settings/monitors`, { timeout: 10_000 });

        // Find AWS by name, add it, watch only eu-west-1.
        await page.getByLabel("Find a service").fill("aws");
        await page.getByRole("button", { name: "Search" }).click();
        await page.getByRole("button", { name: "Add AWS" }).click();
        await page.waitForURL(/\/settings\/monitors\/mon_[^/]+\?added=1$/);
        // The picker: a filter, then select all shown (only eu-west-1), then none, then pick.
        const east = page.getByLabel("Amazon EC2 (us-east-1)");
        await page.getByLabel("Filter components").fill("eu-");
        ok(!await east.isVisible(), "filtered out");
        await page.getByRole("button", { name: "Select all shown" }).click();
        ok(await page.getByLabel("Amazon EC2 (eu-west-1)").isChecked());
        await page.getByLabel("Filter components").fill("");
        ok(!await east.isChecked(), "a hidden component is not selected");
        await page.getByRole("button", { name: "Select none" }).click();
        ok(!await page.getByLabel("Amazon EC2 (eu-west-1)").isChecked());
        await page.getByLabel("Amazon EC2 (eu-west-1)").check();
        await page.getByRole("button", { name: "Save monitor" }).click();
        await page.waitForURL(`${base}/settings/monitors?done=saved`);
        ok(await page.getByRole("status").getByText("Monitor saved.").isVisible());
        const row = page.getByRole("row", { name: /AWS/ });
        ok((await row.textContent())!.includes("Amazon EC2 (eu-west-1)"));
        ok((await row.textContent())!.includes("operational"), "us-east-1 is down but not watched");

        await page.getByLabel("Find a service").fill("github");
        await page.getByRole("button", { name: "Search" }).click();
        await page.getByRole("button", { name: "Add GitHub" }).click();
        await page.waitForURL(/\?added=1$/);
        await page.goto(`${base}/settings/monitors`);

        // A group of both, then GitHub moved first.
        await page.getByLabel("New group name").fill("Core");
        await page.getByRole("button", { name: "Create group" }).click();
        await page.waitForURL(/done=group-created/);
        const group = page.getByRole("article", { name: "Core" });
        await group.getByLabel("AWS").check();
        await group.getByLabel("GitHub").check();
        await group.getByRole("button", { name: "Save Core" }).click();
        await page.waitForURL(/done=group-saved/);
        await page.getByRole("button", { name: "Move GitHub up" }).click();
        await page.waitForURL(/done=order/);
        deepStrictEqual(
          await page.getByRole("list", { name: "Order of Core" }).getByRole("listitem")
            .evaluateAll((items) => items.map((i) => i.firstChild!.textContent!.trim())),
          ["GitHub", "AWS"],
        );

        // A public board with the group.
        await page.getByLabel("Address").fill("acme-stack");
        await page.getByLabel("Title", { exact: true }).last().fill("Acme stack");
        await page.getByRole("button", { name: "Create board" }).click();
        await page.waitForURL(/done=board-created/);
        const board = page.getByRole("article", { name: /Acme stack/ });
        await board.getByLabel("Group Core").check();
        await board.getByRole("checkbox", { name: /Public/ }).check();
        await board.getByRole("button", { name: "Save Acme stack" }).click();
        await page.waitForURL(/done=board-saved/);
        ok(await page.getByRole("link", { name: "/b/acme-stack" }).isVisible());

        deepStrictEqual(await serious(page), [], "axe-core on Settings › Monitors");
        equal(await sideways(page), 0, "no sideways scroll");
        await page.screenshot({
          path: `tests/e2e/screenshots/settings-monitors-${width}.png`,
          fullPage: true,
        });

        // Read it signed out.
        const anonymous = await browser.newContext({ viewport: { width, height: 900 } });
        const reader = await anonymous.newPage();
        const res = await reader.goto(`${base}/b/acme-stack`);
        equal(res!.status(), 200);
        // The board's title heads its status page; its entries are the page's content.
        equal(await reader.locator("h1").textContent(), "Acme stack");
        const text = (await reader.locator("main").textContent())!;
        ok(text.includes("Core"));
        equal(await sideways(reader), 0, "the public board fits a phone");
        deepStrictEqual(refused, [], "no request refused by the Content-Security-Policy");
      } finally {
        await browser.close();
        await server.shutdown();
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "browser: Settings › Monitors imports a real package.json and a Terraform lock file",
  ignore: !existsSync(CHROMIUM),
  async fn() {
    const catalog = loadCatalog();
    await using ctx = testContext({ signals: loadCatalogSignals(catalog) });
    await syncVendors(ctx.store, catalog, T0 - 40 * 86_400_000);
    const who = await account(ctx, "owner@example.com");
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      createServer({ app: ctx }).fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const home = await Deno.makeTempDir();
    const browser = await launch(home);
    try {
      const page = await (await browser.newContext({ viewport: { width: 390, height: 900 } }))
        .newPage();
      await page.goto(`${base}/sign-in?next=/settings/monitors`);
      await page.getByLabel("Email").fill("owner@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/settings/monitors`, { timeout: 10_000 });
      const fixtures = new URL("../fixtures/suggestions/", import.meta.url).pathname;
      await page.getByLabel("Upload files").setInputFiles([
        {
          name: "package.json",
          mimeType: "application/json",
          buffer: Buffer.from(await Deno.readFile(`${fixtures}calcom-web-package.json`)),
        },
        {
          name: ".terraform.lock.hcl",
          mimeType: "text/plain",
          buffer: Buffer.from(await Deno.readFile(`${fixtures}paddi-us-west-2.terraform.lock.hcl`)),
        },
      ]);
      await page.getByRole("button", { name: "Suggest monitors" }).click();
      await page.getByRole("heading", { name: "Suggested monitors" }).waitFor();
      deepStrictEqual(await serious(page), [], "axe-core on the suggestions");
      equal(await sideways(page), 0, "the suggestions fit a phone");
      const text = (await page.locator("main").textContent())!;
      ok(/npm package stripe \(package\.json\)/.test(text), text.slice(0, 400));
      ok(/Amazon Web Services|AWS/.test(text), "the Terraform AWS provider");
      const boxes = page.locator('input[name="pick"]');
      const offered = await boxes.count();
      ok(offered >= 3, `${offered} suggestions`);
      // Leave the first out, add the rest.
      const first = JSON.parse((await boxes.first().getAttribute("value"))!).service as string;
      await boxes.first().uncheck();
      await page.getByRole("button", { name: "Add the ticked services" }).click();
      await page.waitForURL(`${base}/settings/monitors?done=imported`);
      ok(
        (await page.locator("main").textContent())!.includes(
          "The ticked services are monitored now.",
        ),
      );
      const stored = (await ctx.store.monitors.list(who.account.id, { page: 0, limit: 100 })).items;
      equal(stored.length, offered - 1);
      equal(stored.some((m) => m.serviceSlug === first), false, "the unticked one is left out");
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(home, { recursive: true });
    }
  },
});
