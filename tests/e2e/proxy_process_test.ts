/**
 * A self-hoster behind an outbound proxy: `statusd` started with `HTTP_PROXY` (credentials
 * inside) reads its vendor through the proxy by name, says at startup which proxy it uses without
 * the password, and refuses a proxy variable it cannot read.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { startForwardProxy } from "../support/forward_proxy.ts";
import { startSimulator } from "../support/simulator.ts";
import { startStatusd, until } from "../support/statusd_process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "statusd reads its vendors through HTTP_PROXY, by name, with the proxy's credentials",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sim = startSimulator();
    const proxy = startForwardProxy({ requireAuthorization: `Basic ${btoa("ops:s3cret")}` });
    const dir = await Deno.makeTempDir();
    try {
      // The vendor by a name (`*.localhost` is loopback without a lookup); the proxy connects it.
      const [vendor] = sim.catalog(1, "proxied").map((v) => ({
        ...v,
        statusPageUrl: v.statusPageUrl.replace("127.0.0.1", "status.proxied.localhost"),
      }));
      const catalog = join(dir, "catalog.json");
      await Deno.writeTextFile(catalog, JSON.stringify([vendor]));
      const proxyPort = new URL(proxy.url).port;
      const statusd = await startStatusd({
        STATUSD_DB: join(dir, "statusd.db"),
        STATUSD_CATALOG: catalog,
        STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1",
        HTTP_PROXY: `http://ops:s3cret@127.0.0.1:${proxyPort}`,
      });
      try {
        sim.setScenario(vendor!.slug, "outage");
        const service = await until("a reading through the proxy", async () => {
          const s = await (await fetch(`${statusd.base}/api/services/${vendor!.slug}`)).json();
          return s.currentStatus !== "UNKNOWN" ? s : null;
        });
        equal(service.currentStatus, "PARTIAL_OUTAGE", "GitHub's recorded partial outage");
        const page = vendor!.statusPageUrl;
        ok(proxy.requests.some((r) => r.startsWith(`GET ${page}/`)), proxy.requests.join(", "));
        ok(proxy.authorizations.every((a) => a === `Basic ${btoa("ops:s3cret")}`));
        const said = statusd.startupLog.find((l) => l.includes('"msg":"outbound proxy"'));
        ok(said?.includes(`"http":"http://127.0.0.1:${proxyPort}"`), said);
        ok(!statusd.startupLog.some((l) => l.includes("s3cret")), "the password is never logged");
      } finally {
        await statusd.stop();
      }
    } finally {
      await proxy.close();
      await sim.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a proxy variable statusd cannot read stops it with one line naming the variable (exit 2)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1", PORT: "0", STATUSD_POLL: "off", HTTPS_PROXY: "ftp://ops:s3cret@proxy" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr).trimEnd();
  equal(out.code, 2, stderr);
  equal(stderr.split("\n").length, 1, stderr);
  ok(stderr.startsWith("Cannot use HTTPS_PROXY (not shown: it may hold a password): "), stderr);
  ok(!stderr.includes("s3cret"), "the password is never shown");
});
