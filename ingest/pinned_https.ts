/**
 * One https request of a pinned pool, through `node:https` to the checked address with the
 * URL's host name as the TLS server name, its answer as a `Response` (body decoded, bounded
 * headers); and the book of which sockets carry a request, so a finished poll closes its own.
 * @module
 */
import https from "node:https";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { checkedHost } from "../lib/mod.ts";

/** One request sent through a pool. */
export interface PinnedRequest {
  /** GET by default. */
  readonly method?: string;
  /** Request headers (without `Host`: the pool sets it from the URL). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** The encodings asked for over https, as `fetch` asks for them over http. */
const ACCEPT_ENCODING = "gzip, br";

/** Largest response head accepted over https (bytes); Node's default is 16 KiB. */
const MAX_HEADER_BYTES = 64 * 1024;

/** Statuses whose answer has no body (Fetch standard "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** One https request through `agent` to `address`, its answer as a `Response`. */
export function httpsRequest(
  url: URL,
  address: string,
  request: PinnedRequest,
  agent: https.Agent,
  sockets: SocketBook,
): Promise<Response> {
  const signal = request.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string> = { "accept-encoding": ACCEPT_ENCODING };
    for (const [name, value] of request.headers) headers[name.toLowerCase()] = value;
    headers.host = url.host;
    const req = https.request({
      host: address,
      port: Number(url.port || 443),
      path: `${url.pathname}${url.search}`,
      method: request.method ?? "GET",
      headers,
      // SNI carries no final dot (RFC 6066 §3).
      servername: checkedHost(url),
      agent,
      maxHeaderSize: MAX_HEADER_BYTES,
    });
    const onAbort = () => {
      const reason = signal!.reason instanceof Error ? signal!.reason : new Error("aborted");
      req.destroy(reason);
      reject(reason);
    };
    let socket: Socket | null = null;
    req.once("socket", (s: Socket) => {
      socket = s;
      sockets.use(url.host, s);
    });
    /** The request is over (its body read, failed or dropped): no abort to hear, socket idle. */
    const finished = () => {
      signal?.removeEventListener("abort", onAbort);
      if (socket) sockets.done(socket);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // `on`, not `once`: an 'error' emitted with no listener left would throw out of the event loop.
    req.on("error", (err) => {
      finished();
      reject(new TypeError("fetch failed", { cause: err }));
    });
    req.once("response", (res: IncomingMessage) => {
      // The body stream hears of errors through its own listener; this one only keeps a late
      // error (a body nobody reads, a reset after the end) from going unhandled.
      res.on("error", () => {});
      try {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) throw new Error(`invalid HTTP status ${status}`);
        const answer = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) answer.append(raw[i]!, raw[i + 1]!);
        const empty = NULL_BODY.has(status) || req.method === "HEAD";
        if (empty) {
          res.resume();
          finished();
        }
        resolve(
          new Response(empty ? null : bodyOf(res, finished), {
            status,
            statusText: res.statusMessage ?? "",
            headers: answer,
          }),
        );
      } catch (err) {
        finished();
        res.destroy();
        reject(new TypeError("fetch failed", { cause: err }));
      }
    });
    req.end(request.body);
  });
}

/** The https sockets of each host, and which of them carry a request. */
export interface SocketBook {
  /** `socket` carries a request to `host` now. */
  use(host: string, socket: Socket): void;
  /** `socket`'s request is over. */
  done(socket: Socket): void;
  /** Destroys the sockets of `host` that carry no request. */
  closeIdle(host: string): void;
}

export function createSocketBook(): SocketBook {
  const byHost = new Map<string, Set<Socket>>();
  const busy = new WeakSet<Socket>();
  return {
    use(host, socket) {
      busy.add(socket);
      let set = byHost.get(host);
      if (!set) byHost.set(host, set = new Set());
      if (set.has(socket)) return;
      const own = set;
      own.add(socket);
      socket.once("close", () => {
        own.delete(socket);
        if (own.size === 0 && byHost.get(host) === own) byHost.delete(host);
      });
    },
    done(socket) {
      busy.delete(socket);
    },
    closeIdle(host) {
      for (const socket of byHost.get(host) ?? []) if (!busy.has(socket)) socket.destroy();
    },
  };
}

/**
 * The body of `res` as a byte stream, decompressed when it came gzip or br encoded (as `fetch`
 * does), read no faster than it is consumed; `done` runs once it ends, fails or is cancelled.
 */
export function bodyOf(res: IncomingMessage, done: () => void): ReadableStream<Uint8Array> {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder = encoding === "gzip" || encoding === "x-gzip"
    ? zlib.createGunzip()
    : encoding === "br"
    ? zlib.createBrotliDecompress()
    : null;
  let source: Readable = res;
  if (decoder) {
    res.on("error", (err) => decoder.destroy(err));
    source = res.pipe(decoder);
  }
  let settled = false;
  const finish = () => {
    if (settled) return false;
    settled = true;
    done();
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      source.on("data", (chunk: Uint8Array) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.once("end", () => {
        if (finish()) controller.close();
      });
      source.on("error", (err) => {
        if (finish()) controller.error(err);
      });
      // A connection dropped before the end of the body (a `close` without an `end`).
      res.once("close", () => {
        if (!res.complete && finish()) {
          controller.error(new Error("the connection closed before the body ended"));
        }
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      finish();
      res.destroy();
      decoder?.destroy();
    },
  });
}
