/**
 * The vendor simulator: a loopback HTTP server serving recorded Statuspage payloads per
 * simulated vendor, with ETag/Last-Modified, a scenario per vendor that tests (or, over HTTP,
 * benchmarks) can switch (calm → outage), and injectable failures: a hang, an HTML page,
 * invalid JSON, JSON of another shape, a binary file, HTTP 500, HTTP 404, a redirect loop and a
 * 50 MB body.
 *
 * Vendor `slug` lives at `http://127.0.0.1:<port>/v/<slug>` (a Statuspage vendor) or
 * `/p/<platform>/v/<slug>` (any platform statusd reads: tests/support/platform_docs.ts); any
 * path below it serves the vendor's current document (the platform's pulse document at its
 * pulse path), unless a test set a fixed document for that exact path (`setDocument`: e.g. a
 * status page's HTML and the API it links to). Unknown slugs start calm, so catalogs of any
 * size need no setup. Documents carry ETag/Last-Modified and answer conditional requests 304
 * where the platform does. Control over HTTP: `POST /_control/<slug>/<scenario>`;
 * `GET /_control/stats` (requests and bytes served, an HTTP/1.1 estimate: status line, headers,
 * body; and the bodies' bytes alone).
 *
 * Run as a program for benchmarks: `deno run -A tests/support/simulator.ts --listeners 4`
 * prints one JSON line `{"origins": [...]}` and serves until killed; with
 * `--tls-names "*.vendors.invalid,127.0.0.1"` it also serves https with a throwaway certificate
 * for those names, its https origins and CA in the same line.
 * @module
 */
import { type Vendor } from "../../domain/mod.ts";
import { type AddressAllowance, parseAllowance } from "../../lib/mod.ts";
import { makeTestCertificate } from "./tls.ts";
import {
  isSimulatedPlatform,
  SIMULATED_PLATFORMS,
  type SimulatedPlatformName,
} from "./platform_docs.ts";

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
  "rate_limited",
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
/** The `Retry-After` (seconds) of the `rate_limited` scenario's 429 answers. */
export const RATE_LIMIT_RETRY_AFTER_S = 120;

interface VendorState {
  scenario: Scenario;
  version: number;
  changedAt: number;
  requests: number;
  /** Requests per path below the vendor's page ("" is the page itself). */
  paths?: Map<string, number>;
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
  /**
   * Also answer on every loopback address (127.0.0.0/8), listening on all interfaces but refusing
   * (403) any peer outside 127.0.0.0/8: the poller bench's host-per-vendor mode
   * (BENCH_HOST_PER_VENDOR=1) reaches each vendor at its own address. Off by default; the origins
   * stay `http://127.0.0.1:<port>`.
   */
  readonly everyLoopbackAddress?: boolean;
  /**
   * Also serve https: a TLS listener beside each plain one, same vendors and state, with this
   * certificate (the poller bench's `BENCH_TLS=1`). Its origins are `secureOrigins`.
   */
  readonly tls?: { readonly certPem: string; readonly keyPem: string };
}

/** A running simulator. */
export interface Simulator {
  /** `http://127.0.0.1:<port>` of each listener. */
  readonly origins: readonly string[];
  /** `https://127.0.0.1:<port>` of each TLS listener (none without the `tls` option). */
  readonly secureOrigins: readonly string[];
  /**
   * Catalog entries for `count` simulated vendors `<prefix>-00001`…, spread over listeners, of
   * `platform` (Statuspage by default).
   */
  catalog(count: number, prefix?: string, platform?: SimulatedPlatformName): Vendor[];
  /** Switches a vendor's scenario (a new ETag and Last-Modified for documents). */
  setScenario(slug: string, scenario: Scenario): void;
  /** Serves `doc` at `/v/<slug><path>` (`path` "" is the vendor's page URL); null removes it. */
  setDocument(slug: string, path: string, doc: FixedDocument | null): void;
  scenarioOf(slug: string): Scenario;
  /** Requests the vendor's endpoint received so far. */
  requests(slug: string): number;
  /** Requests received so far for `path` below the vendor's page (e.g. `/api/v2/status.json`). */
  requestsTo(slug: string, path: string): number;
  /** All requests served. */
  readonly totalRequests: number;
  /** Bytes served (HTTP/1.1 estimate: status line, headers, body). */
  readonly totalBytes: number;
  /** Client connections requests came over so far (distinct client ports). */
  readonly connections: number;
  close(): Promise<void>;
}

/** Catalog entries for simulated vendors (also used by a bench talking to a simulator process). */
export function simulatedCatalog(
  origins: readonly string[],
  count: number,
  prefix = "sim",
  platform: SimulatedPlatformName = "statuspage",
): Vendor[] {
  const under = platform === "statuspage" ? "" : `/p/${platform}`;
  return Array.from({ length: count }, (_, i) => {
    const slug = `${prefix}-${String(i + 1).padStart(5, "0")}`;
    return {
      name: `Simulated ${slug}`,
      slug,
      statusPageUrl: `${origins[i % origins.length]}${under}/v/${slug}`,
      platform,
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
  let bytes = 0;
  let bodyBytes = 0;
  /** Requests and bytes (all, and bodies alone) per vendor group (a slug's text before its first "-"). */
  const groups = new Map<string, { requests: number; bytes: number; bodyBytes: number }>();
  let group = { requests: 0, bytes: 0, bodyBytes: 0 };
  const served = (head: number, body = 0) => {
    bytes += head + body;
    bodyBytes += body;
    group.bytes += head + body;
    group.bodyBytes += body;
  };
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
  const peers = new Set<number>();
  const handler = (req: Request, info: Deno.ServeHandlerInfo): Response | Promise<Response> => {
    const peer = info.remoteAddr as Deno.NetAddr;
    // Listening on every interface answers this machine only.
    if (options.everyLoopbackAddress && !peer.hostname.startsWith("127.")) {
      return new Response("loopback only", { status: 403 });
    }
    peers.add(peer.port);
    const url = new URL(req.url);
    const control = /^\/_control\/([^/]+)\/([a-z_0-9]+)$/.exec(url.pathname);
    if (control && req.method === "POST") {
      const scenario = control[2] as Scenario;
      if (!SCENARIOS.includes(scenario)) return new Response("unknown scenario", { status: 400 });
      setScenario(control[1]!, scenario);
      return new Response("ok");
    }
    if (url.pathname === "/_control/stats") {
      return Response.json({
        totalRequests: total,
        totalBytes: bytes,
        totalBodyBytes: bodyBytes,
        vendors: vendors.size,
        groups: Object.fromEntries(groups),
      });
    }
    const m = /^(?:\/p\/([a-z-]+))?\/v\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!m) return new Response("not found", { status: 404 });
    const platform = m[1] ?? "statuspage";
    if (!isSimulatedPlatform(platform)) return new Response("unknown platform", { status: 404 });
    total++;
    const name = m[2]!.split("-")[0]!;
    group = groups.get(name) ?? { requests: 0, bytes: 0, bodyBytes: 0 };
    groups.set(name, group);
    group.requests++;
    const s = state(m[2]!);
    s.requests++;
    s.paths ??= new Map();
    s.paths.set(m[3] ?? "", (s.paths.get(m[3] ?? "") ?? 0) + 1);
    const doc = fixed.get(`${m[2]}${m[3] ?? ""}`);
    if (doc) {
      return document(req, doc.state, doc.body, doc.contentType, doc.status, doc.headers, served);
    }
    return serve(req, url, s, closing.signal, platform, m[3] ?? "", served);
  };
  /** One listener, plain or (with `tls`) https, serving every simulated vendor. */
  const listen = (tls?: SimulatorOptions["tls"]) =>
    Deno.serve({
      hostname: options.everyLoopbackAddress ? "0.0.0.0" : "127.0.0.1",
      port: 0,
      ...(tls ? { cert: tls.certPem, key: tls.keyPem } : {}),
      onListen: () => {},
    }, handler);
  const servers = Array.from({ length: options.listeners ?? 1 }, () => listen());
  const secure = options.tls ? servers.map(() => listen(options.tls)) : [];
  const origins = servers.map((s) => `http://127.0.0.1:${s.addr.port}`);
  return {
    origins,
    secureOrigins: secure.map((s) => `https://127.0.0.1:${s.addr.port}`),
    catalog: (count, prefix, platform) => simulatedCatalog(origins, count, prefix, platform),
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
    requestsTo: (slug, path) => vendors.get(slug)?.paths?.get(path) ?? 0,
    get totalRequests() {
      return total;
    },
    get totalBytes() {
      return bytes;
    },
    get connections() {
      return peers.size;
    },
    async close() {
      closing.abort();
      await Promise.all([...servers, ...secure].map((s) => s.shutdown()));
    },
  };
}

function serve(
  req: Request,
  url: URL,
  s: VendorState,
  closing: AbortSignal,
  platform: SimulatedPlatformName,
  path: string,
  served: (head: number, body?: number) => void,
): Response | Promise<Response> {
  switch (s.scenario) {
    case "calm":
    case "outage": {
      const p = SIMULATED_PLATFORMS[platform];
      const pulse = p.pulse && path.endsWith(p.pulse.path) ? p.pulse : null;
      const body = (pulse ?? p)[s.scenario];
      return document(req, s, body, p.contentType, 200, {}, served, p.validators);
    }
    case "rate_limited":
      return new Response("Too Many Requests", {
        status: 429,
        headers: { "retry-after": String(RATE_LIMIT_RETRY_AFTER_S) },
      });
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

/** Headers Deno adds (date, content-length) and the status line, in bytes (an estimate). */
const FRAMING_BYTES = 17 + 37 + 22 + 2;

function headerBytes(headers: Record<string, string>): number {
  let n = FRAMING_BYTES;
  for (const [k, v] of Object.entries(headers)) n += k.length + v.length + 4;
  return n;
}

function document(
  req: Request,
  s: VendorState,
  body: string,
  contentType = "application/json",
  status = 200,
  extra: Readonly<Record<string, string>> = {},
  /** Counts what was sent: the status line and headers, and the body. */
  served: (head: number, body?: number) => void = () => {},
  validators = true,
): Response {
  const etag = `"v${s.version}-${s.scenario}"`;
  const lastModified = new Date(Math.floor(s.changedAt / 1000) * 1000).toUTCString();
  const headers: Record<string, string> = validators
    ? { etag, "last-modified": lastModified, "content-type": contentType, ...extra }
    : { "content-type": contentType, ...extra };
  if (status !== 200) {
    const plain = { "content-type": contentType, ...extra };
    served(headerBytes(plain), body.length);
    return new Response(body, { status, headers: plain });
  }
  const inm = req.headers.get("if-none-match");
  const ims = req.headers.get("if-modified-since");
  const fresh = validators &&
    (inm !== null ? inm === etag : ims !== null && Date.parse(ims) >= Date.parse(lastModified));
  if (fresh) {
    served(headerBytes(headers));
    return new Response(null, { status: 304, headers });
  }
  served(headerBytes(headers), body.length);
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
  const arg = (name: string) => {
    const i = Deno.args.indexOf(name);
    return i >= 0 ? Deno.args[i + 1] : undefined;
  };
  // A throwaway certificate for these names, made here rather than in the bench's process (the
  // `openssl` runs cost the caller about 90 MB of RSS).
  const names = arg("--tls-names");
  const tls = names ? await makeTestCertificate(names.split(",")) : null;
  const sim = startSimulator({
    listeners: Number(arg("--listeners") ?? 1),
    everyLoopbackAddress: Deno.args.includes("--every-loopback-address"),
    ...(tls ? { tls } : {}),
  });
  console.log(
    JSON.stringify({ origins: sim.origins, secureOrigins: sim.secureOrigins, caPem: tls?.caPem }),
  );
}
