/**
 * How the `status` client reaches the API through the proxy variables Deno's `fetch` obeys
 * (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`, upper case first): an API on this
 * machine (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`) is always asked directly, since a
 * proxy's `localhost` is another machine; any other goes through the proxy they name, and an
 * error reaching it says so.
 * @module
 */
import { checkedHost, isLocalhostName, nonPublicKind, parseIp } from "../../lib/address.ts";
import {
  firstSet,
  NO_PROXY_VARIABLES,
  parseNoProxy,
  parseProxyUrl,
  proxyFor,
  proxyVariablesOf,
} from "../../lib/proxy.ts";

export { PROXY_VARIABLES } from "../../lib/proxy.ts";

/** The way to the API. */
export interface ApiRoute {
  /** The API is on this machine: asked directly whatever the variables say. */
  readonly loopback: boolean;
  /** The proxy (its URL without credentials) requests go through, or null. */
  readonly proxy: string | null;
  /** The variable that named it. */
  readonly variable: string | null;
}

/** True for `localhost`, `*.localhost` and loopback addresses (any form that carries one). */
function isLoopback(url: URL): boolean {
  const host = checkedHost(url);
  if (isLocalhostName(host)) return true;
  const ip = parseIp(host);
  return ip !== null && nonPublicKind(ip) === "loopback";
}

/** The route to `apiUrl` under `env`. */
export function apiRoute(
  apiUrl: string,
  env: Readonly<Record<string, string | undefined>>,
): ApiRoute {
  const url = new URL(apiUrl);
  if (isLoopback(url)) return { loopback: true, proxy: null, variable: null };
  const named = firstSet(proxyVariablesOf(url.protocol), (name) => env[name]);
  const server = named === undefined ? null : parseProxyUrl(named.value);
  if (server === null || "error" in server) return { loopback: false, proxy: null, variable: null };
  const noProxy = parseNoProxy(firstSet(NO_PROXY_VARIABLES, (name) => env[name])?.value ?? "");
  // The proxy named for this URL's scheme, unless NO_PROXY sends it direct.
  const via = proxyFor(url, { http: server, https: server, noProxy: noProxy.entries });
  return via === null
    ? { loopback: false, proxy: null, variable: null }
    : { loopback: false, proxy: via.url, variable: named!.name };
}
