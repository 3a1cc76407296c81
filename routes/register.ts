/**
 * What every router receives, and the shape of a router module. Kept apart from `mod.ts` so
 * that routers do not import the file that imports them.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppContext } from "../app/mod.ts";
import type { PollerStats, ProberStats } from "../domain/mod.ts";
import type { ResponseCache } from "./api/cache.ts";
import type { Env } from "./env.ts";

/** What the HTTP app needs from main.ts. */
export interface ServerDeps {
  readonly app: AppContext;
  /** The poller's counters for `/healthz` (absent: the poller is not running here). */
  readonly pollerStats?: () => PollerStats;
  /** The prober's counters for `/healthz` (absent: no probes here). */
  readonly proberStats?: () => ProberStats;
  /**
   * The cache of public responses (built in main.ts with `createResponseCache`); a server
   * built without one gets its own.
   */
  readonly responseCache?: ResponseCache;
  /** Aborted when the server is stopping: long-lived responses (SSE) end at once. */
  readonly shutdown?: AbortSignal;
  /**
   * Addresses/CIDRs of reverse proxies whose forwarded client address is believed
   * (`STATUSD_TRUSTED_PROXIES`); none by default.
   */
  readonly trustedProxies?: readonly string[];
  /** This process's name among instances sharing a database (`/healthz`). */
  readonly instance?: string;
}

/** The dependencies routers see: {@link ServerDeps} with the response cache resolved. */
export interface RouterDeps extends ServerDeps {
  readonly responseCache: ResponseCache;
}

/** A router module adds its operations to the shared OpenAPI app. */
export type Register = (api: OpenAPIHono<Env>, deps: RouterDeps) => void;
