/**
 * Outbound proxies as the usual environment variables name them (`HTTPS_PROXY`, `HTTP_PROXY`,
 * `ALL_PROXY`, `NO_PROXY`, either case, upper case first as Deno's `fetch` reads them): which
 * proxy, if any, a request to a URL goes through. Pure: config.ts parses the variables, the
 * pinned pool (ingest/pinned_client.ts) asks {@link proxyFor} for each request, and the `status`
 * CLI works out the route Deno's `fetch` takes.
 * @module
 */
import { checkedHost, inRange, type IpRange, parseIp, parseIpRange } from "./address.ts";

/** The variables naming the proxy of https URLs, in the order they count. */
const HTTPS_PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"] as const;
/** The variables naming the proxy of http URLs, in the order they count. */
const HTTP_PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] as const;
/** `NO_PROXY`'s two spellings, in the order they count. */
export const NO_PROXY_VARIABLES = ["NO_PROXY", "no_proxy"] as const;

/** The variables naming a proxy (either case). */
export const PROXY_URL_VARIABLES = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
] as const;

/** Every proxy variable: {@link PROXY_URL_VARIABLES} and `NO_PROXY` (either case). */
export const PROXY_VARIABLES = [...PROXY_URL_VARIABLES, ...NO_PROXY_VARIABLES] as const;

/** One of {@link PROXY_URL_VARIABLES}. */
export type ProxyUrlVariable = (typeof PROXY_URL_VARIABLES)[number];

/**
 * The variable that counts among `variables` (in order: {@link proxyVariablesOf},
 * {@link NO_PROXY_VARIABLES}): the first whose `valueOf` is set and not empty, or undefined.
 */
export function firstSet<N extends string, T>(
  variables: readonly N[],
  valueOf: (name: N) => T | undefined,
): { readonly name: N; readonly value: T } | undefined {
  for (const name of variables) {
    const value = valueOf(name);
    if (value !== undefined && value !== "") return { name, value };
  }
  return undefined;
}

/** The variables naming the proxy of `protocol`'s URLs (`http:` or `https:`), in order. */
export function proxyVariablesOf(protocol: string): readonly ProxyUrlVariable[] {
  return protocol === "https:" ? HTTPS_PROXY_VARIABLES : HTTP_PROXY_VARIABLES;
}

/** One proxy server. */
export interface ProxyServer {
  /** How to speak to it. */
  readonly transport: "http" | "https" | "socks5";
  /** Its URL without credentials, e.g. `http://proxy.corp:3128`. */
  readonly url: string;
  /** Credentials from the variable's URL (sent as `Proxy-Authorization`); never log them. */
  readonly basicAuth: { readonly username: string; readonly password: string } | null;
}

/** One `NO_PROXY` entry. */
export type NoProxyEntry =
  | { readonly kind: "all" }
  | { readonly kind: "name"; readonly name: string; readonly port: number | null }
  | { readonly kind: "range"; readonly range: IpRange; readonly port: number | null };

/** The proxies requests go through (none by default). */
export interface ProxySettings {
  /** For `http:` URLs (`HTTP_PROXY`, else `ALL_PROXY`), or null: direct. */
  readonly http: ProxyServer | null;
  /** For `https:` URLs (`HTTPS_PROXY`, else `ALL_PROXY`), or null: direct. */
  readonly https: ProxyServer | null;
  /** Hosts that never go through a proxy (`NO_PROXY`). */
  readonly noProxy: readonly NoProxyEntry[];
}

/** No proxy at all. */
export const NO_PROXIES: ProxySettings = Object.freeze({ http: null, https: null, noProxy: [] });

const TRANSPORTS: Record<string, ProxyServer["transport"]> = {
  "http:": "http",
  "https:": "https",
  "socks5:": "socks5",
  "socks5h:": "socks5",
};

/**
 * Parses a proxy variable's value: `http://[user:password@]host[:port]`, `https://…`,
 * `socks5://…`, `socks5h://…`, or `host:port` (read as http, as curl does). Returns a reason
 * (that never repeats the value, which may hold a password) when it is not one.
 */
export function parseProxyUrl(text: string): ProxyServer | { readonly error: string } {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { error: "expected a proxy URL like http://proxy.example.com:3128" };
  }
  const transport = TRANSPORTS[url.protocol];
  if (!transport) {
    return { error: "expected an http://, https://, socks5:// or socks5h:// proxy URL" };
  }
  if (url.hostname === "") return { error: "the proxy URL names no host" };
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
    return { error: "a proxy URL is a scheme, a host and a port, with no path or query" };
  }
  const basicAuth = url.username !== "" || url.password !== ""
    ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
    : null;
  return { transport, url: `${url.protocol}//${url.host}`, basicAuth };
}

/**
 * Parses `NO_PROXY`: a comma (or space) list of host names (each also covers the names under
 * it; a leading `.` or `*.` is the same), IP addresses and CIDR ranges (matching IP-literal
 * URLs only: names are not resolved for this), each optionally with `:port`; `*` alone: every
 * host. Returns the entries it cannot read in `bad`.
 */
export function parseNoProxy(
  text: string,
): { readonly entries: readonly NoProxyEntry[]; readonly bad: readonly string[] } {
  const entries: NoProxyEntry[] = [];
  const bad: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    const item = raw.trim().toLowerCase();
    if (item === "") continue;
    if (item === "*") {
      entries.push({ kind: "all" });
      continue;
    }
    const entry = noProxyEntry(item);
    if (entry) entries.push(entry);
    else bad.push(raw.trim());
  }
  return { entries, bad };
}

function noProxyEntry(item: string): NoProxyEntry | null {
  // `[::1]:8080`, `10.0.0.0/8`, `::1`, `host:8080`, `.example.com`.
  let host = item;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(item);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] === undefined ? null : Number(bracketed[2]);
  } else if ((item.match(/:/g) ?? []).length === 1) {
    const [h, p] = item.split(":");
    if (!/^\d{1,5}$/.test(p!)) return null;
    host = h!;
    port = Number(p);
  }
  if (port !== null && port > 65535) return null;
  const range = parseIpRange(host);
  if (range) return { kind: "range", range, port };
  const name = host.replace(/^\*?\./, "").replace(/\.$/, "");
  if (!/^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/.test(name)) return null;
  return { kind: "name", name, port };
}

/** The port `url` connects to (its own, or its scheme's default). */
function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** The proxy a request to `url` goes through under `settings`, or null: straight to the host. */
export function proxyFor(url: URL, settings: ProxySettings): ProxyServer | null {
  const server = url.protocol === "https:"
    ? settings.https
    : url.protocol === "http:"
    ? settings.http
    : null;
  if (server === null) return null;
  const host = checkedHost(url);
  const port = portOf(url);
  const ip = parseIp(host);
  for (const entry of settings.noProxy) {
    if (entry.kind === "all") return null;
    if (entry.port !== null && entry.port !== port) continue;
    if (entry.kind === "range") {
      if (ip && inRange(ip, entry.range)) return null;
    } else if (!ip && (host === entry.name || host.endsWith(`.${entry.name}`))) {
      return null;
    }
  }
  return server;
}
