/**
 * An in-memory cache of serialized JSON responses for public reads. Entries are dropped on
 * every committed change (the change feed) and after `RESPONSE_MAX_AGE_MS`, so a cached body
 * is never behind a status change and at most a few seconds behind a poll's `lastCheckedAt`.
 * @module
 */
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { AppContext } from "../../app/mod.ts";

/** Cache entries are served for at most this long (ms). */
export const RESPONSE_MAX_AGE_MS = 5000;
const MAX_ENTRIES = 2000;

interface Entry {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly at: number;
}

/** A 200 JSON response typed as the route's body. */
export type JsonResponse<T> = Response & TypedResponse<JSONParsed<T>, 200, "json">;

/** Cache of response bodies keyed by request path and query. */
export interface ResponseCache {
  /** The JSON response for `c`'s URL: cached bytes, or `compute()` serialized and kept. */
  json<T>(c: Context, compute: () => T): JsonResponse<T>;
  /** Drops every entry. */
  clear(): void;
}

const caches = new WeakMap<AppContext, ResponseCache>();
const encoder = new TextEncoder();
const HEADERS = { "content-type": "application/json; charset=utf-8" };

function respond<T>(body: Uint8Array<ArrayBuffer>): JsonResponse<T> {
  return new Response(body, { headers: HEADERS }) as JsonResponse<T>;
}

function createCache(app: AppContext): ResponseCache {
  const entries = new Map<string, Entry>();
  app.changes.subscribe(() => entries.clear());
  return {
    json<T>(c: Context, compute: () => T): JsonResponse<T> {
      const url = c.req.url;
      const key = url.slice(url.indexOf("/", url.indexOf("//") + 2));
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < RESPONSE_MAX_AGE_MS) return respond<T>(hit.body);
      const body = encoder.encode(JSON.stringify(compute()));
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { body, at: now });
      return respond<T>(body);
    },
    clear: () => entries.clear(),
  };
}

/** The cache of `app` (one per app context, cleared by its change feed). */
export function responseCache(app: AppContext): ResponseCache {
  let cache = caches.get(app);
  if (!cache) {
    cache = createCache(app);
    caches.set(app, cache);
  }
  return cache;
}
