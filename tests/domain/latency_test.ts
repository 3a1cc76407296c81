import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  bucketLatencyMs,
  histogramOf,
  histogramPercentile,
  histogramSummary,
  LATENCY_BUCKET_FLOORS,
  LATENCY_BUCKETS,
  LATENCY_RELATIVE_ERROR,
  latencyBucket,
  mergeHistograms,
  percentile,
} from "../../domain/mod.ts";

Deno.test("latency buckets: under 1 ms, then ×1.1 steps, the last one open-ended", () => {
  equal(latencyBucket(0), 0);
  equal(latencyBucket(0.99), 0);
  equal(latencyBucket(-5), 0);
  equal(latencyBucket(Number.NaN), 0);
  equal(latencyBucket(1), 1);
  equal(latencyBucket(1.0999), 1);
  equal(latencyBucket(1.1), 2);
  equal(latencyBucket(10_000_000), LATENCY_BUCKETS - 1);
  for (let b = 1; b < LATENCY_BUCKETS; b++) {
    equal(latencyBucket(LATENCY_BUCKET_FLOORS[b]!), b, `a value on a floor is in its bucket ${b}`);
  }
  ok(LATENCY_BUCKET_FLOORS.at(-1)! > 100_000, "beyond the longest fetch timeout");
});

Deno.test("a bucket's latency is within the stated error of every value it holds", () => {
  for (let ms = 1; ms < 120_000; ms *= 1.013) {
    const rep = bucketLatencyMs(latencyBucket(ms));
    // The latency is given to 0.1 ms, as the fetch log keeps it.
    ok(Math.abs(rep - ms) <= LATENCY_RELATIVE_ERROR * ms + 0.05, `${ms} → ${rep}`);
  }
  equal(bucketLatencyMs(0), 0.5);
});

Deno.test("percentiles read from a histogram of known latencies stay within ±4.9 % of the exact ones", () => {
  // 1,000 known latencies: a body of 40–400 ms, a slow tail to 9 s.
  const latencies = Array.from({ length: 1000 }, (_, i) => i < 950 ? 40 + (i % 360) : 1000 + i * 8);
  const h = histogramOf(latencies);
  for (const p of [50, 95, 99]) {
    const exact = percentile(latencies, p)!;
    const read = histogramPercentile(h, p)!;
    ok(Math.abs(read - exact) / exact <= LATENCY_RELATIVE_ERROR, `p${p}: ${read} vs ${exact}`);
  }
  equal(histogramSummary(h).samples, 1000);
});

Deno.test("days merge into one window; an empty histogram has no percentiles", () => {
  const monday = histogramOf([100, 100, 100]);
  const tuesday = histogramOf([900]);
  const week = mergeHistograms([monday, tuesday]);
  deepStrictEqual(histogramSummary(week), {
    samples: 4,
    p50: bucketLatencyMs(latencyBucket(100)),
    p95: bucketLatencyMs(latencyBucket(900)),
    p99: bucketLatencyMs(latencyBucket(900)),
  });
  deepStrictEqual(histogramSummary(new Map()), { samples: 0, p50: null, p95: null, p99: null });
});
