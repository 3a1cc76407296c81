/**
 * How the `status` client reaches the API through the proxy variables Deno's `fetch` obeys
 * (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`, upper case first): an API on this
 * machine (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`) is always asked directly, since a
 * proxy's `localhost` is another machine; any other goes through the proxy they name, and an
 * error reaching it says so.
 * @module
 */
import { parseIp } from "../../domain/address.ts";
import { parseNoProxy, parseProxyUrl, proxyFor, type ProxySettings } from "../../domain/proxy.ts";

export { PROXY_VARIABLES } from "../../domain/proxy.ts";

/** The way to the API. */
export interface ApiRoute {
  /** The API is on this machine: asked directly whatever the variables say. */
  readonly loopback: boolean;
  /** The proxy (its URL without credentials) requests go through, or null. */
  readonly proxy: string | null;
  /** The variable that named it. */
  readonly variable: string | null;
}

/** True for `localhost`, `*.localhost`, loopback IPv4 and `::1`. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  const ip = parseIp(h);
  if (!ip) return false;
  return ip.version === 4
    ? ip.bytes[0] === 127
    : ip.bytes.every((b, i) => b === (i === 15 ? 1 : 0));
}

/** The route to `apiUrl` under `env`. */
export function apiRoute(
  apiUrl: string,
  env: Readonly<Record<string, string | undefined>>,
): ApiRoute {
  const url = new URL(apiUrl);
  if (isLoopback(url.hostname)) return { loopback: true, proxy: null, variable: null };
  const first = (...names: string[]) => names.find((n) => env[n]) ?? null;
  const variable = url.protocol === "https:"
    ? first("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")
    : first("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy");
  const server = variable === null ? null : parseProxyUrl(env[variable]!);
  if (server === null || "error" in server) return { loopback: false, proxy: null, variable: null };
  const noProxy = env.NO_PROXY || env.no_proxy || "";
  const settings: ProxySettings = {
    http: server,
    https: server,
    noProxy: parseNoProxy(noProxy).entries,
  };
  const via = proxyFor(url, settings);
  return via === null
    ? { loopback: false, proxy: null, variable: null }
    : { loopback: false, proxy: via.url, variable };
}
