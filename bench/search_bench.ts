/**
 * Search over the whole built-in catalog, in-process (`deno task bench search`): p50/p95 of
 * `listServices` with a search text (what REST, MCP and the `/services` page run), of the ranking
 * alone, and, as the baseline measured in the same run, of `listServices` listing the first page
 * by name with no text. The goal is a p95 under 5 ms.
 * @module
 */
import { createAppContext, listServices } from "../app/mod.ts";
import { systemClock } from "../clock.ts";
import { rankSearch } from "../domain/mod.ts";
import { loadCatalog } from "../ingest/mod.ts";
import { silentLogger } from "../log.ts";
import { openSqliteStore } from "../store/mod.ts";
import { percentile } from "./_stats.ts";

/** What people type (whole names, other names, words out of order, hosts, typos). */
const QUERIES = [
  "git",
  "aws",
  "Microsoft Azure",
  "Docker Hub",
  "MongoDB Atlas",
  "Atlassian Jira",
  "stripe.com",
  "api.openai.com",
  "githb",
  "stirpe",
  "google cloud platform",
  "datadog eu",
  "zendsk",
  "microsoft 365",
  "slack",
  "nothing like any vendor",
];

/** Milliseconds each call of `run` took, `rounds` times over `QUERIES`. */
async function timed(rounds: number, run: (q: string) => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t = performance.now();
      await run(q);
      out.push(performance.now() - t);
    }
  }
  return out;
}

/** Runs the bench and prints its figures. */
export async function runSearchBench(rounds = Number(Deno.env.get("SEARCH_BENCH_ROUNDS") ?? 30)) {
  const store = openSqliteStore(":memory:");
  const catalog = loadCatalog();
  await store.catalog.sync(catalog, systemClock.now());
  const ctx = createAppContext({
    store,
    clock: systemClock,
    log: silentLogger,
    settings: { publicUrl: "http://localhost:8080", pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
  const page = { page: 0, limit: 20 };
  // Warm-up: the first search works out every entry once.
  await timed(2, (q) => listServices(ctx, { q }, page));
  const baseline = await timed(rounds, () => listServices(ctx, {}, page));
  const search = await timed(rounds, (q) => listServices(ctx, { q }, page));
  const ranking = await timed(rounds, (q) => rankSearch(q, catalog));
  const row = (name: string, ms: number[]) =>
    console.log(
      `${name.padEnd(34)} p50 ${percentile(ms, 50).toFixed(2).padStart(6)} ms   p95 ${
        percentile(ms, 95).toFixed(2).padStart(6)
      } ms`,
    );
  console.log(`search over ${catalog.length} vendors, ${QUERIES.length} queries × ${rounds}`);
  row("baseline: first page by name", baseline);
  row("listServices with a search text", search);
  row("ranking alone (domain/search.ts)", ranking);
  console.log(
    `ratio search / baseline (p95): ${
      (percentile(search, 95) / percentile(baseline, 95)).toFixed(2)
    } (goal: search p95 < 5 ms)`,
  );
  await store.close();
}
