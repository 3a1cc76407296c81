/**
 * The vendor simulator: a loopback HTTP server serving recorded Statuspage payloads per
 * simulated vendor, with ETag/Last-Modified, a scenario per vendor that tests (or, over HTTP,
 * benchmarks) can switch (calm → outage), and injectable failures: a hang, an HTML page,
 * invalid JSON, JSON of another shape, a binary file, HTTP 500, HTTP 404, a redirect loop and a
 * 50 MB body.
 *
 * Vendor `slug` lives at `http://127.0.0.1:<port>/v/<slug>`; any path below it serves the
 * vendor's current document, unless a test set a fixed document for that exact path
 * (`setDocument`: e.g. a status page's HTML and the API it links to). Unknown slugs start calm, so catalogs of any size need no setup.
 * Control over HTTP: `POST /_control/<slug>/<scenario>`; `GET /_control/stats`.
 *
 * Run as a program for benchmarks: `deno run -A tests/support/simulator.ts --listeners 4`
 * prints one JSON line `{"origins": [...]}` and serves until killed.
 * @module
 */
import { type AddressAllowance, parseAllowance, type Vendor } from "../../domain/mod.ts";

const loopback = parseAllowance("127.0.0.1");
/**
 * The simulator listens on loopback, which vendor fetches refuse by default: pollers reading it
 * allow 127.0.0.1 exactly as a self-hoster would (`STATUSD_ALLOW_PRIVATE_VENDORS=127.0.0.1`).
 */
export const ALLOW_SIMULATOR: AddressAllowance = loopback.ok
  ? loopback.allowance
  : { all: false, ranges: [] };

/** What a vendor's endpoint does now. */
export const SCENARIOS = [
  "calm",
  "outage",
  "hang",
  "html",
  "invalid_json",
  "wrong_shape",
  "binary",
  "status_500",
  "not_found",
  "redirect_loop",
  "huge",
] as const;
/** One of {@link SCENARIOS}. */
export type Scenario = (typeof SCENARIOS)[number];

const FIXTURES = new URL("../fixtures/statuspage/", import.meta.url);
/** The recorded bodies the simulator serves. */
export const PAYLOADS = {
  /** Claude's summary.json, every component operational. */
  calm: Deno.readTextFileSync(new URL("claude-summary-all-operational-2026.json", FIXTURES)),
  /** GitHub's summary.json during a partial outage with an investigating incident. */
  outage: Deno.readTextFileSync(
    new URL("github-summary-partial-outage-investigating.json", FIXTURES),
  ),
  /** Cloudflare's 504 error page, served with status 200 as some CDNs do. */
  html: Deno.readTextFileSync(new URL("cloudflare-error-504-gateway-timeout.html", FIXTURES)),
};

/** Size of the oversized body. */
export const HUGE_BYTES = 50 * 1024 * 1024;

interface VendorState {
  scenario: Scenario;
  version: number;
  changedAt: number;
  requests: number;
}

/** A fixed document served at one vendor path (ETag and Last-Modified follow its changes). */
export interface FixedDocument {
  readonly body: string;
  readonly contentType: string;
  /** HTTP status; 200 by default. */
  readonly status?: number;
  /** Extra response headers (e.g. `location` for a redirect). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /** Loopback listeners (ports); vendors are spread over them (distinct hosts for spacing). */
  readonly listeners?: number;
}

/** A running simulator. */
export interface Simulator {
  /** `http://127.0.0.1:<port>` of each listener. */
  readonly origins: readonly string[];
  /** Catalog entries for `count` simulated vendors `<prefix>-00001`…, spread over listeners. */
  catalog(count: number, prefix?: string): Vendor[];
  /** Switches a vendor's scenario (a new ETag and Last-Modified for documents). */
  setScenario(slug: string, scenario: Scenario): void;
  /** Serves `doc` at `/v/<slug><path>` (`path` "" is the vendor's page URL); null removes it. */
  setDocument(slug: string, path: string, doc: FixedDocument | null): void;
  scenarioOf(slug: string): Scenario;
  /** Requests the vendor's endpoint received so far. */
  requests(slug: string): number;
  /** All requests served. */
  readonly totalRequests: number;
  close(): Promise<void>;
}

/** Catalog entries for simulated vendors (also used by a bench talking to a simulator process). */
export function simulatedCatalog(
  origins: readonly string[],
  count: number,
  prefix = "sim",
): Vendor[] {
  return Array.from({ length: count }, (_, i) => {
    const slug = `${prefix}-${String(i + 1).padStart(5, "0")}`;
    return {
      name: `Simulated ${slug}`,
      slug,
      statusPageUrl: `${origins[i % origins.length]}/v/${slug}`,
      platform: "statuspage",
      category: "other",
      provider: slug,
      domains: [],
    };
  });
}

/** Starts a simulator on loopback, port 0. */
export function startSimulator(options: SimulatorOptions = {}): Simulator {
  const vendors = new Map<string, VendorState>();
  const fixed = new Map<string, FixedDocument & { state: VendorState }>();
  const closing = new AbortController();
  let total = 0;
  const state = (slug: string): VendorState => {
    let s = vendors.get(slug);
    if (!s) {
      s = { scenario: "calm", version: 1, changedAt: Date.now(), requests: 0 };
      vendors.set(slug, s);
    }
    return s;
  };
  const setScenario = (slug: string, scenario: Scenario) => {
    const s = state(slug);
    s.scenario = scenario;
    s.version++;
    s.changedAt = Date.now();
  };
  const handler = (req: Request): Response | Promise<Response> => {
    const url = new URL(req.url);
    const control = /^\/_control\/([^/]+)\/([a-z_0-9]+)$/.exec(url.pathname);
    if (control && req.method === "POST") {
      const scenario = control[2] as Scenario;
      if (!SCENARIOS.includes(scenario)) return new Response("unknown scenario", { status: 400 });
      setScenario(control[1]!, scenario);
      return new Response("ok");
    }
    if (url.pathname === "/_control/stats") {
      return Response.json({ totalRequests: total, vendors: vendors.size });
    }
    const m = /^\/v\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!m) return new Response("not found", { status: 404 });
    total++;
    const s = state(m[1]!);
    s.requests++;
    const doc = fixed.get(`${m[1]}${m[2] ?? ""}`);
    if (doc) {
      return document(req, doc.state, doc.body, doc.contentType, doc.status, doc.headers);
    }
    return serve(req, url, s, closing.signal);
  };
  const servers = Array.from(
    { length: options.listeners ?? 1 },
    () => Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler),
  );
  const origins = servers.map((s) => `http://127.0.0.1:${s.addr.port}`);
  return {
    origins,
    catalog: (count, prefix) => simulatedCatalog(origins, count, prefix),
    setScenario,
    setDocument(slug, path, doc) {
      const key = `${slug}${path}`;
      const version = (fixed.get(key)?.state.version ?? 0) + 1;
      if (!doc) fixed.delete(key);
      else {
        fixed.set(key, {
          ...doc,
          state: { scenario: "calm", version, changedAt: Date.now(), requests: 0 },
        });
      }
    },
    scenarioOf: (slug) => state(slug).scenario,
    requests: (slug) => vendors.get(slug)?.requests ?? 0,
    get totalRequests() {
      return total;
    },
    async close() {
      closing.abort();
      await Promise.all(servers.map((s) => s.shutdown()));
    },
  };
}

function serve(
  req: Request,
  url: URL,
  s: VendorState,
  closing: AbortSignal,
): Response | Promise<Response> {
  switch (s.scenario) {
    case "calm":
    case "outage":
      return document(req, s, PAYLOADS[s.scenario]);
    case "html":
      return new Response(PAYLOADS.html, { headers: { "content-type": "text/html" } });
    case "invalid_json":
      return new Response(PAYLOADS.outage.slice(0, 200), {
        headers: { "content-type": "application/json" },
      });
    case "wrong_shape":
      return new Response(JSON.stringify({ page: { name: "Moved" }, components: "none" }), {
        headers: { "content-type": "application/json" },
      });
    case "binary":
      return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), {
        headers: { "content-type": "image/png" },
      });
    case "status_500":
      return new Response("Internal Server Error", { status: 500 });
    case "not_found":
      return new Response("Not Found", { status: 404 });
    case "redirect_loop":
      return new Response(null, { status: 302, headers: { location: url.pathname } });
    case "huge":
      return new Response(hugeBody(), { headers: { "content-type": "application/json" } });
    case "hang":
      // Answers only when the simulator closes (or after 2 minutes): clients must time out.
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(new Response("too late", { status: 504 }));
        };
        const timer = setTimeout(done, 120_000);
        closing.addEventListener("abort", done, { once: true });
      });
  }
}

function document(
  req: Request,
  s: VendorState,
  body: string,
  contentType = "application/json",
  status = 200,
  extra: Readonly<Record<string, string>> = {},
): Response {
  const etag = `"v${s.version}-${s.scenario}"`;
  const lastModified = new Date(Math.floor(s.changedAt / 1000) * 1000).toUTCString();
  const headers = { etag, "last-modified": lastModified, "content-type": contentType, ...extra };
  if (status !== 200) {
    return new Response(body, { status, headers: { "content-type": contentType, ...extra } });
  }
  const inm = req.headers.get("if-none-match");
  const ims = req.headers.get("if-modified-since");
  const fresh = inm !== null
    ? inm === etag
    : ims !== null && Date.parse(ims) >= Date.parse(lastModified);
  if (fresh) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}

function hugeBody(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`{"pad":"${"x".repeat(64 * 1024 - 10)}"},`);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= HUGE_BYTES) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--listeners");
  const sim = startSimulator({ listeners: i >= 0 ? Number(Deno.args[i + 1]) : 1 });
  console.log(JSON.stringify({ origins: sim.origins }));
}
