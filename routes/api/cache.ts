/**
 * An in-memory cache of serialized responses for public reads (JSON, and the badges, feeds
 * and calendar). Entries are dropped on every committed change (the store's change feed) and
 * after `RESPONSE_MAX_AGE_MS`, so a cached body is never behind a status change and at most a
 * few seconds behind a poll's `lastCheckedAt`. A body computed while a change arrived is served
 * but not kept. Built once in main.ts (`createResponseCache`) and passed to the routers.
 *
 * In front of the router, the same cache replays whole answers (status, every header, body) to
 * anonymous GETs of a URL whose last answer came from it: `replay` before routing, `remember`
 * after. Only a request with no credential, cookie, `Origin`, conditional header or board-host
 * mark qualifies, only a 200 built on a cache entry that is still current is kept, never one
 * that sets a cookie or says `no-store`/`private`; a replay ends with the entry it was built on
 * (the next change, or its age).
 * @module
 */
import { BOARD_HOST_HEADER } from "../board_host.ts";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { ChangeListener } from "../../domain/mod.ts";

/** Cache entries are served for at most this long (ms). */
export const RESPONSE_MAX_AGE_MS = 5000;
const MAX_ENTRIES = 2000;
/**
 * Bytes of body the replays may hold together (they copy what the router sent); past it they
 * start again empty, like the entries past {@link MAX_ENTRIES}.
 */
export const REPLAY_BYTES_MAX = 32 * 1024 * 1024;

interface Entry {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly at: number;
  /** Strong validator of `body` (quoted), computed on first use. */
  etag?: string;
}

/** A cached non-JSON representation: its bytes, media type and status. */
export interface CachedBody {
  readonly body: string | Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  /** 200 unless said (e.g. a 404 badge image). */
  readonly status?: number;
}

/** Headers added to a {@link ResponseCache.send} response (e.g. `Cache-Control`). */
export type ExtraHeaders = Readonly<Record<string, string>>;

/** A 200 JSON response typed as the route's body. */
export type JsonResponse<T> = Response & TypedResponse<JSONParsed<T>, 200, "json">;

/** Cache of response bodies keyed by request path and query. */
export interface ResponseCache {
  /** The JSON response for `c`'s URL: cached bytes, or `compute()` serialized and kept. */
  json<T>(c: Context, compute: () => Promise<T>): Promise<JsonResponse<T>>;
  /**
   * The representation for `c`'s URL, from cache or `compute()`, with a strong `ETag`; answers
   * 304 without a body when `If-None-Match` names it. Errors thrown by `compute` are not cached.
   */
  send(
    c: Context,
    compute: () => Promise<CachedBody>,
    headers?: ExtraHeaders,
  ): Promise<Response>;
  /** Drops every entry. */
  clear(): void;
  /** The answer last remembered for this request, when it may be replayed; else null. */
  replay(req: Request): Response | null;
  /**
   * `res` (the router's answer to `req`, dispatched as `dispatched`), kept for replay when both
   * qualify; the response to send (a copy when its body was read).
   */
  remember(req: Request, dispatched: Request, res: Response): Promise<Response>;
}

const encoder = new TextEncoder();
const HEADERS = { "content-type": "application/json; charset=utf-8" };

function respond<T>(body: Uint8Array<ArrayBuffer>): JsonResponse<T> {
  return new Response(body, { headers: HEADERS }) as JsonResponse<T>;
}

/** The request's path and query: the cache key. */
function keyOf(c: Context): string {
  const url = c.req.url;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  // A board's page on its own host links its files differently (routes/board_host.ts).
  const host = c.req.header(BOARD_HOST_HEADER);
  return host === undefined ? path : `${host}${path}`;
}

/** Request headers that make an answer the caller's own (or conditional): never replayed. */
const PERSONAL_HEADERS = new Set([
  "authorization",
  "x-api-key",
  "cookie",
  "origin",
  "if-none-match",
  "if-modified-since",
  BOARD_HOST_HEADER,
]);

/** The replay key of an anonymous, unconditional GET (its URL and `Accept`), else null. */
function replayKey(req: Request): string | null {
  if (req.method !== "GET") return null;
  let accept = "";
  for (const [name, value] of req.headers) {
    if (PERSONAL_HEADERS.has(name)) return null;
    if (name === "accept") accept = value;
  }
  return `${req.url} ${accept}`;
}

/** A whole answer kept for replay, and the cache entry it was built on. */
interface Replay {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: Uint8Array<ArrayBuffer>;
  /** When its cache entry was made, and in which generation. */
  readonly at: number;
  readonly generation: number;
}

/** A strong validator of the bytes: the first 128 bits of their SHA-256, as hex. */
function fingerprint(bytes: Uint8Array): string {
  return encodeHexLowerCase(sha256(bytes).subarray(0, 16));
}

/** True when an `If-None-Match` value names `etag` (or is `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" ||
    ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** A new, empty cache, cleared by every change `changes` tells of. */
export function createResponseCache(
  changes: { subscribe(listener: ChangeListener): () => void },
): ResponseCache {
  const entries = new Map<string, Entry & { type?: string; status?: number }>();
  const replays = new Map<string, Replay>();
  let replayBytes = 0;
  // The cache entry each request was answered from (its time and generation).
  const served = new WeakMap<Request, { at: number; generation: number }>();
  // Bumped by every clear: a body computed across a change is not kept (it may predate it).
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
    replays.clear();
    replayBytes = 0;
  };
  changes.subscribe(clear);
  const lookup = (key: string, now: number) => {
    const hit = entries.get(key);
    return hit && now - hit.at < RESPONSE_MAX_AGE_MS ? hit : undefined;
  };
  const keep = (
    key: string,
    entry: Entry & { type?: string; status?: number },
    startedIn: number,
  ) => {
    if (startedIn !== generation) return entry;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, entry);
    return entry;
  };
  return {
    async json<T>(c: Context, compute: () => Promise<T>): Promise<JsonResponse<T>> {
      const key = keyOf(c);
      const now = Date.now();
      const hit = lookup(key, now);
      if (hit) {
        served.set(c.req.raw, { at: hit.at, generation });
        return respond<T>(hit.body);
      }
      const startedIn = generation;
      const body = encoder.encode(JSON.stringify(await compute()));
      keep(key, { body, at: now }, startedIn);
      if (startedIn === generation) served.set(c.req.raw, { at: now, generation });
      return respond<T>(body);
    },
    async send(
      c: Context,
      compute: () => Promise<CachedBody>,
      headers: ExtraHeaders = {},
    ): Promise<Response> {
      const key = keyOf(c);
      const now = Date.now();
      let entry = lookup(key, now);
      // A body computed across a change is served but not kept, nor remembered for replay.
      let current = true;
      if (!entry) {
        const startedIn = generation;
        const out = await compute();
        const body = typeof out.body === "string" ? encoder.encode(out.body) : out.body;
        entry = keep(
          key,
          { body, at: now, type: out.contentType, status: out.status ?? 200 },
          startedIn,
        );
        current = startedIn === generation;
      }
      if (current) served.set(c.req.raw, { at: entry.at, generation });
      entry.etag ??= `"${fingerprint(entry.body)}"`;
      const common = { ...headers, ETag: entry.etag };
      if (entry.status === 200 && matches(c.req.header("if-none-match"), entry.etag)) {
        return new Response(null, { status: 304, headers: common });
      }
      return new Response(entry.body, {
        status: entry.status,
        headers: { ...common, "content-type": entry.type! },
      });
    },
    clear,
    replay(req: Request): Response | null {
      if (replays.size === 0) return null;
      const key = replayKey(req);
      const hit = key === null ? undefined : replays.get(key);
      if (!hit || hit.generation !== generation || Date.now() - hit.at >= RESPONSE_MAX_AGE_MS) {
        return null;
      }
      return new Response(hit.body, { status: hit.status, headers: hit.headers });
    },
    async remember(req: Request, dispatched: Request, res: Response): Promise<Response> {
      const from = served.get(dispatched);
      if (from === undefined || from.generation !== generation || res.status !== 200) return res;
      const key = replayKey(req);
      const cacheControl = res.headers.get("cache-control") ?? "";
      if (
        key === null || res.headers.has("set-cookie") ||
        /\b(?:no-store|private)\b/i.test(cacheControl)
      ) return res;
      const body = new Uint8Array(await res.arrayBuffer());
      const headers = [...res.headers];
      // Reading the body may have let a change in: the replay is kept only if none came.
      if (from.generation === generation) {
        if (replays.size >= MAX_ENTRIES || replayBytes + body.length > REPLAY_BYTES_MAX) {
          replays.clear();
          replayBytes = 0;
        }
        replayBytes += body.length - (replays.get(key)?.body.length ?? 0);
        replays.set(key, { status: res.status, headers, body, at: from.at, generation });
      }
      return new Response(body, { status: res.status, statusText: res.statusText, headers });
    },
  };
}
