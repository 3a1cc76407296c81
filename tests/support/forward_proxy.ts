/**
 * A forward proxy on loopback, as a corporate network has one: plain requests in absolute form
 * (`GET http://host:port/path`) are relayed to the host, `CONNECT host:port` opens a tunnel. It
 * records each request line and `Proxy-Authorization` header it gets, connects wherever
 * `addressOf` says a name is (the tests' names do not resolve), and can require credentials
 * (answering 407 without them).
 */

/** A running proxy. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Request lines received, e.g. `CONNECT vendor.invalid:443`, `GET http://…/x` (no version). */
  readonly requests: string[];
  /** The `Proxy-Authorization` header of each request (null when absent). */
  readonly authorizations: (string | null)[];
  close(): Promise<void>;
}

/** Options of {@link startForwardProxy}. */
export interface ForwardProxyOptions {
  /** Where a host name is (127.0.0.1 by default). */
  readonly addressOf?: (host: string) => string;
  /** The `Proxy-Authorization` value required, e.g. `Basic dXNlcjpwYXNz`; none by default. */
  readonly requireAuthorization?: string;
}

const HEAD_MAX = 16 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Starts a proxy on 127.0.0.1 (a free port). */
export function startForwardProxy(options: ForwardProxyOptions = {}): ForwardProxy {
  const addressOf = options.addressOf ?? (() => "127.0.0.1");
  const requests: string[] = [];
  const authorizations: (string | null)[] = [];

  async function serve(client: Deno.Conn): Promise<void> {
    const read = await readHead(client);
    if (!read) return;
    const { head, rest } = read;
    const [requestLine, ...headerLines] = head.split("\r\n");
    const [method, target] = requestLine!.split(" ");
    requests.push(`${method} ${target}`);
    const auth = headerLines.find((l) => /^proxy-authorization:/i.test(l));
    const authorization = auth ? auth.slice(auth.indexOf(":") + 1).trim() : null;
    authorizations.push(authorization);
    if (
      options.requireAuthorization !== undefined &&
      authorization !== options.requireAuthorization
    ) {
      await client.write(encoder.encode(
        'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="test"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
      ));
      return;
    }
    if (method === "CONNECT") {
      const [host, port] = splitHostPort(target!);
      const upstream = await Deno.connect({ hostname: addressOf(host), port });
      await client.write(encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
      if (rest.length > 0) await upstream.write(rest);
      await relay(client, upstream);
      return;
    }
    const url = new URL(target!);
    const upstream = await Deno.connect({
      hostname: addressOf(url.hostname),
      port: Number(url.port || 80),
    });
    const kept = headerLines.filter((l) =>
      l !== "" && !/^(proxy-authorization|proxy-connection|connection):/i.test(l)
    );
    const forwarded =
      [`${method} ${url.pathname}${url.search} HTTP/1.1`, ...kept, "connection: close"]
        .join("\r\n") + "\r\n\r\n";
    await upstream.write(encoder.encode(forwarded));
    if (rest.length > 0) await upstream.write(rest);
    await upstream.readable.pipeTo(client.writable).catch(() => {});
  }

  const server = serveConnections(serve);
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    authorizations,
    close: server.close,
  };
}

/**
 * Accepts connections on 127.0.0.1 (a free port) and hands each to `serve`, closing it when
 * `serve` is done or fails; `close()` stops listening and closes what is still open.
 */
function serveConnections(serve: (conn: Deno.Conn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const closeQuietly = (conn: Deno.Conn) => {
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  const serving = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      serve(conn).catch(() => {}).finally(() => {
        open.delete(conn);
        closeQuietly(conn);
      });
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const conn of open) closeQuietly(conn);
      await serving.catch(() => {});
    },
  };
}

/** Copies each side's bytes to the other until both are done. */
async function relay(a: Deno.Conn, b: Deno.Conn): Promise<void> {
  await Promise.all([
    a.readable.pipeTo(b.writable).catch(() => {}),
    b.readable.pipeTo(a.writable).catch(() => {}),
  ]);
}

/** Reads a request head (through the blank line); null when the peer closed first. */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array } | null> {
  let buffered = new Uint8Array(0);
  const chunk = new Uint8Array(4096);
  while (buffered.length < HEAD_MAX) {
    const n = await conn.read(chunk);
    if (n === null) return null;
    const joined = new Uint8Array(buffered.length + n);
    joined.set(buffered);
    joined.set(chunk.subarray(0, n), buffered.length);
    buffered = joined;
    const text = decoder.decode(buffered);
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const headBytes = encoder.encode(text.slice(0, end + 4)).length;
      return { head: text.slice(0, end), rest: buffered.subarray(headBytes) };
    }
  }
  return null;
}

/** `host:port` or `[v6]:port` → host (no brackets) and port. */
function splitHostPort(target: string): [string, number] {
  const at = target.lastIndexOf(":");
  return [target.slice(0, at).replace(/^\[|\]$/g, ""), Number(target.slice(at + 1))];
}

/**
 * A SOCKS5 proxy on loopback (RFC 1928, no authentication, CONNECT only): records each target
 * as `name:port` or `address:port` and connects it where `addressOf` says.
 */
export function startSocksProxy(options: Pick<ForwardProxyOptions, "addressOf"> = {}) {
  const addressOf = options.addressOf ?? (() => "127.0.0.1");
  const requests: string[] = [];
  const exactly = async (conn: Deno.Conn, n: number) => {
    const out = new Uint8Array(n);
    for (let got = 0; got < n;) {
      const read = await conn.read(out.subarray(got));
      if (read === null) throw new Error("closed");
      got += read;
    }
    return out;
  };
  const serve = async (client: Deno.Conn) => {
    const [, methods] = await exactly(client, 2);
    await exactly(client, methods!);
    await client.write(new Uint8Array([5, 0]));
    const [, command, , type] = await exactly(client, 4);
    let host: string;
    if (type === 3) host = decoder.decode(await exactly(client, (await exactly(client, 1))[0]!));
    else if (type === 1) host = [...await exactly(client, 4)].join(".");
    else throw new Error(`address type ${type} not served`);
    const portBytes = await exactly(client, 2);
    const port = (portBytes[0]! << 8) | portBytes[1]!;
    requests.push(`${host}:${port}`);
    if (command !== 1) throw new Error("only CONNECT");
    const upstream = await Deno.connect({ hostname: addressOf(host), port });
    await client.write(new Uint8Array([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
    await relay(client, upstream);
  };
  const server = serveConnections(serve);
  return {
    /** `socks5://127.0.0.1:<port>`. */
    url: `socks5://127.0.0.1:${server.port}`,
    requests,
    close: server.close,
  };
}
