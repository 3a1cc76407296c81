/**
 * A hostile vendor server on loopback: each vendor's status endpoint misbehaves in its own way
 * (stalls, drips, floods, bombs, loops, points inside, resets, or serves documents far beyond
 * any sane size, id churn or time range). Tests and the bench poll it beside the well-behaved
 * simulator. It also runs an "internal" service on 127.0.0.2 that no vendor fetch may reach;
 * its `internalHits` must stay empty.
 *
 * Vendor `hostile-<behaviour>` lives at `http://127.0.0.1:<port>/h/<behaviour>`; every path
 * below it gets the same answer (the Statuspage adapter asks `…/api/v2/summary.json`).
 *
 * Run as a program for benchmarks: `deno run -A tests/support/hostile.ts --copies 3` prints one
 * JSON line `{"catalog": [...]}` and serves until killed.
 * @module
 */
import type { Vendor } from "../../domain/mod.ts";

/** Every way a hostile vendor misbehaves. */
export const HOSTILE_BEHAVIOURS = [
  "stall",
  "drip",
  "huge_body",
  "gzip_bomb",
  "endless_stream",
  "redirect_loop",
  "redirect_private",
  "bad_utf8",
  "deep_json",
  "huge_component_list",
  "churning_ids",
  "huge_strings",
  "out_of_range_times",
  "html",
  "status_500",
  "reset",
  "detect_private",
] as const;
/** One of {@link HOSTILE_BEHAVIOURS}. */
export type HostileBehaviour = (typeof HOSTILE_BEHAVIOURS)[number];

/** Text the internal service answers with; it must never appear in anything stored. */
export const INTERNAL_MARKER = "internal-only-secret";

/** Components in the huge list (a body just under the 5 MB cap). */
export const HUGE_COMPONENTS = 80_000;
/** Components and incidents of the churning vendor, each reading with new ids. */
export const CHURN = { components: 3_000, incidents: 300 } as const;

/** A running hostile server. */
export interface HostileServer {
  /** Catalog entries, one vendor per behaviour (`detect_private` has platform `unknown`). */
  readonly catalog: readonly Vendor[];
  /** Requests the internal service (127.0.0.2) received: must stay empty. */
  readonly internalHits: readonly string[];
  /** Requests each behaviour's endpoint received. */
  requests(behaviour: HostileBehaviour): number;
  close(): Promise<void>;
}

const json = { "content-type": "application/json" };
const encoder = new TextEncoder();

/** A stream that never ends on its own: `chunk` again and again (every `everyMs`, or at once). */
function forever(chunk: Uint8Array, everyMs = 0): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream({
    pull(controller) {
      if (everyMs === 0) return controller.enqueue(chunk);
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(chunk);
          resolve();
        }, everyMs);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}

/** `bytes` gzip-compressed. */
async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function summary(doc: {
  indicator?: string;
  components?: unknown[];
  incidents?: unknown[];
}): string {
  return JSON.stringify({
    page: { id: "hostile", name: "Hostile", url: "https://hostile.example" },
    status: { indicator: doc.indicator ?? "none", description: "" },
    components: doc.components ?? [],
    incidents: doc.incidents ?? [],
    scheduled_maintenances: [],
  });
}

function component(id: string, name: string, status = "operational", group?: string) {
  return { id, name, status, ...(group ? { group_id: group } : {}) };
}

function incident(id: string, over: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return {
    id,
    name: `Incident ${id}`,
    status: "investigating",
    impact: "minor",
    created_at: now,
    updated_at: now,
    shortlink: `https://hostile.example/i/${id}`,
    components: [],
    incident_updates: [],
    ...over,
  };
}

function hugeComponentList(): string {
  return summary({
    indicator: "minor",
    components: Array.from(
      { length: HUGE_COMPONENTS },
      (_, i) => component(`c${i}`, `C${i}`, i % 1000 === 0 ? "major_outage" : "operational"),
    ),
  });
}

function churningIds(n: number): string {
  const status = n % 2 === 0 ? "major_outage" : "operational";
  return summary({
    indicator: "major",
    components: Array.from(
      { length: CHURN.components },
      (_, i) => component(`r${n}-${i}`, `Churn ${i}`, status),
    ),
    incidents: Array.from({ length: CHURN.incidents }, (_, i) =>
      incident(`r${n}-${i}`, {
        incident_updates: [{
          id: `u${n}-${i}`,
          status: "investigating",
          body: `Reading ${n}: ${"z".repeat(5_000)}`,
          created_at: new Date().toISOString(),
        }],
      })),
  });
}

function hugeStrings(): string {
  const mb = "s".repeat(1_000_000);
  return summary({
    components: [
      { ...component("big", mb), group_id: "g" },
      { id: "g", name: mb, status: "operational", group: true },
      component("i".repeat(300), "Id too long"),
    ],
    incidents: [
      incident("long", {
        name: mb,
        shortlink: `https://hostile.example/${"u".repeat(100_000)}`,
        incident_updates: [{
          id: "u",
          status: "investigating",
          body: mb,
          // A new time each reading: a new timeline entry each time.
          created_at: new Date().toISOString(),
        }],
      }),
    ],
  });
}

function outOfRangeTimes(): string {
  const ok = new Date(Date.now() - 3_600_000).toISOString();
  return summary({
    indicator: "minor",
    components: [component("api", "API", "degraded_performance")],
    incidents: [
      incident("far-future", { created_at: 9e15, updated_at: 9e15 }),
      incident("year-9999", { created_at: "9999-12-31T00:00:00Z", updated_at: ok }),
      incident("bad-update", {
        created_at: ok,
        updated_at: 9e15,
        incident_updates: [
          { id: "u1", status: "investigating", body: "later", created_at: 9e15 },
          { id: "u2", status: "investigating", body: "now", created_at: ok },
        ],
      }),
    ],
  });
}

function badUtf8(): Uint8Array<ArrayBuffer> {
  const text = summary({ components: [component("api", "API-@@", "operational")] });
  const bytes = encoder.encode(text);
  const at = text.indexOf("@@");
  bytes[at] = 0xff;
  bytes[at + 1] = 0xfe;
  return bytes;
}

/** Options of {@link startHostileServer}. */
export interface HostileOptions {
  /** Vendors per behaviour (`hostile-<behaviour>-<n>` from the second one on); 1 by default. */
  readonly copies?: number;
}

/** Starts the hostile server (and the internal service) on loopback. */
export async function startHostileServer(options: HostileOptions = {}): Promise<HostileServer> {
  const closing = new AbortController();
  const internalHits: string[] = [];
  const internal = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (req) => {
    internalHits.push(new URL(req.url).pathname);
    return new Response(summary({ components: [component("x", INTERNAL_MARKER)] }), {
      headers: json,
    });
  });
  const internalUrl = `http://127.0.0.2:${internal.addr.port}/internal`;
  const bomb = await gzip(new Uint8Array(64 * 1024 * 1024).fill(0x20));
  const fixed = {
    huge: hugeComponentList(),
    badUtf8: badUtf8(),
    deep: "[".repeat(2_000_000) + "]".repeat(2_000_000),
  };
  const counts = new Map<string, number>();
  const answer = (behaviour: HostileBehaviour, path: string): Response | Promise<Response> => {
    const n = (counts.get(behaviour) ?? 0) + 1;
    counts.set(behaviour, n);
    switch (behaviour) {
      case "stall":
        return new Promise((resolve) => {
          closing.signal.addEventListener("abort", () => resolve(new Response("late")), {
            once: true,
          });
        });
      case "drip":
        return new Response(forever(encoder.encode(" "), 100), { headers: json });
      case "huge_body":
        return new Response(forever(encoder.encode(`{"pad":"${"x".repeat(65_000)}"},`)), {
          headers: json,
        });
      case "gzip_bomb":
        return new Response(bomb, { headers: { ...json, "content-encoding": "gzip" } });
      case "endless_stream":
        return new Response(forever(encoder.encode('{"c":"ok"},'.repeat(1500))), {
          headers: json,
        });
      case "redirect_loop":
        return new Response(null, { status: 302, headers: { location: path } });
      case "redirect_private":
      case "detect_private":
        return new Response(null, { status: 302, headers: { location: internalUrl } });
      case "bad_utf8":
        return new Response(fixed.badUtf8, { headers: json });
      case "deep_json":
        return new Response(fixed.deep, { headers: json });
      case "huge_component_list":
        return new Response(fixed.huge, { headers: json });
      case "churning_ids":
        return new Response(churningIds(n), { headers: json });
      case "huge_strings":
        return new Response(hugeStrings(), { headers: json });
      case "out_of_range_times":
        return new Response(outOfRangeTimes(), { headers: json });
      case "html":
        return new Response("<!DOCTYPE html><html><body><h1>We are down</h1></body></html>", {
          headers: { "content-type": "text/html" },
        });
      case "status_500":
        return new Response("Internal Server Error", { status: 500 });
      case "reset":
        return new Response("unreachable", { status: 500 });
    }
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const m = /^\/h\/([a-z_0-9]+)(\/.*)?$/.exec(new URL(req.url).pathname);
    const behaviour = m?.[1] as HostileBehaviour | undefined;
    if (!behaviour || !HOSTILE_BEHAVIOURS.includes(behaviour)) {
      return new Response("not found", { status: 404 });
    }
    return answer(behaviour, new URL(req.url).pathname);
  });
  // A raw listener that reads a request and closes the connection without an answer.
  const raw = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const resets = (async () => {
    for await (const conn of raw) {
      counts.set("reset", (counts.get("reset") ?? 0) + 1);
      conn.read(new Uint8Array(4096)).catch(() => null).finally(() => {
        try {
          conn.close();
        } catch {
          // Already gone.
        }
      });
    }
  })().catch(() => {});
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const rawOrigin = `http://127.0.0.1:${(raw.addr as Deno.NetAddr).port}`;
  const catalog: Vendor[] = Array.from(
    { length: options.copies ?? 1 },
    (_, k) =>
      HOSTILE_BEHAVIOURS.map((b): Vendor => ({
        name: `Hostile ${b}`,
        slug: `hostile-${b.replaceAll("_", "-")}${k === 0 ? "" : `-${k + 1}`}`,
        statusPageUrl: `${b === "reset" ? rawOrigin : origin}/h/${b}${k === 0 ? "" : `/${k + 1}`}`,
        platform: b === "detect_private" ? "unknown" : "statuspage",
        category: "other",
        provider: "hostile",
        domains: [],
      })),
  ).flat();
  return {
    catalog,
    internalHits,
    requests: (b) => counts.get(b) ?? 0,
    async close() {
      closing.abort();
      raw.close();
      await resets;
      await Promise.all([server.shutdown(), internal.shutdown()]);
    },
  };
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--copies");
  const server = await startHostileServer({ copies: i >= 0 ? Number(Deno.args[i + 1]) : 1 });
  console.log(JSON.stringify({ catalog: server.catalog }));
}
