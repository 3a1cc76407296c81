/**
 * Settings > Alerts in headless Chromium at 1280 px and at 390 px (issue #13): a person signs in,
 * adds a webhook route and sees its signing secret once, adds a Slack route, sends it a test that
 * the delivery worker takes to a loopback receiver (its outcome under Recent alerts), writes a
 * rule for all monitors, turns it off, and axe-core finds no serious violation; nothing scrolls
 * sideways on a phone.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import axe from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import { parseAllowance } from "../../lib/mod.ts";
import { silentLogger } from "../../log.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { createServer } from "../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../support/accounts.ts";
import { startReceivers } from "../support/receivers.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const CHROMIUM = "/usr/bin/chromium";
const AXE_SOURCE = (axe as unknown as { source: string }).source;

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

for (const width of [1280, 390]) {
  Deno.test({
    name: `browser: Settings › Alerts at ${width} px — routes, a test delivered, a rule`,
    ignore: !existsSync(CHROMIUM),
    async fn() {
      await using ctx = testContext({ clock: { now: () => Date.now() } });
      await syncVendors(
        ctx.store,
        [vendorOf({ slug: "github", name: "GitHub" })],
        Date.now() - 86_400_000,
      );
      await recordReading(ctx.store, "github", {
        indicator: "OPERATIONAL",
        components: [],
        incidents: [],
      }, Date.now() - 3_600_000);
      await account(ctx, "owner@example.com");
      const rx = startReceivers();
      const allow = parseAllowance("127.0.0.1");
      if (!allow.ok) throw new Error();
      const http = createHttpSender({ timeoutMs: 2_000, allowPrivate: allow.allowance });
      const worker = createDeliveryWorker({
        store: ctx.store,
        http,
        mail: null,
        clock: ctx.clock,
        log: silentLogger,
        instanceId: "t",
      });
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        createServer({ app: ctx }).fetch,
      );
      const base = `http://127.0.0.1:${server.addr.port}`;
      const home = await Deno.makeTempDir();
      const browser = await launch(home);
      try {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
        const page = await context.newPage();
        await page.goto(`${base}/settings/alerts`);
        await page.getByLabel("Email").fill("owner@example.com");
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${base}/settings/alerts`, { timeout: 10_000 });
        ok(await page.getByText("Add a route first").isVisible());

        await page.getByLabel("Route name").fill("Receiver");
        const kind = page.getByRole("group", { name: "Kind" });
        // Only the chosen kind's field shows.
        await kind.getByLabel("Email").check();
        ok(await page.getByLabel(/^Email addresses/).isVisible());
        ok(!await page.getByLabel(/^Webhook URL/).isVisible());
        ok(!await page.getByLabel(/^PagerDuty routing key/).isVisible());
        await kind.getByLabel("Webhook (signed JSON)").check();
        ok(!await page.getByLabel(/^Email addresses/).isVisible());
        await page.getByLabel(/^Webhook URL/).fill(`${rx.origin}/webhook`);
        await page.getByRole("button", { name: "Add route" }).click();
        const secret = (await page.locator("#route-secret").textContent())!.trim();
        match(secret, /^whsec_/);
        await page.getByRole("button", { name: "Copy secret" }).click();
        await page.getByRole("button", { name: "Copied" }).waitFor();
        equal(await page.evaluate("navigator.clipboard.readText()"), secret);
        await page.goto(`${base}/settings/alerts`);
        ok(!(await page.content()).includes(secret), "shown once");

        await page.getByLabel("Route name").fill("Team chat");
        await page.getByRole("group", { name: "Kind" }).getByLabel("Slack incoming webhook")
          .check();
        await page.getByLabel(/^Webhook URL/).fill(`${rx.origin}/slack`);
        await page.getByRole("button", { name: "Add route" }).click();
        await page.waitForURL(/done=route-created/);
        await page.getByRole("button", { name: "Send test to Team chat" }).click();
        await page.waitForURL(/done=test-queued/);
        await worker.runOnce();
        await worker.stop();
        equal(rx.on("/slack").length, 1);
        equal(rx.on("/slack")[0]!.status, 200, "Block Kit accepted by the Slack receiver");
        await page.reload();
        const recent = page.getByRole("table", { name: "Recent alerts" });
        ok((await recent.textContent())!.includes("delivered"));

        await page.getByLabel("Policy name").fill("On call");
        const step1 = page.getByRole("group", { name: "Step 1" });
        await step1.getByLabel("Team chat").check();
        const step2 = page.getByRole("group", { name: "Step 2 (optional)" });
        await step2.getByLabel("Minutes after the step before").fill("10");
        await step2.getByLabel("Receiver").check();
        await page.getByRole("button", { name: "Add escalation policy" }).click();
        await page.waitForURL(/done=escalation-created/);
        const policy = page.getByRole("article", { name: "On call" });
        ok((await policy.textContent())!.includes("after 10 min: Receiver"));

        await page.getByLabel("Rule name").fill("Anything down");
        await page.getByRole("combobox", { name: /^And escalate with/ }).selectOption({
          label: "On call",
        });
        await page.getByRole("combobox", { name: /^Watch/ }).selectOption({
          label: "All my monitors",
        });
        await page.getByRole("group", { name: "Send to" }).getByLabel("Team chat").check();
        await page.getByRole("button", { name: "Add rule" }).click();
        await page.waitForURL(/done=rule-created/);
        const rules = page.getByRole("table", { name: "Alert rules" });
        ok((await rules.textContent())!.includes("partial outage or worse, at once"));
        await page.getByRole("button", { name: "Turn off Anything down" }).click();
        await page.waitForURL(/done=rule-saved/);
        ok((await rules.textContent())!.includes("(off)"));

        deepStrictEqual(await serious(page), [], "axe-core on Settings › Alerts");
        const [scroll, inner] = await page.evaluate(
          "[document.scrollingElement.scrollWidth, innerWidth]",
        ) as [number, number];
        equal(scroll - inner, 0, "no sideways scroll");
        await page.screenshot({
          path: `tests/e2e/screenshots/settings-alerts-${width}.png`,
          fullPage: true,
        });
      } finally {
        await browser.close();
        await server.shutdown();
        http.close();
        await rx.close();
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}
