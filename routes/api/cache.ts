/**
 * An in-memory cache of serialized responses for public reads (JSON, and the badges, feeds
 * and calendar). Entries are dropped on every committed change (the store's change feed) and
 * after `RESPONSE_MAX_AGE_MS`, so a cached body is never behind a status change and at most a
 * few seconds behind a poll's `lastCheckedAt`. A body computed while a change arrived is served
 * but not kept. Built once in main.ts (`createResponseCache`) and passed to the routers.
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
  // Bumped by every clear: a body computed across a change is not kept (it may predate it).
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
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
      if (hit) return respond<T>(hit.body);
      const startedIn = generation;
      const body = encoder.encode(JSON.stringify(await compute()));
      keep(key, { body, at: now }, startedIn);
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
      if (!entry) {
        const startedIn = generation;
        const out = await compute();
        const body = typeof out.body === "string" ? encoder.encode(out.body) : out.body;
        entry = keep(
          key,
          { body, at: now, type: out.contentType, status: out.status ?? 200 },
          startedIn,
        );
      }
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
  };
}
