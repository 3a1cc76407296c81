/**
 * The politeness rules under the pulse schedule (issue #15): pulses and full reads together
 * keep the per-host spacing and the concurrency limit, and full reads stay conditional. Two
 * loopback listeners (two hosts) record when each request arrived, how many were in flight
 * and whether it carried a validator; the schedule runs on a fake clock.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { fixedClock, SECOND_MS, type Vendor } from "../../domain/mod.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { SIMULATED_PLATFORMS } from "../support/platform_docs.ts";
import { syncVendors } from "../support/seed.ts";
import { ALLOW_SIMULATOR } from "../support/simulator.ts";
import { memoryStore } from "../support/store.ts";

const T0 = Date.UTC(2026, 10, 2, 12);
const SPACING_MS = 200;
const CONCURRENCY = 4;
/** Fewer hosts than the concurrency, so spacing, not the limit, holds each host back. */
const HOSTS = 2;
/**
 * Each answer is held this long: longer than the spacing, so without the limit more than
 * `CONCURRENCY` requests would be in flight across the hosts.
 */
const ANSWER_DELAY_MS = 500;
const SUMMARY = "/api/v2/summary.json";
const STATUSPAGE = SIMULATED_PLATFORMS.statuspage;
const PULSE = STATUSPAGE.pulse!.path;

interface Hit {
  readonly host: number;
  readonly slug: string;
  readonly path: string;
  readonly conditional: boolean;
  /** The poller's round it came in (0 at T0, then one a minute). */
  readonly round: number;
  status: number;
}

/** Loopback hosts serving Statuspage vendors at `/v/<slug>`, with ETags and 304s. */
function hosts(count: number) {
  const hits: Hit[] = [];
  const outage = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  let round = 0;
  const servers = Array.from(
    { length: count },
    (_, host) =>
      Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          const m = /^\/v\/([^/]+)(\/.*)$/.exec(new URL(req.url).pathname);
          const [slug, path] = [m?.[1] ?? "", m?.[2] ?? ""];
          const hit: Hit = {
            host,
            slug,
            path,
            conditional: req.headers.has("if-none-match"),
            round,
            status: 200,
          };
          hits.push(hit);
          await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS));
          const state = outage.has(slug) ? "outage" : "calm";
          const body = path === PULSE
            ? STATUSPAGE.pulse![state]
            : path === SUMMARY
            ? STATUSPAGE[state]
            : null;
          if (body === null) return new Response("not here", { status: hit.status = 404 });
          const etag = `"${path}-${state}"`;
          if (req.headers.get("if-none-match") === etag) {
            return new Response(null, { status: hit.status = 304, headers: { etag } });
          }
          return new Response(body, { headers: { "content-type": STATUSPAGE.contentType, etag } });
        } finally {
          inFlight--;
        }
      }),
  );
  return {
    hits,
    outage,
    nextRound: () => round++,
    get maxInFlight() {
      return maxInFlight;
    },
    origin: (i: number) => `http://127.0.0.1:${servers[i % count]!.addr.port}`,
    close: () => Promise.all(servers.map((s) => s.shutdown())),
  };
}

Deno.test("pulses and full reads together keep per-host spacing, the concurrency limit and conditional full reads", async () => {
  const h = hosts(HOSTS);
  const store = memoryStore();
  const clock = fixedClock(T0);
  const vendors: Vendor[] = Array.from({ length: 10 }, (_, i) => {
    const slug = `polite-${i}`;
    return {
      name: slug,
      slug,
      statusPageUrl: `${h.origin(i)}/v/${slug}`,
      platform: "statuspage",
      category: "other",
      provider: slug,
      domains: [],
    };
  });
  await syncVendors(store, vendors, clock.now());
  /** Each host's request starts, on the limiter's clock. */
  const starts = new Map<string, number[]>();
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      pulseSeconds: 60,
      concurrency: CONCURRENCY,
      timeoutMs: 5000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    {
      store: store.polls,
      clock,
      log: silentLogger,
      hostSpacingMs: SPACING_MS,
      random: () => 0.5,
      onHostStart: (host, at) => starts.set(host, [...starts.get(host) ?? [], at]),
    },
  );
  const step = async (seconds: number) => {
    clock.advance(seconds * SECOND_MS);
    h.nextRound();
    await poller.runOnce();
  };
  try {
    await poller.runOnce(); // T0: every vendor's pulse, then its first full read
    await step(60); // pulses only
    h.outage.add("polite-0");
    await step(60); // polite-0's pulse moved: its full read follows at once
    await step(60); // polite-0 is moving: full reads; the others pulse
    await step(60); // T0 + 240 s: a full read is due for the calm vendors (one per 300 s)

    const calls = (slug: string, path: string) =>
      h.hits.filter((x) => x.slug === slug && x.path === path);
    for (const v of vendors.slice(1)) {
      const inRound = (n: number) =>
        h.hits.filter((x) => x.slug === v.slug && x.round === n).map((x) => x.path);
      deepStrictEqual(inRound(0), [PULSE, SUMMARY], `${v.slug}: first the pulse, then in full`);
      for (const n of [1, 2, 3]) deepStrictEqual(inRound(n), [PULSE], `${v.slug}: a pulse only`);
      equal(inRound(4).at(-1), SUMMARY, `${v.slug}: in full once per stable interval`);
      deepStrictEqual(
        calls(v.slug, SUMMARY).map((x) => [x.conditional, x.status]),
        [[false, 200], [true, 304]],
        `${v.slug}: read in full at the start and once per stable interval, conditionally`,
      );
    }
    deepStrictEqual(
      calls("polite-0", SUMMARY).map((x) => [x.conditional, x.status]),
      [[false, 200], [true, 200], [true, 304], [true, 304]],
      "the moving vendor is read in full every minute, always conditionally",
    );

    // The spacing on the limiter's own clock, the one it schedules by: exact, no slack (arrival
    // times at the server would also carry the machine's load).
    equal(starts.size, HOSTS, "every host was polled");
    for (const [host, at] of starts) {
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      ok(gaps.length > 1, `${host}: several requests`);
      ok(
        gaps.every((g) => g >= SPACING_MS),
        `${host}: starts at least ${SPACING_MS} ms apart, got ${gaps.map(Math.round).join(", ")}`,
      );
    }
    ok(h.maxInFlight <= CONCURRENCY, `at most ${CONCURRENCY} in flight, saw ${h.maxInFlight}`);
    equal(h.maxInFlight, CONCURRENCY, "the hosts did overlap up to the limit");
  } finally {
    await poller.stop();
    await h.close();
    await store.close();
  }
});
