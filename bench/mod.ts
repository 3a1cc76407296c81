/**
 * Runs every benchmark in turn (`deno task bench`). Each prints its own report with a ratio
 * against a baseline measured in the same run. `BENCH_SECONDS` shortens timed runs; names
 * given as arguments (`deno task bench poller api`) run only those.
 * @module
 */
/**
 * The benchmarks, by name; add a line per bench. Each is imported when it runs, so one bench's
 * memory figures do not carry the modules of the others (the API bench loads the whole server).
 */
const BENCHES: [string, () => Promise<void>][] = [
  ["poller", async () => {
    const { pollerBenchOptions, runPollerBench } = await import("./poller_bench.ts");
    await runPollerBench(pollerBenchOptions());
  }],
  ["api", async () => {
    const { runApiBench } = await import("./api_bench.ts");
    await runApiBench({
      seconds: Number(Deno.env.get("API_BENCH_SECONDS") ?? 5),
      rounds: Number(Deno.env.get("API_BENCH_ROUNDS") ?? 3),
      connections: 50,
    });
  }],
  ["hostile", async () => {
    const { hostileBenchOptions, runHostileBench } = await import("./hostile_bench.ts");
    await runHostileBench(hostileBenchOptions());
  }],
  ["cluster", async () => {
    const { clusterScaleOptions, runClusterScaleBench } = await import("./cluster_scale_bench.ts");
    await runClusterScaleBench(clusterScaleOptions());
  }],
  ["cluster-leases", async () => {
    const { clusterBenchOptions, runClusterBench } = await import("./cluster_bench.ts");
    await runClusterBench(clusterBenchOptions());
  }],
  ["engines", async () => {
    const { runEnginesBench } = await import("./engines_bench.ts");
    await runEnginesBench({
      seconds: Number(Deno.env.get("ENGINES_BENCH_SECONDS") ?? 5),
      rounds: Number(Deno.env.get("ENGINES_BENCH_ROUNDS") ?? 3),
      connections: 20,
    });
  }],
  ["records", async () => {
    const { recordsBenchOptions, runRecordsBench } = await import("./records_bench.ts");
    await runRecordsBench(recordsBenchOptions());
  }],
  ["alerts", async () => {
    const { alertsScaleOptions, runAlertsScaleBench } = await import("./alerts_scale_bench.ts");
    await runAlertsScaleBench(alertsScaleOptions());
  }],
  ["probes", async () => {
    const { probesBenchOptions, runProbesBench } = await import("./probes_bench.ts");
    await runProbesBench(probesBenchOptions());
  }],
  ["search", async () => {
    const { runSearchBench } = await import("./search_bench.ts");
    await runSearchBench();
  }],
  ["alerts-retries", async () => {
    const { alertsBenchOptions, runAlertsBench } = await import("./alerts_bench.ts");
    await runAlertsBench(alertsBenchOptions());
  }],
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
