/**
 * Fetch clients pinned to one checked address, so the address the private-address guard
 * approved is the address connected to (no second DNS lookup a rebinding name could answer
 * differently). Deno 2.9's `Deno.createHttpClient` offers no resolver hook; it offers proxies:
 * - `http:` uses the `tcp` proxy transport, which sends the request over a TCP connection to
 *   the given host and port (the Host header and request line stay the vendor's);
 * - `https:` cannot use that transport (it does not wrap TLS: the request goes out in clear),
 *   so it uses an HTTP proxy that is a one-connection CONNECT tunnel on loopback opened for
 *   this request: whatever the CONNECT line names, the tunnel connects to the pinned address
 *   and port. TLS runs end to end through it and still verifies the URL's host name.
 * @module
 */

/** A fetch client for one request; `close()` once the body is read or abandoned. */
export interface PinnedClient {
  readonly client: Deno.HttpClient;
  close(): void;
}

/** Options of {@link pinnedClient}. */
export interface PinOptions {
  /** Aborts a tunnel's upstream connection (the request's own deadline). */
  readonly signal: AbortSignal;
  /** Extra root certificates (PEM) trusted for https (tests). */
  readonly caCerts?: readonly string[];
}

/** A client whose connections for `url` go to `address` (an IP literal) and url's port. */
export function pinnedClient(url: URL, address: string, options: PinOptions): PinnedClient {
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const caCerts = options.caCerts ? { caCerts: [...options.caCerts] } : {};
  if (url.protocol === "http:") {
    const client = Deno.createHttpClient({
      ...caCerts,
      // An IPv6 address must be bracketed here (the transport builds a URI from it).
      proxy: { transport: "tcp", hostname: address.includes(":") ? `[${address}]` : address, port },
    });
    return { client, close: () => client.close() };
  }
  const tunnel = openTunnel(address, port, options.signal);
  const client = Deno.createHttpClient({
    ...caCerts,
    proxy: { url: `http://127.0.0.1:${tunnel.port}` },
  });
  return {
    client,
    close: () => {
      client.close();
      tunnel.close();
    },
  };
}

const HEAD_LIMIT = 8192;
const END_OF_HEAD = new TextEncoder().encode("\r\n\r\n");

/**
 * A loopback listener that accepts one connection, reads its CONNECT request, connects to
 * `address:port` (never to what the request names) and relays bytes both ways.
 */
function openTunnel(address: string, port: number, signal: AbortSignal) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open: Deno.Conn[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const c of [listener, ...open]) {
      try {
        c.close();
      } catch {
        // Already closed by the other side.
      }
    }
  };
  const relay = async () => {
    const inbound = await listener.accept();
    open.push(inbound);
    listener.close();
    const head = await readHead(inbound);
    if (!head.startsWith("CONNECT ")) throw new Error("not a CONNECT request");
    const outbound = await Deno.connect({ hostname: address, port, signal });
    open.push(outbound);
    await inbound.write(new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
    await Promise.allSettled([
      inbound.readable.pipeTo(outbound.writable),
      outbound.readable.pipeTo(inbound.writable),
    ]);
  };
  relay().catch(() => {}).finally(close);
  return { port: (listener.addr as Deno.NetAddr).port, close };
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
