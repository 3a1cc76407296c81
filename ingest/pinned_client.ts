/**
 * Connections pinned to checked addresses, shared by many fetches (issue #15). The address the
 * private-address guard approved is the address connected to: no second DNS lookup a
 * rebinding name could answer differently. Deno 2.9's `Deno.createHttpClient` offers no
 * resolver hook, so:
 * - `http:` requests go to the checked address itself (`http://<address>:<port>/…`) with the
 *   vendor's `Host` header, through one client that allows setting `Host`. Nothing is resolved,
 *   and idle connections are reused per address and port.
 * - `https:` requests go through one loopback CONNECT proxy per pool: before each fetch the
 *   guard registers the checked address for the URL's host and port ({@link PinnedPool.pin}),
 *   and the proxy connects a tunnel only to an address registered for the host the CONNECT line
 *   names, refusing any other. TLS runs end to end through the tunnel and still verifies the
 *   URL's host name; one client per pool keeps connections and TLS sessions for reuse.
 *
 * A pool (one per poller) replaces the client and loopback listener each fetch used to open
 * and close: that cost 6× the CPU of a plain keep-alive fetch over http, a TLS handshake per
 * fetch over https, and a second system lookup of the name inside the `tcp` proxy transport
 * (5 s stalls for names the system resolver cannot answer quickly). See docs/architecture.md.
 * @module
 */

/** How a request for a URL is sent: with which client, to which URL, with which Host. */
export interface PinnedRoute {
  readonly client: Deno.HttpClient;
  /** The URL to pass to fetch (for http, the checked address in place of the name). */
  readonly target: URL;
  /** The Host header to send (http), or undefined. */
  readonly host?: string;
}

/** Pinned connections shared by the fetches of one owner (a poller); `close()` when done. */
export interface PinnedPool {
  /** The route for a request to `url` (a name) pinned to `address` (an IP literal it checked). */
  route(url: URL, address: string): PinnedRoute;
  /** Closes the clients, the proxy and every open tunnel. */
  close(): void;
}

/** Options of {@link createPinnedPool}. */
export interface PinnedPoolOptions {
  /** Extra root certificates (PEM) trusted for https (tests). */
  readonly caCerts?: readonly string[];
  /** Idle connections are closed after this long (ms); 5 s by default. */
  readonly idleMs?: number;
}

/** How long a registered pin stays usable for new tunnels after the fetch that made it (ms). */
export const PIN_TTL_MS = 60_000;
/** Idle connections kept per host and port. */
const IDLE_PER_HOST = 2;
const CONNECT_TIMEOUT_MS = 10_000;
const HEAD_LIMIT = 8192;
const END_OF_HEAD = new TextEncoder().encode("\r\n\r\n");

/** A new pool; nothing is opened until the first request needs it. */
export function createPinnedPool(options: PinnedPoolOptions = {}): PinnedPool {
  const caCerts = options.caCerts ? { caCerts: [...options.caCerts] } : {};
  const pool = {
    poolIdleTimeout: options.idleMs ?? 5_000,
    poolMaxIdlePerHost: IDLE_PER_HOST,
  };
  let plain: Deno.HttpClient | null = null;
  let secure: Deno.HttpClient | null = null;
  let proxy: PinningProxy | null = null;
  let closed = false;
  return {
    route(url, address) {
      if (closed) throw new Error("Cannot route a request: the pinned pool is closed");
      const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
      if (url.protocol === "http:") {
        plain ??= Deno.createHttpClient({ ...caCerts, ...pool, allowHost: true });
        const target = new URL(url);
        target.hostname = address.includes(":") ? `[${address}]` : address;
        return { client: plain, target, host: url.host };
      }
      proxy ??= openPinningProxy();
      proxy.pin(`${url.hostname}:${port}`, address, port);
      secure ??= Deno.createHttpClient({
        ...caCerts,
        ...pool,
        proxy: { url: `http://127.0.0.1:${proxy.port}` },
      });
      return { client: secure, target: url };
    },
    close() {
      closed = true;
      plain?.close();
      secure?.close();
      proxy?.close();
    },
  };
}

interface PinningProxy {
  readonly port: number;
  /** Lets tunnels to `authority` (host:port as a CONNECT line names it) reach `address`. */
  pin(authority: string, address: string, port: number): void;
  close(): void;
}

/**
 * A loopback listener that answers `CONNECT host:port` by connecting to the address pinned for
 * exactly that authority (never to what the name resolves to), then relays bytes both ways.
 * A CONNECT for an authority with no live pin is answered 403 and closed.
 */
function openPinningProxy(): PinningProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const pins = new Map<string, { address: string; port: number; until: number }>();
  const open = new Set<Deno.Conn>();
  let closed = false;
  const lookup = (authority: string) => {
    const pin = pins.get(authority.toLowerCase());
    return pin && pin.until >= performance.now() ? pin : null;
  };
  const serve = async (inbound: Deno.Conn) => {
    open.add(inbound);
    let outbound: Deno.Conn | null = null;
    try {
      const head = await readHead(inbound);
      const authority = /^CONNECT (\S+) HTTP\/1\.[01]\r\n/.exec(head)?.[1];
      const pin = authority ? lookup(authority) : null;
      if (!pin) {
        await inbound.write(new TextEncoder().encode("HTTP/1.1 403 Forbidden\r\n\r\n"));
        return;
      }
      outbound = await Deno.connect({
        hostname: pin.address,
        port: pin.port,
        signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
      });
      open.add(outbound);
      await inbound.write(new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
      await Promise.allSettled([
        inbound.readable.pipeTo(outbound.writable),
        outbound.readable.pipeTo(inbound.writable),
      ]);
    } catch {
      // A refused or dropped tunnel fails the fetch that asked for it.
    } finally {
      for (const c of [inbound, outbound]) {
        if (!c) continue;
        open.delete(c);
        try {
          c.close();
        } catch {
          // Already closed by a pipe.
        }
      }
    }
  };
  (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch {
      // The listener was closed.
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    pin(authority, address, port) {
      const now = performance.now();
      if (pins.size > 10_000) {
        for (const [key, pin] of pins) if (pin.until < now) pins.delete(key);
      }
      pins.set(authority.toLowerCase(), { address, port, until: now + PIN_TTL_MS });
    },
    close() {
      if (closed) return;
      closed = true;
      pins.clear();
      for (const c of [listener, ...open]) {
        try {
          c.close();
        } catch {
          // Already closed.
        }
      }
      open.clear();
    },
  };
}

/** Reads up to the blank line that ends a request head (the client sends nothing more first). */
async function readHead(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(HEAD_LIMIT);
  let size = 0;
  while (size < HEAD_LIMIT) {
    const n = await conn.read(buf.subarray(size));
    if (n === null) break;
    size += n;
    if (endsWith(buf.subarray(0, size), END_OF_HEAD)) {
      return new TextDecoder().decode(buf.subarray(0, size));
    }
  }
  throw new Error("incomplete CONNECT request");
}

function endsWith(bytes: Uint8Array, tail: Uint8Array): boolean {
  if (bytes.length < tail.length) return false;
  return tail.every((b, i) => bytes[bytes.length - tail.length + i] === b);
}
