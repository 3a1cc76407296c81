/**
 * Proxy variables as curl reads them (lib/proxy.ts): the URL forms a proxy variable takes,
 * the `NO_PROXY` entries, and which proxy a URL goes through.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  parseNoProxy,
  parseProxyUrl,
  proxyFor,
  type ProxyServer,
  type ProxySettings,
} from "../../lib/mod.ts";

function server(text: string): ProxyServer {
  const p = parseProxyUrl(text);
  if ("error" in p) throw new Error(p.error);
  return p;
}

Deno.test("proxy URL: a scheme, a host and a port; host:port alone is http; credentials are decoded", () => {
  deepStrictEqual(parseProxyUrl("proxy.corp:3128"), {
    transport: "http",
    url: "http://proxy.corp:3128",
    basicAuth: null,
  });
  deepStrictEqual(parseProxyUrl(" https://proxy.corp/ "), {
    transport: "https",
    url: "https://proxy.corp",
    basicAuth: null,
  });
  deepStrictEqual(parseProxyUrl("socks5://u:p@[::1]:1080"), {
    transport: "socks5",
    url: "socks5://[::1]:1080",
    basicAuth: { username: "u", password: "p" },
  });
  deepStrictEqual(server("http://me%40corp:p%3Ass@10.0.0.1:8080").basicAuth, {
    username: "me@corp",
    password: "p:ss",
  });
  for (
    const bad of ["ftp://proxy.corp", "http://", "http://proxy.corp:3128/x", "http://p?q=1", "::"]
  ) {
    equal("error" in parseProxyUrl(bad), true, bad);
  }
});

Deno.test("NO_PROXY: names, addresses, CIDRs and ports, comma or space separated; what cannot be read is named", () => {
  deepStrictEqual(parseNoProxy("Example.COM, .corp.example *.dev.example localhost:8080").entries, [
    { kind: "name", name: "example.com", port: null },
    { kind: "name", name: "corp.example", port: null },
    { kind: "name", name: "dev.example", port: null },
    { kind: "name", name: "localhost", port: 8080 },
  ]);
  const { entries, bad } = parseNoProxy("*,10.0.0.0/8,[::1]:443,fd00::/8,bad_name!,1.2.3.4:99999");
  deepStrictEqual(entries.map((e) => e.kind), ["all", "range", "range", "range"]);
  deepStrictEqual(bad, ["bad_name!", "1.2.3.4:99999"]);
  deepStrictEqual(parseNoProxy(" , ").entries, []);
});

Deno.test("proxyFor: the scheme's proxy unless NO_PROXY names the host (and port), names never matching address entries", () => {
  const settings: ProxySettings = {
    http: server("http://plain-proxy:1"),
    https: server("http://tls-proxy:1"),
    noProxy: parseNoProxy("example.com, 10.0.0.0/8, [fd00::1], secure.test:443").entries,
  };
  const via = (url: string) => proxyFor(new URL(url), settings)?.url ?? "direct";
  equal(via("https://status.vendor.test/x"), "http://tls-proxy:1");
  equal(via("http://status.vendor.test/x"), "http://plain-proxy:1");
  equal(via("https://EXAMPLE.com./x"), "direct");
  equal(via("https://api.example.com/x"), "direct");
  equal(via("https://notexample.com/x"), "http://tls-proxy:1");
  equal(via("http://10.9.8.7:8080/x"), "direct");
  equal(via("http://[fd00::1]/x"), "direct");
  equal(via("http://11.0.0.1/x"), "http://plain-proxy:1");
  equal(via("https://secure.test/x"), "direct", "443 is https' default port");
  equal(via("http://secure.test/x"), "http://plain-proxy:1", "80 is not 443");
  equal(proxyFor(new URL("ftp://example.org"), settings), null);
  equal(proxyFor(new URL("https://x.test"), { ...settings, https: null }), null);
});
