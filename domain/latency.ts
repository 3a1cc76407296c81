/**
 * Latency histograms with fixed, logarithmic buckets: the compact per-vendor, per-UTC-day
 * summary of fetch latencies that SLA reports read, so the raw fetch log need only
 * be kept for a short while. Pure.
 *
 * Bucket 0 holds latencies under 1 ms; bucket k ≥ 1 holds [G^(k−1), G^k) ms with G = 1.1; the
 * last bucket is open-ended (everything from G^122 ≈ 112 s, past the longest fetch timeout). A
 * percentile is read as the geometric middle of the bucket that holds the nearest-rank value,
 * so it is within ±4.9 % (√1.1 − 1, plus 0.05 ms of rounding to 0.1 ms) of the exact
 * nearest-rank percentile of the same latencies; under 1 ms it is 0.5 ms, within 0.5 ms.
 * @module
 */
import type { LatencySummary } from "./sla.ts";

/** Ratio between the bounds of one bucket. */
export const LATENCY_BUCKET_GROWTH = 1.1;
/** Number of buckets (0 … 123). */
export const LATENCY_BUCKETS = 124;
/** Largest relative error of a percentile read from a histogram (latencies from 1 ms). */
export const LATENCY_RELATIVE_ERROR = Math.sqrt(LATENCY_BUCKET_GROWTH) - 1;

/**
 * Lower bound (ms) of each bucket: 0, then G^0, G^1, …, G^122. Every reader and writer of
 * buckets compares against this one table, so a value on a bound lands in the same bucket
 * everywhere.
 */
export const LATENCY_BUCKET_FLOORS: readonly number[] = Object.freeze([
  0,
  ...Array.from({ length: LATENCY_BUCKETS - 1 }, (_, k) => LATENCY_BUCKET_GROWTH ** k),
]);

/** A histogram: count per bucket index (buckets with no latency are absent). */
export type LatencyHistogram = ReadonlyMap<number, number>;

/** The bucket that holds `ms` (negative and non-finite latencies count as 0 ms). */
export function latencyBucket(ms: number): number {
  const x = Number.isFinite(ms) && ms > 0 ? ms : 0;
  let lo = 0;
  let hi = LATENCY_BUCKETS - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (LATENCY_BUCKET_FLOORS[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The latency (ms, one decimal) a bucket stands for: the geometric middle of its bounds. */
export function bucketLatencyMs(bucket: number): number {
  if (bucket <= 0) return 0.5;
  const lower = LATENCY_BUCKET_FLOORS[Math.min(bucket, LATENCY_BUCKETS - 1)]!;
  return Math.round(lower * Math.sqrt(LATENCY_BUCKET_GROWTH) * 10) / 10;
}

/** A histogram of `latenciesMs`. */
export function histogramOf(latenciesMs: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const ms of latenciesMs) addLatency(out, ms);
  return out;
}

/** Counts one latency into `histogram`. */
export function addLatency(histogram: Map<number, number>, ms: number): void {
  const b = latencyBucket(ms);
  histogram.set(b, (histogram.get(b) ?? 0) + 1);
}

/** The sum of several histograms (e.g. the days of a report window). */
export function mergeHistograms(parts: Iterable<LatencyHistogram>): Map<number, number> {
  const out = new Map<number, number>();
  for (const h of parts) for (const [b, n] of h) out.set(b, (out.get(b) ?? 0) + n);
  return out;
}

/** Latencies counted. */
export function histogramSamples(histogram: LatencyHistogram): number {
  let n = 0;
  for (const c of histogram.values()) n += c;
  return n;
}

/**
 * The `p`-th percentile (0 < p ≤ 100) by nearest rank, read from a histogram (see the module
 * doc for its error bound); null when it counts nothing.
 */
export function histogramPercentile(histogram: LatencyHistogram, p: number): number | null {
  const total = histogramSamples(histogram);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const b of [...histogram.keys()].sort((x, y) => x - y)) {
    seen += histogram.get(b)!;
    if (seen >= rank) return bucketLatencyMs(b);
  }
  return bucketLatencyMs(LATENCY_BUCKETS - 1);
}

/** p50/p95/p99 and the sample count of a histogram (the SLA report's latency figures). */
export function histogramSummary(histogram: LatencyHistogram): LatencySummary {
  return {
    samples: histogramSamples(histogram),
    p50: histogramPercentile(histogram, 50),
    p95: histogramPercentile(histogram, 95),
    p99: histogramPercentile(histogram, 99),
  };
}
