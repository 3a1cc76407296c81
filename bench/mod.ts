/**
 * Runs every benchmark in turn (`deno task bench`). Each prints its own report with a ratio
 * against a baseline measured in the same run. `BENCH_SECONDS` shortens timed runs; names
 * given as arguments (`deno task bench poller api`) run only those.
 * @module
 */
import { pollerBenchOptions, runPollerBench } from "./poller_bench.ts";
import { runApiBench } from "./api_bench.ts";
import { hostileBenchOptions, runHostileBench } from "./hostile_bench.ts";
import { runEnginesBench } from "./engines_bench.ts";
import { clusterBenchOptions, runClusterBench } from "./cluster_bench.ts";
import { recordsBenchOptions, runRecordsBench } from "./records_bench.ts";
import { alertsBenchOptions, runAlertsBench } from "./alerts_bench.ts";

/** The benchmarks, by name; add a line per bench. */
const BENCHES: [string, () => Promise<void>][] = [
  ["poller", () => runPollerBench(pollerBenchOptions())],
  ["api", () =>
    runApiBench({
      seconds: Number(Deno.env.get("API_BENCH_SECONDS") ?? 5),
      rounds: Number(Deno.env.get("API_BENCH_ROUNDS") ?? 3),
      connections: 50,
    })],
  ["hostile", () => runHostileBench(hostileBenchOptions())],
  ["cluster", () => runClusterBench(clusterBenchOptions())],
  ["engines", () =>
    runEnginesBench({
      seconds: Number(Deno.env.get("ENGINES_BENCH_SECONDS") ?? 5),
      rounds: Number(Deno.env.get("ENGINES_BENCH_ROUNDS") ?? 3),
      connections: 20,
    })],
  ["records", () => runRecordsBench(recordsBenchOptions())],
  ["alerts", () => runAlertsBench(alertsBenchOptions())],
];

const only = new Set(Deno.args);
const unknown = [...only].filter((name) => !BENCHES.some(([n]) => n === name));
if (unknown.length > 0) {
  console.error(
    `unknown bench ${unknown.join(", ")}: one of ${BENCHES.map(([n]) => n).join(", ")}`,
  );
  Deno.exit(2);
}
for (const [name, run] of BENCHES) {
  if (only.size > 0 && !only.has(name)) continue;
  console.log(`\n=== ${name} ===`);
  await run();
}
