/**
 * Rigs for API tests: the real HTTP app (`createServer`) over an in-memory store, filled
 * either by the real poller against the vendor simulator, or by hand with small SQL helpers
 * (for history/uptime maths with known answers).
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppContext } from "../../app/mod.ts";
import {
  type Category,
  type Change,
  type EpochMs,
  fixedClock,
  type Impact,
  type IncidentStatus,
  type StatusLevel,
  type Vendor,
} from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import type { Env } from "../../routes/env.ts";
import { createServer } from "../../routes/mod.ts";
import { createChangeFeed, type Db, pollStore, syncCatalog } from "../../store/mod.ts";
import { ALLOW_SIMULATOR, type Simulator, startSimulator } from "./simulator.ts";
import { memoryStore } from "./store.ts";

/** The public URL every rig uses. */
export const PUBLIC_URL = "https://status.example.test";
/** The rigs' start time: 2026-11-20T12:00:00Z. */
export const T0 = Date.UTC(2026, 10, 20, 12);

/** A running app over a store. */
export interface ApiRig {
  readonly db: Db;
  readonly clock: ReturnType<typeof fixedClock>;
  readonly ctx: AppContext;
  readonly app: OpenAPIHono<Env>;
  /** Every change published so far. */
  readonly published: Change[];
  /** `app.request` with the path relative to the public URL. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** An app over a fresh empty store (add rows with the helpers below). */
export function apiRig(
  options: { running?: boolean; shutdown?: AbortSignal } = {},
): ApiRig {
  const db = memoryStore();
  const clock = fixedClock(T0);
  const changes = createChangeFeed();
  const published: Change[] = [];
  changes.subscribe((c) => {
    for (const change of c) published.push(change);
  });
  const ctx: AppContext = {
    db,
    clock,
    changes,
    log: silentLogger,
    settings: { publicUrl: PUBLIC_URL, pollStableSeconds: 300, pollMovingSeconds: 60 },
  };
  const app = createServer({
    app: ctx,
    pollerStats: () => ({ running: options.running ?? true }),
    shutdown: options.shutdown,
  });
  return {
    db,
    clock,
    ctx,
    app,
    published,
    get: async (path, headers = {}) => await app.request(`${PUBLIC_URL}${path}`, { headers }),
    close: () => {
      db.close();
      return Promise.resolve();
    },
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
  syncCatalog(base.db, sim.catalog(count), base.clock.now());
  for (const slug of outage) sim.setScenario(slug, "outage");
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 8,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    {
      store: pollStore(base.db),
      changes: base.ctx.changes,
      clock: base.clock,
      log: silentLogger,
      adapters: { statuspage },
      hostSpacingMs: 0,
      random: () => 0.5,
    },
  );
  await poller.runOnce();
  return {
    ...base,
    sim,
    poller,
    close: async () => {
      await poller.stop();
      await sim.close();
      base.db.close();
    },
  };
}

/** Adds a catalog vendor (through the real catalog sync) at `status`; returns its row id. */
export function addVendor(
  db: Db,
  v: {
    slug: string;
    name?: string;
    category?: Category;
    provider?: string;
    status?: StatusLevel;
    lastChangedAt?: EpochMs | null;
    lastCheckedAt?: EpochMs | null;
  },
): number {
  const vendor: Vendor = {
    name: v.name ?? v.slug,
    slug: v.slug,
    statusPageUrl: `https://${v.slug}.example.test/`,
    platform: "statuspage",
    category: v.category ?? "other",
    provider: v.provider ?? v.slug,
    domains: [],
  };
  const existing = db.prepare(
    "SELECT slug, name, status_page_url AS statusPageUrl, platform, category, provider FROM vendors WHERE in_catalog = 1",
  ).all()
    .map((r) => ({ ...(r as Omit<Vendor, "domains">), domains: [] as string[] }) as Vendor);
  syncCatalog(db, [...existing, vendor], T0);
  db.prepare(
    "UPDATE vendors SET current_status = ?, last_changed_at = ?, last_checked_at = ? WHERE slug = ?",
  ).run(v.status ?? "OPERATIONAL", v.lastChangedAt ?? null, v.lastCheckedAt ?? null, v.slug);
  return (db.prepare("SELECT id FROM vendors WHERE slug = ?").get(v.slug) as { id: number }).id;
}

/** Adds service-level transitions `[at, to]`, each starting from the previous level. */
export function addTransitions(
  db: Db,
  vendorId: number,
  steps: [EpochMs, StatusLevel][],
  first: StatusLevel = "UNKNOWN",
): void {
  let from = first;
  const insert = db.prepare(
    "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, NULL, ?, ?, ?)",
  );
  for (const [at, to] of steps) {
    insert.run(vendorId, from, to, at);
    from = to;
  }
}

/** Adds a component; returns its row id. */
export function addComponent(
  db: Db,
  vendorId: number,
  c: { externalId: string; name: string; status: StatusLevel; group?: string | null },
): number {
  const row = db.prepare(
    `INSERT INTO components (vendor_id, external_id, name, group_name, status, updated_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(vendorId, c.externalId, c.name, c.group ?? null, c.status, T0) as { id: number };
  return row.id;
}

/** Adds an incident with its timeline; returns its row id. */
export function addIncident(
  db: Db,
  vendorId: number,
  i: {
    externalId: string;
    title: string;
    status: IncidentStatus;
    impact: Impact;
    startedAt: EpochMs;
    updatedAt?: EpochMs;
    resolvedAt?: EpochMs | null;
    componentIds?: string[];
    updates?: { at: EpochMs; status: IncidentStatus; body: string }[];
  },
): number {
  const row = db.prepare(
    `INSERT INTO incidents (vendor_id, external_id, title, status, impact, started_at, updated_at,
       resolved_at, url, component_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(
    vendorId,
    i.externalId,
    i.title,
    i.status,
    i.impact,
    i.startedAt,
    i.updatedAt ?? i.startedAt,
    i.resolvedAt ?? null,
    `https://example.test/incidents/${i.externalId}`,
    JSON.stringify(i.componentIds ?? []),
  ) as { id: number };
  for (const u of i.updates ?? []) {
    db.prepare("INSERT INTO incident_updates (incident_id, at, status, body) VALUES (?, ?, ?, ?)")
      .run(row.id, u.at, u.status, u.body);
  }
  return row.id;
}

/** Parses a JSON body (with its status). */
export async function body(
  res: Response,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return { status: res.status, json: await res.json() };
}
