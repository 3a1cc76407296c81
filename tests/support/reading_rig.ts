/**
 * A real statusd (the HTTP app on a loopback port, its store filled by the real poller reading
 * the vendor simulator) with one vendor per reading error kind, plus a healthy vendor, one whose
 * reading dropped items (notes), one on a platform with no machine-readable status (`html`)
 * and one never polled. Used by the reading-health tests of every surface (REST, MCP, CLI,
 * pages), so each sees the same vendors.
 *
 * Timeline (fixed clock): polled at T0, then the vendors due again at T0 + 2 min; `now` is
 * T0 + 2 min. Every failing vendor has therefore failed twice in a row since T0.
 * @module
 */
import { account } from "./accounts.ts";
import { type AppContext, createAppContext, createKey, type Membership } from "../../app/mod.ts";
import { fixedClock, MINUTE_MS, type ReadingErrorKind, type Vendor } from "../../domain/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { createServer } from "../../routes/mod.ts";
import { syncVendors } from "./seed.ts";
import { ALLOW_SIMULATOR, type Scenario, startSimulator } from "./simulator.ts";
import { memoryStore, pollerStats } from "./store.ts";
import { testPollerDeps } from "./poller.ts";

/** The rig's first poll: 2026-11-20T12:00:00Z. */
export const T0 = Date.UTC(2026, 10, 20, 12);
/** When the tests read: two minutes later (the second round). */
export const NOW = T0 + 2 * MINUTE_MS;

/** One failing vendor per error kind: how the simulator (or the port) produces it. */
export interface FailingCase {
  readonly slug: string;
  readonly kind: ReadingErrorKind;
  /**
   * Simulator scenario; absent for `network` (a closed port) and `refused_address` (a loopback
   * address the poller is not allowed to fetch).
   */
  readonly scenario?: Scenario;
  readonly httpStatus: number | null;
  /** A piece of the stored message. */
  readonly message: RegExp;
  /** The CLI's words for it. */
  readonly words: string;
}

/** Every error kind, each on its own vendor. */
export const FAILING: readonly FailingCase[] = [
  { slug: "net-co", kind: "network", httpStatus: null, message: /./, words: "network error" },
  {
    slug: "slow-co",
    kind: "timeout",
    scenario: "hang",
    httpStatus: null,
    message: /no complete answer in time/,
    words: "timeout",
  },
  {
    slug: "err-co",
    kind: "http_status",
    scenario: "status_500",
    httpStatus: 500,
    message: /HTTP 500/,
    words: "HTTP 500",
  },
  {
    slug: "big-co",
    kind: "too_large",
    scenario: "huge",
    httpStatus: 200,
    message: /exceeds/,
    words: "too large",
  },
  {
    slug: "loop-co",
    kind: "redirect_loop",
    scenario: "redirect_loop",
    httpStatus: null,
    message: /redirect loop/,
    words: "redirect loop",
  },
  {
    slug: "private-co",
    kind: "refused_address",
    httpStatus: null,
    message: /not a public address/,
    words: "refused address",
  },
  {
    slug: "page-co",
    kind: "not_machine_readable",
    scenario: "html",
    httpStatus: 200,
    message: /not JSON/,
    words: "not machine-readable",
  },
  {
    slug: "shape-co",
    kind: "bad_payload",
    scenario: "wrong_shape",
    httpStatus: 200,
    message: /"components"/,
    words: "bad payload",
  },
  {
    slug: "garbled-co",
    kind: "parse_error",
    scenario: "invalid_json",
    httpStatus: 200,
    message: /not JSON/,
    words: "parse error",
  },
];

/** Notes the adapter reports for `notes-co` (25: more than are kept). */
export const DROPPED = Array.from(
  { length: 25 },
  (_, i) => [`incidents[${i}].started_at`, "no start time"] as const,
);

/** The running rig. */
export interface ReadingRig {
  /** `http://127.0.0.1:<port>` (also the public URL). */
  readonly url: string;
  readonly ctx: AppContext;
  readonly owner: Membership;
  /** A Pro key holding every scope (MCP). */
  readonly key: string;
  close(): Promise<void>;
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Starts the rig (close it in `finally`). */
export async function readingRig(): Promise<ReadingRig> {
  const sim = startSimulator();
  const origin = sim.origins[0]!;
  const vendor = (slug: string, extra: Partial<Vendor> = {}): Vendor => ({
    name: slug.replace(/-co$/, " Co").replace(/^./, (c) => c.toUpperCase()),
    slug,
    statusPageUrl: `${origin}/v/${slug}`,
    platform: "statuspage",
    category: "devtools",
    provider: slug,
    domains: [],
    ...extra,
  });
  const vendors: Vendor[] = [
    vendor("calm-co"),
    vendor("notes-co"),
    vendor("okta-like", { name: "Okta Like", platform: "html" }),
    ...FAILING.map((f) =>
      f.kind === "network"
        ? vendor(f.slug, { statusPageUrl: `http://127.0.0.1:${closedPort()}/v/${f.slug}` })
        : f.kind === "refused_address"
        ? vendor(f.slug, { statusPageUrl: `http://127.0.0.2:${closedPort()}/v/${f.slug}` })
        : vendor(f.slug)
    ),
  ];
  for (const f of FAILING) if (f.scenario) sim.setScenario(f.slug, f.scenario);

  const clock = fixedClock(T0);
  const store = memoryStore();
  await syncVendors(store, vendors, clock.now());
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 16,
      timeoutMs: 1500,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(store, clock, {
      maxBytes: 1024 * 1024,
      adapters: {
        statuspage: {
          ...statuspage,
          parse(body, pc) {
            if (pc.pageUrl.pathname.endsWith("/notes-co")) {
              for (const [path, reason] of DROPPED) pc.dropped?.(path, reason);
            }
            return statuspage.parse(body, pc);
          },
        },
      },
    }),
  );
  await poller.runOnce();
  clock.set(NOW);
  await poller.runOnce();
  // Added after the polls: never read.
  await syncVendors(store, [vendor("new-co")], NOW);

  let handler: (req: Request) => Response | Promise<Response> = () => new Response(null);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => handler(req),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const ctx: AppContext = createAppContext({
    store,
    clock,
    log: silentLogger,
    settings: { publicUrl: url, pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
  const app = createServer({ app: ctx, pollerStats: () => pollerStats(true) });
  handler = (req) => app.fetch(req);
  const owner = await account(ctx, "owner@reading.test", "PRO");
  const key = (await createKey(ctx, { kind: "admin", account: owner.account }, {
    name: "reading",
    scopes: [],
  })).secret;
  return {
    url,
    ctx,
    owner,
    key,
    async close() {
      await poller.stop();
      await server.shutdown();
      await sim.close();
      await store.close();
    },
  };
}
