/**
 * Polite HTTP GET for status documents: timeout, streamed size cap, manual redirects with a
 * limit, conditional requests, and an optional private-address guard for URLs that users
 * supply. Never throws: every outcome is a value of {@link FetchOutcome}.
 * @module
 */
import type { ReadingErrorKind } from "../domain/mod.ts";

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
  }
  | { readonly kind: "not_modified"; readonly latencyMs: number }
  | {
    readonly kind: "failed";
    readonly reason: FailureReason;
    readonly detail: string;
    readonly latencyMs: number;
    /** HTTP status when the server answered. */
    readonly status?: number;
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
  /** Refuse loopback, private, link-local and other non-public addresses (user-supplied URLs). */
  readonly blockPrivateAddresses?: boolean;
  /** Aborts the request early (poller shutdown). */
  readonly signal?: AbortSignal;
  /** Resolves a host name to addresses (tests); defaults to Deno.resolveDns A + AAAA. */
  readonly resolve?: (hostname: string) => Promise<string[]>;
}

/** Default size cap: 5 MB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** Default redirect limit. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** The User-Agent statusd sends. */
export const USER_AGENT = "statusd/0.1 (status page reader)";

const BINARY_TYPES = /^(image|audio|video|font)\/|^application\/(octet-stream|zip|gzip|pdf|x-)/i;

class Failure extends Error {
  constructor(readonly reason: FailureReason, detail: string, readonly status?: number) {
    super(detail);
  }
}

/** GETs `url` politely; see the module doc. */
export async function politeFetch(url: URL | string, options: FetchOptions): Promise<FetchOutcome> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const res = await follow(new URL(url), options, signal);
    if (res.status === 304) {
      await res.body?.cancel();
      return { kind: "not_modified", latencyMs: latencyMs() };
    }
    const body = await readText(res, options.maxBytes ?? DEFAULT_MAX_BYTES);
    return {
      kind: "ok",
      body,
      status: res.status,
      url: res.url,
      headers: res.headers,
      latencyMs: latencyMs(),
      ...(res.headers.get("etag") ? { etag: res.headers.get("etag")! } : {}),
      ...(res.headers.get("last-modified")
        ? { lastModified: res.headers.get("last-modified")! }
        : {}),
    };
  } catch (err) {
    const failure = err instanceof Failure ? err : classify(err, timeout);
    return {
      kind: "failed",
      reason: failure.reason,
      detail: failure.message,
      latencyMs: latencyMs(),
      ...(failure.status !== undefined ? { status: failure.status } : {}),
    };
  }
}

function classify(err: unknown, timeout: AbortSignal): Failure {
  if (timeout.aborted) return new Failure("timeout", "no complete answer in time");
  const message = err instanceof Error ? err.message : String(err);
  return new Failure("network", message.split("\n")[0]!.slice(0, 300));
}

/** Follows redirects by hand so each hop is counted (and checked by the address guard). */
async function follow(start: URL, options: FetchOptions, signal: AbortSignal): Promise<Response> {
  const seen = new Set<string>();
  let url = start;
  const limit = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  for (let hop = 0;; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Failure("network", `Cannot fetch "${url.protocol}" URLs`);
    }
    if (options.blockPrivateAddresses) await guard(url, options.resolve ?? resolveDns);
    const headers = new Headers({ "user-agent": USER_AGENT, accept: "*/*" });
    if (hop === 0 && options.etag) headers.set("if-none-match", options.etag);
    if (hop === 0 && options.lastModified) headers.set("if-modified-since", options.lastModified);
    const res = await fetch(url, { headers, redirect: "manual", signal });
    if (res.status < 300 || res.status >= 400 || res.status === 304) {
      if (res.status >= 400 || res.status < 200) {
        await res.body?.cancel();
        throw new Failure("http_status", `HTTP ${res.status} from ${url.host}`, res.status);
      }
      return res;
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

/** Reads the body as UTF-8 text, stopping once it exceeds `maxBytes`. */
async function readText(res: Response, maxBytes: number): Promise<string> {
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
  if (!res.body) return "";
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
  if (bytes.subarray(0, 1024).includes(0)) {
    throw new Failure("not_machine_readable", "body contains NUL bytes", res.status);
  }
  return new TextDecoder().decode(bytes);
}

async function resolveDns(hostname: string): Promise<string[]> {
  const results = await Promise.allSettled([
    Deno.resolveDns(hostname, "A"),
    Deno.resolveDns(hostname, "AAAA"),
  ]);
  return results.flatMap((r) => r.status === "fulfilled" ? r.value : []);
}

async function guard(url: URL, resolve: (hostname: string) => Promise<string[]>): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) {
    throw new Failure("refused_address", `${host} is not a public address`);
  }
  const addresses = isIpLiteral(host) ? [host] : await resolve(host);
  if (addresses.length === 0) throw new Failure("network", `${host} does not resolve`);
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw new Failure("refused_address", `${host} resolves to non-public ${bad}`);
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/** True for loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges. */
export function isPrivateAddress(address: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19));
  }
  const v6 = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]!);
  return v6 === "::" || v6 === "::1" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) ||
    v6.startsWith("ff") || v6.startsWith("64:ff9b:") || v6.startsWith("2001:db8");
}
