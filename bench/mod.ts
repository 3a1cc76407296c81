/**
 * Runs every benchmark in turn (`deno task bench`). Each prints its own report with a ratio
 * against a baseline measured in the same run. `BENCH_SECONDS` shortens timed runs.
 * @module
 */
import { runPollerBench } from "./poller_bench.ts";
import { runApiBench } from "./api_bench.ts";
import { hostileBenchOptions, runHostileBench } from "./hostile_bench.ts";

/** The benchmarks, by name; add a line per bench. */
const BENCHES: [string, () => Promise<void>][] = [
  ["poller", () =>
    runPollerBench({
      vendors: Number(Deno.env.get("BENCH_VENDORS") ?? 10_000),
      seconds: Number(Deno.env.get("BENCH_SECONDS") ?? 120),
      listeners: 250,
      concurrency: 32,
      flipEveryMs: 2000,
    })],
  ["api", () =>
    runApiBench({
      seconds: Number(Deno.env.get("API_BENCH_SECONDS") ?? 5),
      rounds: Number(Deno.env.get("API_BENCH_ROUNDS") ?? 3),
      connections: 50,
    })],
  ["hostile", () => runHostileBench(hostileBenchOptions())],
];

for (const [name, run] of BENCHES) {
  console.log(`\n=== ${name} ===`);
  await run();
}
