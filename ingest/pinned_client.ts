/**
 * Connections pinned to checked addresses, shared by many fetches. The address the
 * private-address guard approved is the address connected to: no second DNS lookup a
 * rebinding name could answer differently. Deno 2.9's `Deno.createHttpClient` offers no
 * resolver hook, so:
 * - `http:` requests go to the checked address itself (`http://<address>:<port>/…`) with the
 *   vendor's `Host` header, through one `fetch` client that allows setting `Host`. Nothing is
 *   resolved, and idle connections are reused per address and port.
 * - `https:` requests go through `node:https` (Deno's implementation of Node's client) to the
 *   checked address, with the URL's host name as the TLS server name: the certificate is
 *   verified against that name, nothing is resolved, and one keep-alive agent per pool reuses
 *   connections per address, port and name.
 *
 * - A request the self-hoster's proxy settings (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, read by
 *   config.ts) send through a proxy goes there by name, through a `fetch` client of that proxy:
 *   the address check has passed on the names it resolves here, and the proxy connects.
 *
 * Deno's `fetch` clients read the proxy variables themselves when they are made; the direct
 * client is made with them hidden, so a host `NO_PROXY` excludes, or an address the pool pins,
 * is never sent to a proxy behind statusd's back.
 *
 * `https:` used to go through a loopback CONNECT proxy (the `proxy` option of a `fetch`
 * client): more CPU and latency per request, because the client's socket to the proxy delays
 * small writes (Nagle against delayed ACKs), and Deno's proxy connector looked the vendor's name
 * up with the system resolver on every request, the lookup the poller's DNS cache exists to
 * avoid. The measurements are in bench/README.md, the choice in docs/decisions.md.
 * @module
 */
import { lookup } from "node:dns/promises";
import https from "node:https";
import { createSocketBook, httpsRequest, type PinnedRequest } from "./pinned_https.ts";

export type { PinnedRequest };
import {
  type AddressAllowance,
  formatIp,
  type IpAddress,
  isAddressAllowed,
  isLocalhostName,
  NO_PROXIES,
  nonPublicKind,
  parseIp,
  PROXY_VARIABLES,
  proxyFor,
  type ProxyServer,
  type ProxySettings,
} from "../lib/mod.ts";

/** Pinned connections shared by the fetches of one owner (a poller, a sender); `close()` when done. */
export interface PinnedPool {
  /**
   * Sends `request` for `url` to `address`, the IP literal the guard checked for the URL's host
   * name (null when the URL's host is itself an address: it goes out as `fetch` sends it), or,
   * when the pool's proxy settings send `url` through a proxy, to that proxy by name; and
   * resolves with the answer as a `fetch` would: redirects are not followed, the body is
   * decompressed (gzip, br) and streamed. Rejects when no answer came (the connection failed,
   * the certificate did not verify, the signal aborted).
   */
  fetch(url: URL, address: string | null, request: PinnedRequest): Promise<Response>;
  /**
   * Closes the idle https connections to `host` (a URL's `host`, port included) now instead of
   * after the idle time: its owner is done with it (the poller, when a vendor's poll is over).
   * Connections carrying a request are left alone.
   */
  release(host: string): void;
  /** The URL (no credentials) of the proxy a request to `url` would go through, or null. */
  proxyOf(url: URL): string | null;
  /** Closes every connection (again: nothing). */
  close(): void;
}

/** Options of {@link createPinnedPool}. */
export interface PinnedPoolOptions {
  /** Extra root certificates (PEM) trusted for https (tests). */
  readonly caCerts?: readonly string[];
  /** Idle connections are closed after this long (ms); 5 s by default. */
  readonly idleMs?: number;
  /** The proxies requests go through (none by default). */
  readonly proxy?: ProxySettings;
}

/** Idle connections kept per host and port. */
const IDLE_PER_HOST = 2;

/** A new pool; nothing is opened until the first request needs it. */
export function createPinnedPool(options: PinnedPoolOptions = {}): PinnedPool {
  const caCerts = options.caCerts ? [...options.caCerts] : undefined;
  const idleMs = options.idleMs ?? 5_000;
  const proxy = options.proxy ?? NO_PROXIES;
  let plain: Deno.HttpClient | null = null;
  let literal: Deno.HttpClient | null = null;
  /** A `fetch` client per proxy server (the settings' objects, so `http` and `https` may share). */
  const proxied = new Map<ProxyServer, Deno.HttpClient>();
  let agent: https.Agent | null = null;
  let closed = false;
  const sockets = createSocketBook();
  /**
   * URLs whose host is an address go out through `fetch`'s own client, pooled as it pools (a
   * burst of alert deliveries to one receiver keeps its connections), unless the environment
   * holds proxy variables that client would obey: then through one like it made without them.
   * (A client of its own costs 4-5 MB the first time; the global one is there anyway.)
   */
  const globalObeysProxy = proxyVariablesSet();
  const literalClient = () =>
    literal ??= withoutProxyVariables(() => Deno.createHttpClient(caCerts ? { caCerts } : {}));
  /** The `fetch` client of pinned http requests (made on first use). */
  const pinnedClient = () =>
    plain ??= withoutProxyVariables(() =>
      Deno.createHttpClient({
        ...(caCerts ? { caCerts } : {}),
        poolIdleTimeout: idleMs,
        poolMaxIdlePerHost: IDLE_PER_HOST,
        allowHost: true,
      })
    );
  return {
    fetch(url, address, request) {
      if (closed) return Promise.reject(new Error("Cannot fetch: the pinned pool is closed"));
      const headers = request.headers as [string, string][];
      const init: RequestInit = {
        method: request.method ?? "GET",
        headers,
        body: request.body,
        redirect: "manual",
        signal: request.signal,
      };
      const server = proxyFor(url, proxy);
      if (server !== null) {
        let client = proxied.get(server);
        if (!client) proxied.set(server, client = proxyClient(server, caCerts, idleMs));
        return fetch(url, { ...init, client });
      }
      if (address === null) {
        return globalObeysProxy
          ? fetch(url, { ...init, client: literalClient() })
          : fetch(url, init);
      }
      if (url.protocol === "http:") {
        const target = new URL(url);
        target.hostname = address.includes(":") ? `[${address}]` : address;
        return fetch(target, {
          ...init,
          headers: [...headers, ["host", url.host]],
          client: pinnedClient(),
        });
      }
      agent ??= new https.Agent({
        keepAlive: true,
        maxFreeSockets: IDLE_PER_HOST,
        // Node's agent closes a socket idle this long; a socket in use is not affected.
        timeout: idleMs,
        ...(caCerts ? { ca: caCerts } : {}),
      });
      return httpsRequest(url, address, request, agent, sockets);
    },
    release(host) {
      sockets.closeIdle(host);
    },
    proxyOf(url) {
      return proxyFor(url, proxy)?.url ?? null;
    },
    close() {
      if (closed) return;
      closed = true;
      plain?.close();
      literal?.close();
      for (const client of proxied.values()) client.close();
      agent?.destroy();
    },
  };
}

/** True when a proxy variable is set (or the environment cannot be read: assume so). */
function proxyVariablesSet(): boolean {
  try {
    return PROXY_VARIABLES.some((name) => (Deno.env.get(name) ?? "") !== "");
  } catch {
    return true;
  }
}

/**
 * Runs `make` (which creates a `fetch` client) with the proxy variables hidden from the
 * process environment, and puts them back: the client then connects where it is told. Without
 * permission to the environment, `make` runs as is.
 */
function withoutProxyVariables<T>(make: () => T): T {
  const hidden: [string, string][] = [];
  try {
    for (const name of PROXY_VARIABLES) {
      const value = Deno.env.get(name);
      if (value === undefined) continue;
      hidden.push([name, value]);
      Deno.env.delete(name);
    }
  } catch {
    // No permission to read or change the environment: nothing hidden.
  }
  try {
    return make();
  } finally {
    for (const [name, value] of hidden) Deno.env.set(name, value);
  }
}

/** A `fetch` client whose requests all go through `server`. */
function proxyClient(
  server: ProxyServer,
  caCerts: string[] | undefined,
  idleMs: number,
): Deno.HttpClient {
  return Deno.createHttpClient({
    proxy: {
      transport: server.transport,
      url: server.url,
      ...(server.basicAuth ? { basicAuth: server.basicAuth } : {}),
    },
    ...(caCerts ? { caCerts } : {}),
    poolIdleTimeout: idleMs,
    poolMaxIdlePerHost: IDLE_PER_HOST,
  });
}

/** Looks `hostname` up with the system resolver (getaddrinfo): every address, IPv4 and IPv6. */
export async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/**
 * Where a request to a host may connect: `address` to pin (null for an IP literal, which needs
 * no pin), or why not: `reason` says which address is not allowed, or that the name does not
 * resolve (`unresolved`).
 */
export type PinCheck =
  | { readonly allowed: true; readonly address: string | null }
  | { readonly allowed: false; readonly unresolved: boolean; readonly reason: string };

/** RFC 6761: `localhost` and names under it are loopback, whatever a resolver says. */
const LOOPBACK_NAMES = ["127.0.0.1", "::1"];

/**
 * Checks `host` (as {@link checkedHost} gives it) against `allowance`, for vendor fetches and
 * alert deliveries alike. An IP literal (URL parsing has already normalised forms such as
 * `2130706433` or `0x7f.1` to dotted quads) must be allowed. A name is resolved once: every
 * answer must be allowed, and the address to connect to is the first IPv4 one, else the first.
 * `localhost` names are loopback only.
 */
export async function checkPin(
  host: string,
  allowance: AddressAllowance,
  resolve: (host: string) => Promise<readonly string[]> = systemResolve,
): Promise<PinCheck> {
  const literal = parseIp(host);
  if (literal) {
    return isAddressAllowed(literal, allowance)
      ? { allowed: true, address: null }
      : notAllowed(host, literal);
  }
  if (isLocalhostName(host)) {
    const ip = LOOPBACK_NAMES.map((a) => parseIp(a)!).find((a) => isAddressAllowed(a, allowance));
    return ip
      ? { allowed: true, address: formatIp(ip) }
      : notAllowed(host, parseIp(LOOPBACK_NAMES[0]!)!);
  }
  let answers: readonly string[];
  try {
    answers = await resolve(host);
  } catch {
    answers = [];
  }
  const addresses = answers.map(parseIp).filter((a): a is IpAddress => a !== null);
  if (addresses.length === 0) {
    return { allowed: false, unresolved: true, reason: `${host} does not resolve` };
  }
  const bad = addresses.find((a) => !isAddressAllowed(a, allowance));
  if (bad) return notAllowed(host, bad);
  return {
    allowed: true,
    address: formatIp(addresses.find((a) => a.version === 4) ?? addresses[0]!),
  };
}

/** The refusal of `host` because it is, or resolves to, `ip`, which is not allowed. */
function notAllowed(host: string, ip: IpAddress): PinCheck {
  const address = formatIp(ip);
  const where = address === host ? address : `${host} resolves to ${address}, which`;
  return {
    allowed: false,
    unresolved: false,
    reason: `${where} is not a public address (${nonPublicKind(ip)}) and is not allowed`,
  };
}
