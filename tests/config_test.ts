import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { ConfigError, loadConfig } from "../config.ts";
import {
  isAddressAllowed,
  NO_PRIVATE_ADDRESSES,
  NO_PROXIES,
  parseIp,
  proxyFor,
} from "../lib/mod.ts";

Deno.test("defaults fill every setting of DESIGN §7", () => {
  const c = loadConfig({});
  equal(c.port, 8080);
  equal(c.host, "0.0.0.0");
  equal(c.dbPath, "./data/statusd.db");
  equal(c.publicUrl, "http://localhost:8080");
  equal(c.catalogPath, null);
  deepStrictEqual(c.poll, {
    enabled: true,
    stableSeconds: 300,
    movingSeconds: 60,
    pulseSeconds: 60,
    concurrency: 32,
    timeoutMs: 10000,
    allowPrivate: NO_PRIVATE_ADDRESSES,
    proxy: NO_PROXIES,
  });
  deepStrictEqual(c.alerting.proxy, NO_PROXIES);
});

Deno.test("STATUSD_POLL_PULSE_SECONDS sets the pulse interval; 0 turns pulses off", () => {
  equal(loadConfig({ STATUSD_POLL_PULSE_SECONDS: "30" }).poll.pulseSeconds, 30);
  equal(loadConfig({ STATUSD_POLL_PULSE_SECONDS: "0" }).poll.pulseSeconds, 0);
  throws(() => loadConfig({ STATUSD_POLL_PULSE_SECONDS: "-1" }), /STATUSD_POLL_PULSE_SECONDS "-1"/);
});

Deno.test("public URL follows PORT and loses a trailing slash", () => {
  equal(loadConfig({ PORT: "9000" }).publicUrl, "http://localhost:9000");
  equal(
    loadConfig({ STATUSD_PUBLIC_URL: "https://status.example.com/" }).publicUrl,
    "https://status.example.com",
  );
});

Deno.test("a bad value stops startup with a message naming the variable and the value", () => {
  throws(
    () => loadConfig({ STATUSD_POLL_CONCURRENCY: "abc", STATUSD_POLL: "maybe" }),
    (err: unknown) => {
      equal(err instanceof ConfigError, true);
      const msg = (err as Error).message;
      equal(
        msg.includes(
          'Cannot use STATUSD_POLL_CONCURRENCY "abc": expected an integer from 1 to 1024',
        ),
        true,
        msg,
      );
      equal(msg.includes('Cannot use STATUSD_POLL "maybe"'), true, msg);
      return true;
    },
  );
  throws(() => loadConfig({ PORT: "70000" }), /Cannot use PORT "70000"/);
  throws(() => loadConfig({ STATUSD_PUBLIC_URL: "ftp://x" }), /STATUSD_PUBLIC_URL/);
});

Deno.test("STATUSD_POLL=off disables polling", () => {
  equal(loadConfig({ STATUSD_POLL: "off" }).poll.enabled, false);
});

Deno.test("STATUSD_ALLOW_PRIVATE_VENDORS: off by default, on, or a list of addresses and CIDRs", () => {
  const allows = (value: string | undefined, address: string) =>
    isAddressAllowed(
      parseIp(address)!,
      loadConfig({ STATUSD_ALLOW_PRIVATE_VENDORS: value }).poll.allowPrivate,
    );
  equal(allows(undefined, "127.0.0.1"), false);
  equal(allows("off", "10.0.0.1"), false);
  equal(allows("on", "10.0.0.1"), true);
  equal(allows("127.0.0.1,10.0.0.0/8", "10.9.9.9"), true);
  equal(allows("127.0.0.1,10.0.0.0/8", "127.0.0.1"), true);
  equal(allows("127.0.0.1,10.0.0.0/8", "127.0.0.2"), false);
  equal(allows("127.0.0.1,10.0.0.0/8", "192.168.1.1"), false);
  throws(
    () => loadConfig({ STATUSD_ALLOW_PRIVATE_VENDORS: "127.0.0.1,intranet" }),
    (err: unknown) => {
      equal(err instanceof ConfigError, true);
      equal(
        (err as Error).message,
        'Cannot use STATUSD_ALLOW_PRIVATE_VENDORS "127.0.0.1,intranet": expected "off", "on" or ' +
          'a comma list of IP addresses and CIDRs (cannot read "intranet")',
      );
      return true;
    },
  );
  throws(() => loadConfig({ STATUSD_ALLOW_PRIVATE_VENDORS: "yes" }), /STATUSD_ALLOW_PRIVATE/);
});

Deno.test("STATUSD_TRUSTED_PROXIES takes addresses and CIDRs; a bad entry stops startup", () => {
  deepStrictEqual(loadConfig({}).trustedProxies, []);
  deepStrictEqual(loadConfig({ STATUSD_TRUSTED_PROXIES: "none" }).trustedProxies, []);
  deepStrictEqual(
    loadConfig({ STATUSD_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,fd00::/8" }).trustedProxies,
    ["127.0.0.1", "10.0.0.0/8", "fd00::/8"],
  );
  throws(
    () => loadConfig({ STATUSD_TRUSTED_PROXIES: "10.0.0.0/8,proxy.local" }),
    /Cannot use STATUSD_TRUSTED_PROXIES "10\.0\.0\.0\/8,proxy\.local": "proxy\.local" is not an IP address or CIDR range/,
  );
});

Deno.test("STATUSD_DATABASE_URL: a PostgreSQL URL or nothing (SQLite); a bad one is refused without its password", () => {
  equal(loadConfig({}).databaseUrl, null);
  equal(
    loadConfig({ STATUSD_DATABASE_URL: "postgres://statusd:pw@db.internal:5432/statusd" })
      .databaseUrl,
    "postgres://statusd:pw@db.internal:5432/statusd",
  );
  equal(
    loadConfig({ STATUSD_DATABASE_URL: "postgresql://db.internal/statusd" }).databaseUrl,
    "postgresql://db.internal/statusd",
  );
  for (
    const [value, shown] of [
      ["mysql://root:s3cret@db/statusd", "(not shown: it may hold a password)"],
      ["postgres://:s3cret@/statusd", "(not shown: it may hold a password)"],
      ["not a url s3cret", "(not shown: it may hold a password)"],
    ]
  ) {
    throws(() => loadConfig({ STATUSD_DATABASE_URL: value }), (err: unknown) => {
      const msg = (err as Error).message;
      equal(err instanceof ConfigError, true);
      equal(
        msg.startsWith(`Cannot use STATUSD_DATABASE_URL ${shown}: expected a PostgreSQL URL`),
        true,
        msg,
      );
      equal(msg.includes("s3cret"), false, "the password is never shown");
      return true;
    });
  }
});

Deno.test("HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY (either case) set the proxies of vendor fetches and alerts", () => {
  const c = loadConfig({
    HTTPS_PROXY: "http://corp:s3cret@proxy.corp:3128",
    http_proxy: "proxy.corp:8080",
    NO_PROXY: ".internal.corp, 10.0.0.0/8,status.example.com:8443",
  });
  deepStrictEqual(c.poll.proxy.https, {
    transport: "http",
    url: "http://proxy.corp:3128",
    basicAuth: { username: "corp", password: "s3cret" },
  });
  deepStrictEqual(c.poll.proxy.http, {
    transport: "http",
    url: "http://proxy.corp:8080",
    basicAuth: null,
  });
  deepStrictEqual(c.alerting.proxy, c.poll.proxy);
  const via = (url: string) => proxyFor(new URL(url), c.poll.proxy)?.url ?? "direct";
  equal(via("https://status.example.com"), "http://proxy.corp:3128");
  equal(via("https://status.example.com:8443"), "direct");
  equal(via("https://wiki.internal.corp/status"), "direct");
  equal(via("http://10.1.2.3/health"), "direct");
  equal(via("http://status.example.com"), "http://proxy.corp:8080");

  // The upper-case variable wins over the lower-case one (as in Deno's fetch); ALL_PROXY covers
  // what has none.
  const both = loadConfig({
    https_proxy: "http://lower:1",
    HTTPS_PROXY: "http://upper:1",
    all_proxy: "socks5h://socks.corp:1080",
  });
  equal(both.poll.proxy.https?.url, "http://upper:1");
  equal(loadConfig({ https_proxy: "http://lower:1" }).poll.proxy.https?.url, "http://lower:1");
  deepStrictEqual(both.poll.proxy.http, {
    transport: "socks5",
    url: "socks5h://socks.corp:1080",
    basicAuth: null,
  });
});

Deno.test("a bad proxy variable stops startup, naming it but never showing its value", () => {
  for (
    const [name, value, reason] of [
      ["HTTPS_PROXY", "ftp://user:s3cret@proxy.corp", "expected an http://, https://, socks5://"],
      ["HTTP_PROXY", "http://user:s3cret@proxy.corp:3128/path", "with no path or query"],
      ["ALL_PROXY", "http://user:s3cret@:3128", "expected a proxy URL"],
    ]
  ) {
    throws(() => loadConfig({ [name]: value }), (err: unknown) => {
      const msg = (err as Error).message;
      equal(err instanceof ConfigError, true);
      equal(msg.startsWith(`Cannot use ${name} (not shown: it may hold a password):`), true, msg);
      equal(msg.includes(reason), true, msg);
      equal(msg.includes("s3cret"), false, "the password is never shown");
      return true;
    });
  }
  throws(
    () => loadConfig({ NO_PROXY: "ok.example.com, bad host!, 10.0.0.0/99" }),
    /Cannot use NO_PROXY .*cannot read "host!", "10\.0\.0\.0\/99"/,
  );
});
