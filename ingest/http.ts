/**
 * Polite HTTP GET for status documents: timeout, streamed size cap, manual redirects with a
 * limit, conditional requests, and the private-address guard: every hop's host must be a
 * public address (or one the self-hoster allowed), a name is resolved once and the connection
 * is pinned to the address checked. Never throws: every outcome is a value of
 * {@link FetchOutcome}.
 * @module
 */
import { type ReadingErrorKind } from "../domain/mod.ts";
import { type AddressAllowance, checkedHost, NO_PRIVATE_ADDRESSES } from "../lib/mod.ts";
import type { Resolve } from "./dns_cache.ts";
import { checkPin, createPinnedPool, type PinnedPool, systemResolve } from "./pinned_client.ts";

/** Why a fetch failed: the transport-level {@link ReadingErrorKind}s. */
export type FailureReason = Exclude<ReadingErrorKind, "bad_payload" | "parse_error">;

/** The result of one polite fetch. */
export type FetchOutcome =
  | {
    readonly kind: "ok";
    readonly body: string;
    readonly etag?: string;
    readonly lastModified?: string;
    readonly latencyMs: number;
    readonly status: number;
    /** The URL the body came from, after redirects. */
    readonly url: string;
    readonly headers: Headers;
    /** Size of the body as received (bytes). */
    readonly bytes: number;
  }
  | { readonly kind: "not_modified"; readonly latencyMs: number }
  | {
    readonly kind: "failed";
    readonly reason: FailureReason;
    readonly detail: string;
    readonly latencyMs: number;
    /** HTTP status when the server answered. */
    readonly status?: number;
    /**
     * How long the vendor asked statusd to wait before asking again (ms), from the
     * `Retry-After` of a 429 or 503 answer; absent when it did not say.
     */
    readonly retryAfterMs?: number;
  };

/** Options of {@link politeFetch}. */
export interface FetchOptions {
  /** Whole request, body included (ms). */
  readonly timeoutMs: number;
  /** Largest body accepted (bytes); the download stops beyond it. */
  readonly maxBytes?: number;
  /** Redirects followed before giving up. */
  readonly maxRedirects?: number;
  /** Sent as If-None-Match. */
  readonly etag?: string | null;
  /** Sent as If-Modified-Since. */
  readonly lastModified?: string | null;
  /**
   * Non-public addresses (loopback, private, link-local, CGNAT, multicast, reserved) this
   * fetch may reach; none by default. Checked on every redirect hop.
   */
  readonly allowPrivate?: AddressAllowance;
  /** Aborts the request early (poller shutdown). */
  readonly signal?: AbortSignal;
  /**
   * Resolves a host name to addresses; the system resolver (getaddrinfo) by default. The poller
   * passes its cache of lookups (ingest/dns_cache.ts).
   */
  readonly resolve?: Resolve;
  /**
   * Told the name of a hop whose connection failed (no answer, or none in time), so a cached
   * address for it is looked up again next time.
   */
  readonly forgetHost?: (hostname: string) => void;
  /** Extra root certificates (PEM) trusted for https (tests); used when no `pool` is given. */
  readonly caCerts?: readonly string[];
  /**
   * Pinned connections shared with other fetches (the poller's); without one, this fetch opens
   * its own and closes it when done.
   */
  readonly pool?: PinnedPool;
  /** The clock a `Retry-After` date is read against (epoch ms); `Date.now` by default. */
  readonly now?: () => number;
}

/** Default size cap: 5 MB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** Default redirect limit. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** The User-Agent statusd sends. */
export const USER_AGENT = "statusd/0.1 (status page reader)";

const BINARY_TYPES = /^(image|audio|video|font)\/|^application\/(octet-stream|zip|gzip|pdf|x-)/i;

class Failure extends Error {
  constructor(
    readonly reason: FailureReason,
    detail: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(detail);
  }
}

/** GETs `url` politely; see the module doc. */
export async function politeFetch(url: URL | string, options: FetchOptions): Promise<FetchOutcome> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10;
  // One controller and one timer, cleared as soon as the answer is in:
  // `AbortSignal.timeout` + `AbortSignal.any` per request kept each signal alive until its
  // timer fired (10 s later: thousands of them at a time) and cost CPU on every request.
  const controller = new AbortController();
  const signal = controller.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("no complete answer in time", "TimeoutError"));
  }, options.timeoutMs);
  const outer = options.signal;
  if (outer?.aborted) controller.abort(outer.reason);
  const unlink = outer && !outer.aborted ? link(outer, controller) : undefined;
  const pool = options.pool ?? createPinnedPool({ caCerts: options.caCerts });
  try {
    // A URL given is only read (each hop is a new one), so it is not copied.
    const start = typeof url === "string" ? new URL(url) : url;
    const { res, url: finalUrl } = await follow(start, options, signal, pool);
    if (res.status === 304) {
      await res.body?.cancel();
      return { kind: "not_modified", latencyMs: latencyMs() };
    }
    const { text: body, bytes } = await readText(res, options.maxBytes ?? DEFAULT_MAX_BYTES);
    return {
      kind: "ok",
      body,
      bytes,
      status: res.status,
      url: finalUrl.href,
      headers: res.headers,
      latencyMs: latencyMs(),
      ...(res.headers.get("etag") ? { etag: res.headers.get("etag")! } : {}),
      ...(res.headers.get("last-modified")
        ? { lastModified: res.headers.get("last-modified")! }
        : {}),
    };
  } catch (err) {
    const failure = err instanceof Failure ? err : classify(err, timedOut);
    return {
      kind: "failed",
      reason: failure.reason,
      detail: failure.message,
      latencyMs: latencyMs(),
      ...(failure.status !== undefined ? { status: failure.status } : {}),
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  } finally {
    clearTimeout(timer);
    unlink?.();
    if (!options.pool) pool.close();
  }
}

/** The fetches in flight under each outer signal (the poller's: one per start). */
const linked = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * Aborts `controller` when `outer` aborts, through one listener per outer signal rather than
 * one added and removed per request; returns the unlink.
 */
function link(outer: AbortSignal, controller: AbortController): () => void {
  const inFlight = linked.get(outer) ?? watch(outer);
  inFlight.add(controller);
  return () => inFlight.delete(controller);
}

/** The set of fetches `outer` aborts, with its one listener. */
function watch(outer: AbortSignal): Set<AbortController> {
  const inFlight = new Set<AbortController>();
  outer.addEventListener("abort", () => {
    for (const c of inFlight) c.abort(outer.reason);
    inFlight.clear();
  }, { once: true });
  linked.set(outer, inFlight);
  return inFlight;
}

function classify(err: unknown, timedOut: boolean): Failure {
  if (timedOut) return new Failure("timeout", "no complete answer in time");
  // Deno's fetch throws TypeError("fetch failed") with the reason in `cause`.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Failure("network", message.split("\n")[0]!.slice(0, 300));
}

/**
 * Follows redirects by hand so each hop is counted and checked by the address guard; a hop to
 * a name goes over `pool`, pinned to the address the guard checked. Returns the last answer and
 * the URL it came from.
 */
async function follow(
  start: URL,
  options: FetchOptions,
  signal: AbortSignal,
  pool: PinnedPool,
): Promise<{ res: Response; url: URL }> {
  const seen = new Set<string>();
  let url = start;
  const limit = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  for (let hop = 0;; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Failure("network", `Cannot fetch "${url.protocol}" URLs`);
    }
    const pin = await guard(url, options, pool);
    const headers: [string, string][] = [["user-agent", USER_AGENT], ["accept", "*/*"]];
    if (hop === 0 && options.etag) headers.push(["if-none-match", options.etag]);
    if (hop === 0 && options.lastModified) {
      headers.push(["if-modified-since", options.lastModified]);
    }
    let res: Response;
    try {
      res = await pool.fetch(url, pin, { headers, signal });
    } catch (err) {
      if (pin !== null) options.forgetHost?.(checkedHost(url));
      throw err;
    }
    if (res.status < 300 || res.status >= 400 || res.status === 304) {
      if (res.status >= 400 || res.status < 200) {
        await res.body?.cancel();
        const retryAfterMs = ASKS_TO_WAIT.has(res.status)
          ? retryAfterOf(res.headers.get("retry-after"), options.now?.() ?? Date.now())
          : undefined;
        const asked = retryAfterMs === undefined
          ? ""
          : `; the vendor asked to wait ${Math.round(retryAfterMs / 1000)} s (Retry-After)`;
        throw new Failure(
          "http_status",
          `HTTP ${res.status} from ${url.host}${asked}`,
          res.status,
          retryAfterMs,
        );
      }
      return { res, url };
    }
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (!location) {
      throw new Failure("http_status", `HTTP ${res.status} without a Location`, res.status);
    }
    seen.add(url.href);
    const next = new URL(location, url);
    if (seen.has(next.href) || hop + 1 > limit) {
      throw new Failure(
        "redirect_loop",
        seen.has(next.href) ? `redirect loop back to ${next.href}` : `more than ${limit} redirects`,
      );
    }
    url = next;
  }
}

/** Statuses whose `Retry-After` asks a client to slow down (RFC 9110 §10.2.3, RFC 6585 §4). */
const ASKS_TO_WAIT = new Set([429, 503]);
/** Longest wait a `Retry-After` is taken at (ms): a vendor cannot silence statusd for days. */
export const RETRY_AFTER_MAX_MS = 6 * 60 * 60 * 1000;

/**
 * The wait (ms, at most {@link RETRY_AFTER_MAX_MS}) a `Retry-After` value asks for: delay
 * seconds or an HTTP date, relative to `now`; undefined when absent or unreadable.
 */
export function retryAfterOf(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d{1,10}$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (!/[a-z]/i.test(text) || Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
}

/** Reads the body as UTF-8 text, stopping once it exceeds `maxBytes`. */
async function readText(
  res: Response,
  maxBytes: number,
): Promise<{ text: string; bytes: number }> {
  const type = res.headers.get("content-type") ?? "";
  if (BINARY_TYPES.test(type) && !/json|xml|text/i.test(type)) {
    await res.body?.cancel();
    throw new Failure("not_machine_readable", `content-type "${type}" is not text`, res.status);
  }
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new Failure("too_large", `body of ${declared} bytes exceeds ${maxBytes}`, res.status);
  }
  if (!res.body) return { text: "", bytes: 0 };
  const encoding = res.headers.get("content-encoding");
  if (Number.isSafeInteger(declared) && (encoding === null || /^identity$/i.test(encoding))) {
    // The length is declared and the body is not compressed, so it cannot outgrow the cap:
    // read it whole in one go (reading chunk by chunk and joining them cost CPU and
    // left the chunks and their copy for the collector).
    const buffer = await res.arrayBuffer();
    const size = buffer.byteLength;
    const text = textOf(new Uint8Array(buffer), res.status);
    release(buffer);
    return { text, bytes: size };
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Failure("too_large", `body exceeds ${maxBytes} bytes`, res.status);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  const text = textOf(bytes, res.status);
  release(bytes.buffer);
  return { text, bytes: size };
}

/**
 * Frees the memory of a body buffer this module owns now, once its text is decoded, instead of at
 * the collection that finds it unreachable. Body buffers live outside the JavaScript heap; freed
 * late, thousands of them (the first readings of every vendor within a minute) left the process's
 * memory allocator fragmented and larger. Only buffers made here for the body: a
 * chunk of a stream may share its buffer with others.
 */
function release(buffer: ArrayBuffer): void {
  buffer.transfer(0);
}

const UTF8 = new TextDecoder();

/** The body as UTF-8 text; a NUL byte in its first KiB says it is not text. */
function textOf(bytes: Uint8Array, status: number): string {
  if (bytes.subarray(0, 1024).includes(0)) {
    throw new Failure("not_machine_readable", "body contains NUL bytes", status);
  }
  return UTF8.decode(bytes);
}

/** Checks the host of one hop (`checkPin`): the address to connect to, null for an IP literal. */
async function guard(url: URL, options: FetchOptions, pool: PinnedPool): Promise<string | null> {
  const pin = await checkPin(
    checkedHost(url),
    options.allowPrivate ?? NO_PRIVATE_ADDRESSES,
    options.resolve ?? systemResolve,
  );
  if (pin.allowed) return pin.address;
  if (!pin.unresolved) throw new Failure("refused_address", pin.reason);
  const proxy = pool.proxyOf(url);
  // Through a proxy too, a name is checked here first: say so, or the proxy looks to blame.
  throw new Failure(
    "network",
    proxy === null
      ? pin.reason
      : `${pin.reason} on this host (names are checked here before they go to the proxy ${proxy})`,
  );
}
