/**
 * A person in headless Chromium signs in, creates an API key, sees it once, copies it with the
 * copy button (which must work under the pages' Content-Security-Policy), uses it against the
 * API, revokes it after confirming, and sees the API refuse it. No page breaks the policy.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { createServer } from "../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../support/accounts.ts";

const CHROMIUM = "/usr/bin/chromium";

Deno.test({
  name: "browser: sign in, create a key, see it once, use it, revoke it, see it refused",
  ignore: !existsSync(CHROMIUM),
  async fn() {
    await using ctx = testContext();
    await account(ctx, "owner@example.com");
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      createServer({ app: ctx }).fetch,
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
      const context = await browser.newContext({ javaScriptEnabled: true });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
      });
      await page.goto(`${base}/settings/api-keys`);
      equal(new URL(page.url()).pathname, "/sign-in");
      await page.getByLabel("Email").fill("owner@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/settings/api-keys`);

      await page.getByLabel("Name").fill("browser key");
      await page.locator('input[value="account:read"]').check();
      await page.getByRole("button", { name: "Create key" }).click();
      const secret = (await page.locator("#new-key").textContent())!.trim();
      match(secret, /^sd_live_[A-Za-z0-9_-]{43}$/);
      ok(await page.getByText("this is the only time it is shown").isVisible());
      const copy = page.getByRole("button", { name: "Copy key" });
      ok(await copy.isVisible());
      await copy.click();
      await page.getByRole("button", { name: "Copied" }).waitFor();
      equal(await page.evaluate("navigator.clipboard.readText()"), secret);

      // Seen once: reloading the page shows the key's metadata but not its value.
      await page.goto(`${base}/settings/api-keys`);
      const listed = await page.content();
      ok(listed.includes("browser key"));
      ok(!listed.includes(secret.slice(12)));

      const use = () =>
        fetch(`${base}/api/user/api-keys`, { headers: { Authorization: `Bearer ${secret}` } });
      const ok200 = await use();
      equal(ok200.status, 200);
      equal((await ok200.json()).content[0].name, "browser key");

      await page.getByRole("link", { name: "Revoke browser key" }).click();
      ok(await page.getByText("This cannot be undone").isVisible());
      await page.getByRole("button", { name: "Yes, revoke this key" }).click();
      await page.waitForURL(`${base}/settings/api-keys?revoked=1`);
      ok(await page.getByText("Key revoked.").isVisible());

      const refused = await use();
      equal(refused.status, 401);
      equal((await refused.json()).error, "unauthorized");
      match(refused.headers.get("www-authenticate")!, /^Bearer/);
      deepStrictEqual(cspErrors, [], "no page broke its Content-Security-Policy");
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(home, { recursive: true });
    }
  },
});
