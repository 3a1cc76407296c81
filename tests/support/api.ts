/**
 * Rigs for API tests: the real HTTP app (`createServer`) over an in-memory store, filled
 * either by the real poller against the vendor simulator, or by readings recorded through the
 * store's port at chosen times (tests/support/seed.ts), for history/uptime maths with known
 * answers.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { type AppContext, createAppContext } from "../../app/mod.ts";
import {
  type Change,
  type EpochMs,
  fixedClock,
  type PackageSignals,
  type PageRead,
  type Store,
} from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller, loadCatalog, loadCatalogSignals } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import type { Env } from "../../routes/env.ts";
import { createResponseCache, createServer, type ResponseCache } from "../../routes/mod.ts";
import * as seed from "./seed.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "./simulator.ts";
import { memoryStore, pollerStats } from "./store.ts";
import { testPollerDeps } from "./poller.ts";
import { TEST_PASSWORD_COST } from "./accounts.ts";

/** The public URL every rig uses. */
export const PUBLIC_URL = "https://status.example.test";
/** The rigs' start time: 2026-11-20T12:00:00Z. */
export const T0 = Date.UTC(2026, 10, 20, 12);

/** A running app over a store. */
export interface ApiRig {
  readonly store: Store;
  readonly clock: ReturnType<typeof fixedClock>;
  readonly ctx: AppContext;
  readonly app: OpenAPIHono<Env>;
  /** The server's cache of public responses. */
  readonly cache: ResponseCache;
  /** Every change published so far. */
  readonly published: Change[];
  /** `app.request` with the path relative to the public URL. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

let signals: PackageSignals | undefined;
/** The built-in catalog's package signals (read once). */
function builtInSignals(): PackageSignals {
  return signals ??= loadCatalogSignals(loadCatalog());
}

/** An app over a fresh empty store, or `store` (add rows with the helpers below). */
export function apiRig(
  options: {
    running?: boolean;
    shutdown?: AbortSignal;
    store?: Store;
    /** How pages added by URL are read (the real reader over the simulator, in tests). */
    readStatusPage?: (url: string) => Promise<PageRead>;
  } = {},
): ApiRig {
  const store = options.store ?? memoryStore();
  const clock = fixedClock(T0);
  const published: Change[] = [];
  store.changes.subscribe((c) => {
    for (const change of c) published.push(change);
  });
  const ctx = createAppContext({
    store,
    clock,
    log: silentLogger,
    settings: {
      publicUrl: PUBLIC_URL,
      pollStableSeconds: 300,
      pollMovingSeconds: 60,
      signals: builtInSignals(),
      passwordCost: TEST_PASSWORD_COST,
    },
    readStatusPage: options.readStatusPage,
  });
  const cache = createResponseCache(store.changes);
  const app = createServer({
    app: ctx,
    ...(options.running === false ? {} : { pollerStats: () => pollerStats(true) }),
    responseCache: cache,
    shutdown: options.shutdown,
  });
  return {
    store,
    clock,
    ctx,
    app,
    cache,
    published,
    get: async (path, headers = {}) => await app.request(`${PUBLIC_URL}${path}`, { headers }),
    close: () => store.close(),
  };
}

/** A rig whose store is filled by the real poller reading the vendor simulator. */
export interface PolledRig extends ApiRig {
  readonly sim: Simulator;
  readonly poller: ReturnType<typeof createPoller>;
}

/** `count` simulated vendors, one poll round done (vendors listed in `outage` are down). */
export async function polledRig(count: number, outage: string[] = []): Promise<PolledRig> {
  const base = apiRig();
  const sim = startSimulator();
  await seed.syncVendors(base.store, sim.catalog(count), base.clock.now());
  for (const slug of outage) sim.setScenario(slug, "outage");
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 8,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(base.store, base.clock, { adapters: { statuspage } }),
  );
  await poller.runOnce();
  return {
    ...base,
    sim,
    poller,
    close: async () => {
      await poller.stop();
      await sim.close();
      await base.store.close();
    },
  };
}

/**
 * Adds a catalog vendor; with `status`, its page is read at `at` (default T0) showing it.
 * (tests/support/seed.ts)
 */
export function addVendor(
  store: Store,
  v: Parameters<typeof seed.addVendor>[1],
): Promise<void> {
  return seed.addVendor(store, v, T0);
}

/** Reads the vendor's page at each `[at, level]` in turn (its service-level history). */
export const addTransitions = seed.addTransitions;

/** Reads the vendor's page at `at` (default T0) showing `status`. */
export function setStatus(
  store: Store,
  slug: string,
  status: Parameters<typeof seed.setStatus>[2],
  at: EpochMs = T0,
) {
  return seed.setStatus(store, slug, status, at);
}

/** Adds a component to the vendor's page, read at `at` (default T0). */
export function addComponent(
  store: Store,
  slug: string,
  c: Parameters<typeof seed.addComponent>[2],
  at: EpochMs = T0,
): Promise<void> {
  return seed.addComponent(store, slug, c, at);
}

/** Adds an incident to the vendor's page, read at `at` (default T0). */
export function addIncident(
  store: Store,
  slug: string,
  i: seed.SeedIncident,
  at: EpochMs = T0,
): Promise<void> {
  return seed.addIncident(store, slug, i, at);
}

/** Parses a JSON body (with its status). */
export async function body(
  res: Response,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return { status: res.status, json: await res.json() };
}
