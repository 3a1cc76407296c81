/**
 * Figures the benchmarks print: percentiles by the nearest-rank method of domain/sla.ts, NaN
 * (printed as such) when nothing was measured.
 * @module
 */
import { percentile as nearestRank } from "../domain/mod.ts";

/** The `p`-th percentile of `values` by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  return nearestRank(values, p) ?? NaN;
}
